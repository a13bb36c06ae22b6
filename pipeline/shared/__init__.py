"""What front ends and replicas share: the load limits (every front end), and state kept in Redis for bot replicas
on several hosts (``KGQA_REDIS_URL``; without it no Redis code runs)."""
