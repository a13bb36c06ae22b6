"""Names as people type them, resolved against the knowledge graph's own labels."""
