"""Email: addresses (encrypted, with a keyed hash to find them), one-time link tokens,
the outbox of messages to send, and the "your move" reminders sent.

Revision ID: 0009
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0007"
branch_labels = None
depends_on = None

_PLAYER = "gp_players.id"


def upgrade() -> None:
    op.create_table(
        "gp_emails",
        sa.Column("player_id", sa.Integer, sa.ForeignKey(_PLAYER, ondelete="CASCADE"), primary_key=True),
        sa.Column("sealed", sa.String(600), nullable=False),
        sa.Column("lookup", sa.String(64), nullable=False, unique=True),
        sa.Column("confirmed", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("reminders", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("invitations", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "gp_email_tokens",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey(_PLAYER, ondelete="CASCADE"), nullable=False),
        sa.Column("purpose", sa.String(8), nullable=False),
        sa.Column("lookup", sa.String(64)),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_gp_email_tokens_player_id", "gp_email_tokens", ["player_id"])
    op.create_index("ix_gp_email_tokens_expires", "gp_email_tokens", ["expires"])
    op.create_table(
        "gp_outbox",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey(_PLAYER, ondelete="CASCADE")),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("message", sa.Text, nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("next_try", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True)),
        sa.Column("last_error", sa.String(400)),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent", sa.DateTime(timezone=True)),
    )
    for column in ("player_id", "status", "next_try"):
        op.create_index(f"ix_gp_outbox_{column}", "gp_outbox", [column])
    op.create_table(
        "gp_reminders",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("gp_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey(_PLAYER, ondelete="CASCADE"), primary_key=True),
        sa.Column("sent", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    for table in ("gp_reminders", "gp_outbox", "gp_email_tokens", "gp_emails"):
        op.drop_table(table)
