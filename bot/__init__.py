"""The Slack app over the KGQA pipeline: ``create_app(pipeline, settings)``; run it with ``python -m bot``."""
