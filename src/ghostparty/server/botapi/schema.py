"""The bot invitations' table.

Declared on the one :data:`~ghostparty.server.infra.db.metadata`, so the migrations
(``ghostparty/server/infra/migrations``) and their test compare one schema.
"""

from __future__ import annotations

from sqlalchemy import Column, DateTime, ForeignKey, Integer, String
from sqlalchemy import Table as SqlTable

from ghostparty.server.infra.db import metadata

# -- 0017: bot invitations ---------------------------------------------------------------

#: A person's invitation of a bot account to one seat of an open table: the bot may take
#: that seat (``POST /api/bot/invitations/{table}/accept``) until it answers or it expires.
bot_invitations = SqlTable(
    "gp_bot_invitations",
    metadata,
    Column("table_id", String(16), ForeignKey("gp_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("bot_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), primary_key=True, index=True),
    Column("inviter_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("expires", DateTime(timezone=True), nullable=False, index=True),
)
