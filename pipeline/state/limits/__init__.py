"""Per-caller rate limits: the contract (``base``), this process's counters (``memory``), every replica's
(``redis``)."""
