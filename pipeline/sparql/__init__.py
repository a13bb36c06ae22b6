"""SPARQL text: tokenising, cleaning and the read-only gate; a query's shape; its one-sentence reading."""
