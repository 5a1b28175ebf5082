"""Moderation's and friends' tables: blocks, mutes, roles, reports, the audit log; follows and invitations.

Declared on the one :data:`~ghostparty.server.infra.db.metadata`, so the migrations
(``ghostparty/server/infra/migrations``) and their test compare one schema.
"""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Column, DateTime, ForeignKey, Integer, String, false
from sqlalchemy import Table as SqlTable

from ghostparty.server.infra.db import metadata

# -- 0007: moderation: blocks, mutes, reports, sanctions, the audit log ----------------------

blocks = SqlTable(
    "gp_blocks",
    metadata,
    Column("blocker_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), primary_key=True),
    Column("blocked_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), primary_key=True, index=True),
    Column("created", DateTime(timezone=True), nullable=False),
)

mutes = SqlTable(
    "gp_mutes",
    metadata,
    Column("player_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), primary_key=True),
    Column("table_id", String(16), ForeignKey("gp_tables.id", ondelete="CASCADE"), primary_key=True),
    #: Whom: the channel and the writer's name, folded (``players:ann``).
    Column("writer", String(80), primary_key=True),
)

#: Moderators (``ghostparty admin moderator NAME``) and what they decided about a player.
roles = SqlTable(
    "gp_roles",
    metadata,
    Column("player_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), primary_key=True),
    Column("moderator", Boolean, nullable=False, server_default=false()),
    #: Out of the chat until then (a timeout or a ban), and why (shown to the player).
    Column("chat_until", DateTime(timezone=True)),
    Column("chat_reason", String(200)),
    #: Out of rated play until then, and why.
    Column("rated_until", DateTime(timezone=True)),
    Column("rated_reason", String(200)),
)

reports = SqlTable(
    "gp_reports",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("reporter_id", Integer, ForeignKey("gp_players.id", ondelete="SET NULL"), index=True),
    #: The account reported (None: a guest's line, or the account is gone).
    Column("target_id", Integer, ForeignKey("gp_players.id", ondelete="SET NULL"), index=True),
    Column("target_name", String(64), nullable=False),
    Column("kind", String(8), nullable=False),  # "line" or "player"
    Column("reason", String(16), nullable=False),
    Column("text", String(400), nullable=False),
    Column("table_id", String(16)),
    Column("line_id", Integer),
    #: The reported line and the lines around it, as they were (kept if they are removed).
    Column("evidence", JSON, nullable=False),
    Column("status", String(8), nullable=False, index=True),  # "open" or "closed"
    Column("created", DateTime(timezone=True), nullable=False),
    Column("closed", DateTime(timezone=True)),
)

#: Every moderator action; append-only (triggers refuse UPDATE and DELETE, migration 0007).
audit = SqlTable(
    "gp_audit",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", DateTime(timezone=True), nullable=False, index=True),
    Column("moderator_id", Integer, nullable=False),
    Column("moderator", String(64), nullable=False),
    Column("action", String(16), nullable=False),
    Column("target_id", Integer),
    Column("target", String(64)),
    Column("reason", String(400), nullable=False),
    Column("detail", JSON, nullable=False),
)

# -- 0008: friends: follows and invitations ------------------------------------------------

#: One account follows another (one-way, as lichess; the followed one isn't told).
follows = SqlTable(
    "gp_follows",
    metadata,
    Column("follower_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), primary_key=True),
    Column("followed_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), primary_key=True, index=True),
    Column("created", DateTime(timezone=True), nullable=False),
)

#: An invitation to sit at an open table, until it is answered, the table starts or it expires.
invitations = SqlTable(
    "gp_invitations",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("inviter_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("invitee_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("table_id", String(16), ForeignKey("gp_tables.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("status", String(8), nullable=False),  # "open", "accepted", "declined"
    Column("created", DateTime(timezone=True), nullable=False),
    Column("expires", DateTime(timezone=True), nullable=False),
)
