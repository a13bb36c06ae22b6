"""The steps around answering that are not answering: the question's time budget (``deadline``), the parts' health
probes (``health``) and the glance added to an answer (``glance``); ``pipeline.core`` calls them."""
