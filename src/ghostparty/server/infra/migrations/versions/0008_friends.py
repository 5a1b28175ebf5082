"""Friends: who follows whom, and invitations to a table.

Revision ID: 0008
Revises: 0015
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0015"
branch_labels = None
depends_on = None

_PLAYER = "gp_players.id"


def upgrade() -> None:
    op.create_table(
        "gp_follows",
        sa.Column("follower_id", sa.Integer, sa.ForeignKey(_PLAYER, ondelete="CASCADE"), primary_key=True),
        sa.Column("followed_id", sa.Integer, sa.ForeignKey(_PLAYER, ondelete="CASCADE"), primary_key=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_gp_follows_followed_id", "gp_follows", ["followed_id"])
    op.create_table(
        "gp_invitations",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("inviter_id", sa.Integer, sa.ForeignKey(_PLAYER, ondelete="CASCADE"), nullable=False),
        sa.Column("invitee_id", sa.Integer, sa.ForeignKey(_PLAYER, ondelete="CASCADE"), nullable=False),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("gp_tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    for column in ("inviter_id", "invitee_id", "table_id"):
        op.create_index(f"ix_gp_invitations_{column}", "gp_invitations", [column])


def downgrade() -> None:
    op.drop_table("gp_invitations")
    op.drop_index("ix_gp_follows_followed_id", "gp_follows")
    op.drop_table("gp_follows")
