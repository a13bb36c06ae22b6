"""Event dedup: the contract (``base``), this process (``memory``), a SQLite file (``sqlite``), Redis (``redis``)."""
