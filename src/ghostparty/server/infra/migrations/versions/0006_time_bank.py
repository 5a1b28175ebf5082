"""The time bank of real-time timed tables: the seconds left in each person's bank.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("gp_seats", sa.Column("bank", sa.Integer))  # null: a full bank


def downgrade() -> None:
    with op.batch_alter_table("gp_seats") as batch:
        batch.drop_column("bank")
