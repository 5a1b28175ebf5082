"""The bot ladder: a table of a duplicate deal keeps the deal's die seed.

Revision ID: 0016
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("gp_tables", sa.Column("deal", sa.BigInteger))


def downgrade() -> None:
    with op.batch_alter_table("gp_tables") as batch:
        batch.drop_column("deal")
