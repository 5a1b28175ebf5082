"""Reliability: whether each person of a finished game had left it to a bot.

Revision ID: 0012
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Games kept before this revision count as finished: nobody knows otherwise now.
    op.add_column("gp_results", sa.Column("left_to_bot", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("gp_results") as batch:
        batch.drop_column("left_to_bot")
