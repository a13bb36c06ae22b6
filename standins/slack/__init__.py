"""Slack on loopback: the Web API (``api``), signed events, commands and clicks (``signing``), Socket Mode's
WebSocket link (``socket_mode``)."""
