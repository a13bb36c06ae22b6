"""The built-in parts, registered as any plugin registers its own (``pipeline.registry`` loads these modules by
name)."""
