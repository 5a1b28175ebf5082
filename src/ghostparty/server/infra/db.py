"""The schema's shared tables (SQLAlchemy Core) and the migrations that bring a database to the schema.

Every table is declared on the one :data:`metadata`. Here are the tables more than one
domain reads or writes: the games (tables, seats, actions, chat), which the table writer
and the tables' store write, and the players with their sessions, ratings and results,
which a game's end writes and every domain with accounts reads. Each other table is
declared by the domain that keeps it, beside its store (``accounts/schema.py``,
``community/schema.py``, ``mail/schema.py``, ``push/schema.py``, …);
:mod:`ghostparty.server.stores` imports them all, so there :data:`metadata` is the whole schema.

:func:`migrate` brings any database to the schema with Alembic
(``ghostparty/server/infra/migrations``): a new database is built by the migrations from
the first, and a database made by a release from before Alembic (tables made by
``create_all``, no ``alembic_version``) is stamped as the first revision, then upgraded.
``tests/server/infra/test_migrations.py`` checks that the migrations build exactly the
whole schema and that a database of the first release opens with its games.
"""

from __future__ import annotations

from importlib.resources import files
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Connection,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    false,
    inspect,
)
from sqlalchemy import Table as SqlTable

metadata = MetaData()

tables = SqlTable(
    "gp_tables",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("rules", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("status", String(8), nullable=False, index=True),
    Column("version", Integer, nullable=False),
    Column("first_player", Integer),
    Column("to_move", Integer),
    Column("winners", JSON, nullable=False),
    Column("turn_seconds", Integer),
    Column("absent_bot", String(64), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False, index=True),
    # 0002: whether the game's result changes its players' ratings
    Column("rated", Boolean, nullable=False, server_default=false()),
    # 0004: series of games played again
    Column("series", String(16), index=True),
    Column("series_index", Integer, nullable=False, server_default="1"),
    Column("rematch", String(16)),
    Column("rematch_fill", String(8), nullable=False, server_default="bot"),
    # 0016: a bot ladder's duplicate deal (the die seed its rotated tables share)
    Column("deal", BigInteger),
)

seats = SqlTable(
    "gp_seats",
    metadata,
    Column("table_id", String(16), ForeignKey("gp_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("bot", String(64)),
    Column("name", String(64)),
    Column("token_hash", String(64)),
    Column("away", Boolean, nullable=False),
    Column("back", Boolean, nullable=False),
    # 0002: the registered player (or rated bot level) in the seat; no foreign key, so
    # that SQLite can add the column in place (an account's deletion clears it)
    Column("player_id", Integer, index=True),
    # 0004: said "Play again" after the game
    Column("again", Boolean, nullable=False, server_default=false()),
    # 0006: seconds left in the person's time bank (timebank.py); null while full
    Column("bank", Integer),
)

actions = SqlTable(
    "gp_actions",
    metadata,
    Column("table_id", String(16), ForeignKey("gp_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", String(200), nullable=False),
)

# -- 0002: players, sessions, ratings, results ---------------------------------------------

players = SqlTable(
    "gp_players",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(32), nullable=False),
    #: The name's look-alike key (:func:`ghostparty.server.common.names.name_key`): unique, so
    #: names that differ only in case or in look-alike letters can't both exist.
    Column("name_key", String(40), nullable=False, unique=True),
    Column("kind", String(8), nullable=False),  # "user" or "bot"
    #: Argon2id (PHC string); ``None`` for bots.
    Column("password_hash", String(200)),
    Column("created", DateTime(timezone=True), nullable=False),
    #: 0013: the player's name is pseudonymised in the open game data (:mod:`ghostparty.server.opendata.export`).
    Column("open_data_opt_out", Boolean, nullable=False, server_default=false()),
    #: 0015: a bot account (:mod:`ghostparty.server.botapi.api`), made so for good; it plays through its token.
    Column("bot_account", Boolean, nullable=False, server_default=false()),
    #: 0018: the language the player chose (a code of :mod:`ghostparty.server.common.languages`); ``None``: not yet.
    Column("language", String(16)),
)

sessions = SqlTable(
    "gp_sessions",
    metadata,
    #: SHA-256 of the session cookie's secret, hex: a leaked table grants no session.
    Column("id", String(64), primary_key=True),
    Column("player_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("expires", DateTime(timezone=True), nullable=False, index=True),
)

ratings = SqlTable(
    "gp_ratings",
    metadata,
    Column("player_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), primary_key=True),
    Column("rules", String(32), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
)

results = SqlTable(
    "gp_results",
    metadata,
    Column("table_id", String(16), ForeignKey("gp_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", Integer, ForeignKey("gp_players.id", ondelete="SET NULL")),
    Column("rules", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("points", Integer, nullable=False),
    Column("place", Integer, nullable=False),
    Column("won", Boolean, nullable=False),
    #: The seat's rating before and after the game (rated games of registered players).
    Column("mu_before", Float),
    Column("sigma_before", Float),
    Column("mu_after", Float),
    Column("sigma_after", Float),
    Column("ended", DateTime(timezone=True), nullable=False),
    #: 0012: a person who left the game to a bot (:attr:`~ghostparty.server.common.model.SeatResult.left`).
    Column("left_to_bot", Boolean, nullable=False, server_default=false()),
    Index("ix_gp_results_player_ended", "player_id", "ended"),
)


# -- 0005: chat ----------------------------------------------------------------------------

chat = SqlTable(
    "gp_chat",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(16), ForeignKey("gp_tables.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("channel", String(12), nullable=False),  # "players" or "spectators"
    Column("seat", Integer),
    Column("name", String(64), nullable=False),
    Column("text", String(400)),
    Column("phrase", String(32)),
    #: Written while the game was under way (a spectators' line is then hidden from players).
    Column("during_game", Boolean, nullable=False),
    Column("sent", DateTime(timezone=True), nullable=False),
    # 0007: the account that wrote the line (a seat's player, a logged-in spectator); no
    # foreign key, as gp_seats.player_id; and whether a moderator removed it
    Column("player_id", Integer, index=True),
    Column("removed", Boolean, nullable=False, server_default=false()),
)


#: The revision that :data:`metadata` describes (the newest migration).
HEAD = "0021"
#: The revision of databases made before migrations (``create_all`` of the first release).
FIRST = "0001"


def migrate(connection: Connection) -> None:
    """Bring the database on ``connection`` (in a transaction) up to :data:`HEAD`."""
    config = _config(connection)
    names = set(inspect(connection).get_table_names())
    if "alembic_version" not in names and "gp_tables" in names:
        command.stamp(config, FIRST)  # made by the first release's create_all
    command.upgrade(config, "head")


def revision(connection: Connection) -> str | None:
    """The database's revision (``None`` before any migration)."""
    return MigrationContext.configure(connection).get_current_revision()


def _config(connection: Connection) -> Any:
    config = Config()
    config.set_main_option("script_location", str(files("ghostparty.server.infra") / "migrations"))
    config.attributes["connection"] = connection
    return config
