"""E-mail's tables: addresses (sealed), one-time tokens, the outbox, reminders sent.

Declared on the one :data:`~ghostparty.server.infra.db.metadata`, so the migrations
(``ghostparty/server/infra/migrations``) and their test compare one schema.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, DateTime, ForeignKey, Integer, String, Text, false
from sqlalchemy import Table as SqlTable

from ghostparty.server.infra.db import metadata

# -- 0009: email: addresses (sealed), one-time tokens, the outbox, reminders sent ---------

emails = SqlTable(
    "gp_emails",
    metadata,
    Column("player_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), primary_key=True),
    #: The address encrypted with a key derived from the server's secret (email_keys.py).
    Column("sealed", String(600), nullable=False),
    #: HMAC-SHA256 of the normalized address under another derived key, hex: unique, and
    #: how an address is found (a reset) without keeping it in clear.
    Column("lookup", String(64), nullable=False, unique=True),
    Column("confirmed", Boolean, nullable=False, server_default=false()),
    Column("reminders", Boolean, nullable=False, server_default=false()),
    Column("invitations", Boolean, nullable=False, server_default=false()),
    #: The language of the account's emails ("en", "de").
    Column("language", String(8), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)

email_tokens = SqlTable(
    "gp_email_tokens",
    metadata,
    #: SHA-256 of the link's random token, hex: a leaked table opens no link.
    Column("id", String(64), primary_key=True),
    Column("player_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("purpose", String(8), nullable=False),  # "confirm" or "reset"
    #: For a confirmation: the lookup of the address it confirms (changed since: void).
    Column("lookup", String(64)),
    Column("expires", DateTime(timezone=True), nullable=False, index=True),
)

outbox = SqlTable(
    "gp_outbox",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), index=True),
    Column("kind", String(12), nullable=False),
    #: The whole message (RFC 5322, recipient included), sealed as the addresses are.
    Column("message", Text, nullable=False),
    Column("status", String(8), nullable=False, index=True),  # "queued", "sent" or "failed"
    Column("attempts", Integer, nullable=False, server_default="0"),
    Column("next_try", DateTime(timezone=True), nullable=False, index=True),
    #: An instance sending it holds it until then (several instances: one sends each).
    Column("lease_until", DateTime(timezone=True)),
    Column("last_error", String(400)),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("sent", DateTime(timezone=True)),
)

reminders = SqlTable(
    "gp_reminders",
    metadata,
    Column("table_id", String(16), ForeignKey("gp_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("player_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), primary_key=True),
    Column("sent", DateTime(timezone=True), nullable=False),
)
