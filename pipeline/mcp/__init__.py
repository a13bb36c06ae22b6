"""`kgqa mcp`: the pipeline as Model Context Protocol tools (``tools``: what each does; ``server``: the MCP wiring and
the shared load limits; ``auth``: the bearer token of the HTTP transport)."""
