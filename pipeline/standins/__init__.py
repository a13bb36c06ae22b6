"""Stand-ins for the tests and the benchmark scripts, never imported by the product: servers on loopback that speak
the real wire protocols (TGI, a SPARQL endpoint, a TCP proxy that stops answering; real ``chroma run``,
``redis-server`` and Virtuoso on free ports), the ORKG-shaped fixture graph with its queries, and in-process fakes.
Nothing here imports ``bot``; the Slack side lives in ``bot.standins``."""
