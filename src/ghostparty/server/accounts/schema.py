"""The personal API tokens' table (players, sessions, ratings and results are in :mod:`ghostparty.server.infra.db`: the tables' domain writes results too).

Declared on the one :data:`~ghostparty.server.infra.db.metadata`, so the migrations
(``ghostparty/server/infra/migrations``) and their test compare one schema.
"""

from __future__ import annotations

from sqlalchemy import Column, DateTime, ForeignKey, Integer, String
from sqlalchemy import Table as SqlTable

from ghostparty.server.infra.db import metadata

api_tokens = SqlTable(
    "gp_api_tokens",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), nullable=False, index=True),
    #: SHA-256 of the token's secret, hex (tokens.py): a leaked table grants nothing.
    Column("hash", String(64), nullable=False, unique=True, index=True),
    Column("name", String(40), nullable=False),
    #: The scopes, space-separated (``play read``).
    Column("scopes", String(100), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("expires", DateTime(timezone=True)),  # ``None``: never
    Column("last_used", DateTime(timezone=True)),
)
