"""Playing again: series of tables, the next table of a finished one, who said yes.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("gp_tables", sa.Column("series", sa.String(16)))
    op.add_column("gp_tables", sa.Column("series_index", sa.Integer, nullable=False, server_default="1"))
    op.add_column("gp_tables", sa.Column("rematch", sa.String(16)))
    op.add_column("gp_tables", sa.Column("rematch_fill", sa.String(8), nullable=False, server_default="bot"))
    op.create_index("ix_gp_tables_series", "gp_tables", ["series"])
    op.add_column("gp_seats", sa.Column("again", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("gp_seats") as batch:
        batch.drop_column("again")
    with op.batch_alter_table("gp_tables") as batch:
        batch.drop_index("ix_gp_tables_series")
        for column in ("rematch_fill", "rematch", "series_index", "series"):
            batch.drop_column(column)
