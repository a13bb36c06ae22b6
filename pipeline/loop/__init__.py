"""The check loop: how a question's query is written, judged and asked for again, in one place.

Writers (the offline adapter, a language model, the intent step's composer, a teammate's taught pair through the
adapter) are an ordered list; each query one of them writes passes the same checks, each run once on it, and each
check says one thing of it (``verdicts.Call``): it passes, it was fixed, the model is asked again with the reason,
the next writer takes over, or the question is declined with an offer. ``run.Loop`` runs them with one try budget
and records every step (``Answer.checks``), every model reply on ``Generation.attempts``."""
