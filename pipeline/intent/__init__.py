"""Answer the question that was asked, or say so: what a question asks (``reading``), whether a query does it
(``guard``), and queries composed for common asks the stored pairs lack (``compose``), joined in ``step``."""
