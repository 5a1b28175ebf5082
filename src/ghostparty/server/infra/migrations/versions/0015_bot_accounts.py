"""Bot accounts: an account made a bot (irreversibly) plays through the Bot API; the
quick-match queue knows bot accounts' tickets and people who allow them.

Revision ID: 0015
Revises: 0014
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("gp_players", sa.Column("bot_account", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("gp_queue", sa.Column("bot_account", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("gp_queue", sa.Column("allow_bots", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("gp_queue") as batch:
        batch.drop_column("allow_bots")
        batch.drop_column("bot_account")
    with op.batch_alter_table("gp_players") as batch:
        batch.drop_column("bot_account")
