"""Generators: turn a question and its most similar examples into SPARQL (or a reason why not)."""
