"""Game reviews: each finished game's review, computed once off the game's path.

Revision ID: 0010
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "gp_reviews",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("gp_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("version", sa.String(32), nullable=False),
        sa.Column("review", sa.JSON, nullable=False),
        sa.Column("computed", sa.DateTime(timezone=True), nullable=False),
        sa.Column("cpu_seconds", sa.Float, nullable=False),
    )
    op.create_index("ix_gp_reviews_computed", "gp_reviews", ["computed"])


def downgrade() -> None:
    op.drop_table("gp_reviews")
