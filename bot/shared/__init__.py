"""The bot's state shared by replicas on several hosts, in Redis: event dedup and per-person rate limits."""
