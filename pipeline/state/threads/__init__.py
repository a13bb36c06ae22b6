"""A thread's earlier turns: the contract (``base``), this process (``memory``), a SQLite file (``sqlite``), Redis
(``redis``)."""
