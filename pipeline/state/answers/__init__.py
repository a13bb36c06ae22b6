"""The answer cache's entries: the contract (``base``), a SQLite file (``sqlite``), Redis (``redis``)."""
