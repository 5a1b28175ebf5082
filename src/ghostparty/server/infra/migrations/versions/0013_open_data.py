"""Open game data: an account may keep its name out of the exported games.

Revision ID: 0013
Revises: 0012
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("gp_players", sa.Column("open_data_opt_out", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("gp_players") as batch:
        batch.drop_column("open_data_opt_out")
