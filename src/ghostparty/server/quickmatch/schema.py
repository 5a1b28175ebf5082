"""The quick-match queue's table.

Declared on the one :data:`~ghostparty.server.infra.db.metadata`, so the migrations
(``ghostparty/server/infra/migrations``) and their test compare one schema.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, DateTime, ForeignKey, Integer, String, false
from sqlalchemy import Table as SqlTable

from ghostparty.server.infra.db import metadata

# -- 0003: the quick-match queue ----------------------------------------------------------

queue = SqlTable(
    "gp_queue",
    metadata,
    #: SHA-256 of the waiting page's ticket, hex.
    Column("id", String(64), primary_key=True),
    Column("player_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), index=True),
    Column("name", String(64), nullable=False),
    Column("rules", String(32), nullable=False),
    Column("players", Integer),  # None: any number, 2 to 4
    Column("rated", Boolean, nullable=False),
    Column("bots_after", Integer),  # seconds; None: never
    Column("rating", Integer),
    Column("joined", DateTime(timezone=True), nullable=False),
    #: When the waiting page last asked: a page closed stops asking, and leaves the queue.
    Column("seen", DateTime(timezone=True), nullable=False, index=True),
    #: Once seated: the table, the seat and its token (handed to the page that asks).
    Column("table_id", String(16)),
    Column("seat", Integer),
    Column("token", String(64)),
    #: 0015: a bot account's ticket, and a person's who allows bot accounts at the table.
    Column("bot_account", Boolean, nullable=False, server_default=false()),
    Column("allow_bots", Boolean, nullable=False, server_default=false()),
)
