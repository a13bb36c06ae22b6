"""State shared by bot replicas on several hosts, kept in Redis (``KGQA_REDIS_URL``); without it nothing here runs."""
