"""Web Push: a subscription per device, the kinds of notification an account wants, the
"your move" notifications sent, and the server's VAPID key.

Revision ID: 0019
Revises: 0018
"""

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None

_PLAYER = "gp_players.id"


def upgrade() -> None:
    op.create_table(
        "gp_push_subscriptions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey(_PLAYER, ondelete="CASCADE"), nullable=False),
        sa.Column("endpoint", sa.String(1000), nullable=False, unique=True),
        sa.Column("p256dh", sa.String(200), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_success", sa.DateTime(timezone=True)),
    )
    op.create_index("ix_gp_push_subscriptions_player_id", "gp_push_subscriptions", ["player_id"])
    op.create_table(
        "gp_push_choices",
        sa.Column("player_id", sa.Integer, sa.ForeignKey(_PLAYER, ondelete="CASCADE"), primary_key=True),
        sa.Column("kinds", sa.String(100), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
    )
    op.create_table(
        "gp_push_reminders",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("gp_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey(_PLAYER, ondelete="CASCADE"), primary_key=True),
        sa.Column("sent", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "gp_push_keys",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("private_key", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    for name in ("gp_push_keys", "gp_push_reminders", "gp_push_choices", "gp_push_subscriptions"):
        op.drop_table(name)
