"""Web Push's tables: subscriptions per device, what each account wants, the reminders sent, the server's key.

Declared on the one :data:`~ghostparty.server.infra.db.metadata`, so the migrations
(``ghostparty/server/infra/migrations``) and their test compare one schema.
"""

from __future__ import annotations

from sqlalchemy import Column, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy import Table as SqlTable

from ghostparty.server.infra.db import metadata

# -- 0019: Web Push: subscriptions per device, what each account wants, the server's key --

#: A browser's push subscription (one per device): where to post (the push service's
#: endpoint) and the keys the payload is encrypted to (RFC 8291).
push_subscriptions = SqlTable(
    "gp_push_subscriptions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("endpoint", String(1000), nullable=False, unique=True),
    #: The browser's P-256 public key and auth secret, base64url as the browser gives them.
    Column("p256dh", String(200), nullable=False),
    Column("auth", String(64), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("last_success", DateTime(timezone=True)),
)

#: What kinds of notification an account wants (space-separated) and in which language.
push_choices = SqlTable(
    "gp_push_choices",
    metadata,
    Column("player_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), primary_key=True),
    Column("kinds", String(100), nullable=False),
    Column("language", String(8), nullable=False),
)

#: The "your move" notifications sent: one per game and mover until the game changes.
push_reminders = SqlTable(
    "gp_push_reminders",
    metadata,
    Column("table_id", String(16), ForeignKey("gp_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("player_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), primary_key=True),
    Column("sent", DateTime(timezone=True), nullable=False),
)

#: The server's VAPID key (PEM), made once when no key file is given (one row, id 1).
push_keys = SqlTable(
    "gp_push_keys",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("private_key", Text, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)
