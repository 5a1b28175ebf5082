"""The server's redis-py client (leases); the pub/sub, presence and limits use redis_wire."""

from __future__ import annotations

from typing import Any

#: Commands in flight at once per client; more wait for a free connection.
MAX_CONNECTIONS = 64
#: Seconds a command waits for a free connection before it fails as Redis being away.
WAIT = 5.0


def redis_client(url: str, *, max_connections: int = MAX_CONNECTIONS, wait: float = WAIT) -> Any:
    """An asyncio Redis client whose commands wait for a free connection of its pool.

    redis-py's default pool refuses a command beyond its 100 connections ("Too many
    connections"): under load (200 games' updates published at once) that sent updates
    to one instance's clients only, and the others had to resynchronise. A blocking pool
    queues such commands instead, and a handful of connections carries the load.
    """
    import redis.asyncio as aioredis

    pool = aioredis.BlockingConnectionPool.from_url(url, max_connections=max_connections, timeout=wait)
    return aioredis.Redis.from_pool(pool)
