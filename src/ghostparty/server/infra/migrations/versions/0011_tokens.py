"""Personal API tokens: each a SHA-256 of its secret, with a name, scopes, an optional
expiry and the time it was last used.

Revision ID: 0011
Revises: 0013
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "gp_api_tokens",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("gp_players.id", ondelete="CASCADE"), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("scopes", sa.String(100), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True)),
        sa.Column("last_used", sa.DateTime(timezone=True)),
    )
    op.create_index("ix_gp_api_tokens_player_id", "gp_api_tokens", ["player_id"])
    op.create_index("ix_gp_api_tokens_hash", "gp_api_tokens", ["hash"], unique=True)


def downgrade() -> None:
    op.drop_table("gp_api_tokens")
