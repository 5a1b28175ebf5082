"""Deep reviews: a finished game's review judged by the deep analysis, made when asked for.

Revision ID: 0021
Revises: 0020
"""

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "gp_deep_reviews",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("gp_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("version", sa.String(32), nullable=False),
        sa.Column("review", sa.JSON, nullable=False),
        sa.Column("computed", sa.DateTime(timezone=True), nullable=False),
        sa.Column("cpu_seconds", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("gp_deep_reviews")
