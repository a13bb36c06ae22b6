"""👍 proposals and long pairs: the contracts (``base``), a JSON file (``file``), this process (``memory``), Redis
(``redis``)."""
