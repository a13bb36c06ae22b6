"""The stand-ins: what tests and benchmark scripts run against where the real thing cannot run here.

A deliberate, documented part of the project (as httpx ships its mock transport and click its ``testing`` module),
never imported by the product (``pipeline``, ``bot``; ``tests/test_layers.py`` holds it). Each speaks the real wire
protocol, so a test fails where the real service would refuse:

- Slack's side of the wire: its Web API with Slack's limits and errors, request signing, Socket Mode
  (``standins.slack``), and the real bot run over HTTP on loopback (``harness``, ``proc``, ``replicas``, ``burst``);
- model servers: Text Generation Inference answering with the recorded Vicuna-13B outputs, plus scripted faults
  (``tgi``);
- knowledge graphs: a SPARQL endpoint (``sparql_endpoint``), a real Virtuoso (``virtuoso``), the ORKG-shaped fixture
  graph with its questions and gold answers (``orkg_fixture``, ``fixture_questions``, ``solutions``);
- shared state and stores: a real ``redis-server`` (``redis``) and ``chroma run`` (``chroma``) on free ports;
- faults: a TCP proxy that stops answering (``tcp``), refused URLs (``loopback``), the fault matrix (``faults``);
- in-process fakes of the swappable parts (``fakes``).
"""
