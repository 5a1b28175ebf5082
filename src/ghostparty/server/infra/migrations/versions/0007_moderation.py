"""Moderation: the chat line's author and removal, blocks, per-table mutes, moderators
and sanctions, reports, and the append-only audit log.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

_PLAYER = "gp_players.id"

#: The audit log refuses changes: a trigger per dialect (no code path edits it either).
_SQLITE_TRIGGERS = [
    f"CREATE TRIGGER gp_audit_no_{what} BEFORE {what.upper()} ON gp_audit "
    "BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END"
    for what in ("update", "delete")
]
_POSTGRES_TRIGGERS = [
    "CREATE OR REPLACE FUNCTION gp_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS "
    "$$ BEGIN RAISE EXCEPTION 'the audit log is append-only'; END $$",
    "CREATE TRIGGER gp_audit_no_change BEFORE UPDATE OR DELETE OR TRUNCATE ON gp_audit "
    "FOR EACH STATEMENT EXECUTE FUNCTION gp_audit_append_only()",
]


def upgrade() -> None:
    op.add_column("gp_chat", sa.Column("player_id", sa.Integer))
    op.add_column("gp_chat", sa.Column("removed", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_index("ix_gp_chat_player_id", "gp_chat", ["player_id"])
    op.create_table(
        "gp_blocks",
        sa.Column("blocker_id", sa.Integer, sa.ForeignKey(_PLAYER, ondelete="CASCADE"), primary_key=True),
        sa.Column("blocked_id", sa.Integer, sa.ForeignKey(_PLAYER, ondelete="CASCADE"), primary_key=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_gp_blocks_blocked_id", "gp_blocks", ["blocked_id"])
    op.create_table(
        "gp_mutes",
        sa.Column("player_id", sa.Integer, sa.ForeignKey(_PLAYER, ondelete="CASCADE"), primary_key=True),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("gp_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("writer", sa.String(80), primary_key=True),
    )
    op.create_table(
        "gp_roles",
        sa.Column("player_id", sa.Integer, sa.ForeignKey(_PLAYER, ondelete="CASCADE"), primary_key=True),
        sa.Column("moderator", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("chat_until", sa.DateTime(timezone=True)),
        sa.Column("chat_reason", sa.String(200)),
        sa.Column("rated_until", sa.DateTime(timezone=True)),
        sa.Column("rated_reason", sa.String(200)),
    )
    op.create_table(
        "gp_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reporter_id", sa.Integer, sa.ForeignKey(_PLAYER, ondelete="SET NULL")),
        sa.Column("target_id", sa.Integer, sa.ForeignKey(_PLAYER, ondelete="SET NULL")),
        sa.Column("target_name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("table_id", sa.String(16)),
        sa.Column("line_id", sa.Integer),
        sa.Column("evidence", sa.JSON, nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed", sa.DateTime(timezone=True)),
    )
    for column in ("reporter_id", "target_id", "status"):
        op.create_index(f"ix_gp_reports_{column}", "gp_reports", [column])
    op.create_table(
        "gp_audit",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("moderator_id", sa.Integer, nullable=False),
        sa.Column("moderator", sa.String(64), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("target_id", sa.Integer),
        sa.Column("target", sa.String(64)),
        sa.Column("reason", sa.String(400), nullable=False),
        sa.Column("detail", sa.JSON, nullable=False),
    )
    op.create_index("ix_gp_audit_at", "gp_audit", ["at"])
    dialect = op.get_bind().dialect.name
    for statement in {"sqlite": _SQLITE_TRIGGERS, "postgresql": _POSTGRES_TRIGGERS}.get(dialect, []):
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER gp_audit_no_change ON gp_audit")
        op.execute("DROP FUNCTION gp_audit_append_only()")
    for table in ("gp_audit", "gp_reports", "gp_roles", "gp_mutes", "gp_blocks"):
        op.drop_table(table)  # SQLite's triggers go with their table
    op.drop_index("ix_gp_chat_player_id", "gp_chat")
    with op.batch_alter_table("gp_chat") as batch:
        batch.drop_column("removed")
        batch.drop_column("player_id")
