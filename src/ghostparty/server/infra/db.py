"""The database's tables (SQLAlchemy Core) and the migrations that bring a database to them.

The schema is what :data:`metadata` says; :func:`migrate` brings any database to it with
Alembic (``ghostparty/server/infra/migrations``): a new database is built by the migrations from
the first, and a database made by a release from before Alembic (tables made by
``create_all``, no ``alembic_version``) is stamped as the first revision, then upgraded.
``tests/server/infra/test_migrations.py`` checks that the migrations build exactly
:data:`metadata` and that a database of the first release opens with its games.

Over 400 lines: the schema is one :data:`metadata`, every table's columns declared once
(30 tables, no logic); split over modules, the migrations' comparison and a reader
looking for a column would have to know which module declares which table.
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
    Text,
    UniqueConstraint,
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

# -- 0003: the quick-match queue ----------------------------------------------------------

queue = SqlTable(
    "gp_queue",
    metadata,
    #: SHA-256 of the waiting page's ticket, hex.
    Column("id", String(64), primary_key=True),
    Column("player_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), index=True),
    Column("name", String(64), nullable=False),
    Column("rules", String(32), nullable=False),
    Column("players", Integer),  # None: any number, 2 to 4
    Column("rated", Boolean, nullable=False),
    Column("bots_after", Integer),  # seconds; None: never
    Column("rating", Integer),
    Column("joined", DateTime(timezone=True), nullable=False),
    #: When the waiting page last asked: a page closed stops asking, and leaves the queue.
    Column("seen", DateTime(timezone=True), nullable=False, index=True),
    #: Once seated: the table, the seat and its token (handed to the page that asks).
    Column("table_id", String(16)),
    Column("seat", Integer),
    Column("token", String(64)),
    #: 0015: a bot account's ticket, and a person's who allows bot accounts at the table.
    Column("bot_account", Boolean, nullable=False, server_default=false()),
    Column("allow_bots", Boolean, nullable=False, server_default=false()),
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

# -- 0007: moderation: blocks, mutes, reports, sanctions, the audit log ----------------------

blocks = SqlTable(
    "gp_blocks",
    metadata,
    Column("blocker_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), primary_key=True),
    Column("blocked_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), primary_key=True, index=True),
    Column("created", DateTime(timezone=True), nullable=False),
)

mutes = SqlTable(
    "gp_mutes",
    metadata,
    Column("player_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), primary_key=True),
    Column("table_id", String(16), ForeignKey("gp_tables.id", ondelete="CASCADE"), primary_key=True),
    #: Whom: the channel and the writer's name, folded (``players:ann``).
    Column("writer", String(80), primary_key=True),
)

#: Moderators (``ghostparty admin moderator NAME``) and what they decided about a player.
roles = SqlTable(
    "gp_roles",
    metadata,
    Column("player_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), primary_key=True),
    Column("moderator", Boolean, nullable=False, server_default=false()),
    #: Out of the chat until then (a timeout or a ban), and why (shown to the player).
    Column("chat_until", DateTime(timezone=True)),
    Column("chat_reason", String(200)),
    #: Out of rated play until then, and why.
    Column("rated_until", DateTime(timezone=True)),
    Column("rated_reason", String(200)),
)

reports = SqlTable(
    "gp_reports",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("reporter_id", Integer, ForeignKey("gp_players.id", ondelete="SET NULL"), index=True),
    #: The account reported (None: a guest's line, or the account is gone).
    Column("target_id", Integer, ForeignKey("gp_players.id", ondelete="SET NULL"), index=True),
    Column("target_name", String(64), nullable=False),
    Column("kind", String(8), nullable=False),  # "line" or "player"
    Column("reason", String(16), nullable=False),
    Column("text", String(400), nullable=False),
    Column("table_id", String(16)),
    Column("line_id", Integer),
    #: The reported line and the lines around it, as they were (kept if they are removed).
    Column("evidence", JSON, nullable=False),
    Column("status", String(8), nullable=False, index=True),  # "open" or "closed"
    Column("created", DateTime(timezone=True), nullable=False),
    Column("closed", DateTime(timezone=True)),
)

#: Every moderator action; append-only (triggers refuse UPDATE and DELETE, migration 0007).
audit = SqlTable(
    "gp_audit",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", DateTime(timezone=True), nullable=False, index=True),
    Column("moderator_id", Integer, nullable=False),
    Column("moderator", String(64), nullable=False),
    Column("action", String(16), nullable=False),
    Column("target_id", Integer),
    Column("target", String(64)),
    Column("reason", String(400), nullable=False),
    Column("detail", JSON, nullable=False),
)

# -- 0009: email: addresses (sealed), one-time tokens, the outbox, reminders sent ---------

emails = SqlTable(
    "gp_emails",
    metadata,
    Column("player_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), primary_key=True),
    #: The address encrypted with a key derived from the server's secret (email_keys.py).
    Column("sealed", String(600), nullable=False),
    #: HMAC-SHA256 of the normalized address under another derived key, hex: unique, and
    #: how an address is found (a reset) without keeping it in clear.
    Column("lookup", String(64), nullable=False, unique=True),
    Column("confirmed", Boolean, nullable=False, server_default=false()),
    Column("reminders", Boolean, nullable=False, server_default=false()),
    Column("invitations", Boolean, nullable=False, server_default=false()),
    #: The language of the account's emails ("en", "de").
    Column("language", String(8), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)

email_tokens = SqlTable(
    "gp_email_tokens",
    metadata,
    #: SHA-256 of the link's random token, hex: a leaked table opens no link.
    Column("id", String(64), primary_key=True),
    Column("player_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("purpose", String(8), nullable=False),  # "confirm" or "reset"
    #: For a confirmation: the lookup of the address it confirms (changed since: void).
    Column("lookup", String(64)),
    Column("expires", DateTime(timezone=True), nullable=False, index=True),
)

outbox = SqlTable(
    "gp_outbox",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), index=True),
    Column("kind", String(12), nullable=False),
    #: The whole message (RFC 5322, recipient included), sealed as the addresses are.
    Column("message", Text, nullable=False),
    Column("status", String(8), nullable=False, index=True),  # "queued", "sent" or "failed"
    Column("attempts", Integer, nullable=False, server_default="0"),
    Column("next_try", DateTime(timezone=True), nullable=False, index=True),
    #: An instance sending it holds it until then (several instances: one sends each).
    Column("lease_until", DateTime(timezone=True)),
    Column("last_error", String(400)),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("sent", DateTime(timezone=True)),
)

reminders = SqlTable(
    "gp_reminders",
    metadata,
    Column("table_id", String(16), ForeignKey("gp_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("player_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), primary_key=True),
    Column("sent", DateTime(timezone=True), nullable=False),
)

api_tokens = SqlTable(
    "gp_api_tokens",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), nullable=False, index=True),
    #: SHA-256 of the token's secret, hex (tokens.py): a leaked table grants nothing.
    Column("hash", String(64), nullable=False, unique=True, index=True),
    Column("name", String(40), nullable=False),
    #: The scopes, space-separated (``play read``).
    Column("scopes", String(100), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("expires", DateTime(timezone=True)),  # ``None``: never
    Column("last_used", DateTime(timezone=True)),
)

# -- 0014: tournaments (arena and Swiss; the pure engine is ghostparty.tournaments) --------

tournaments = SqlTable(
    "gp_tournaments",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("kind", String(8), nullable=False),  # "arena" or "swiss"
    Column("rules", String(32), nullable=False),
    Column("table_size", Integer, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("turn_seconds", Integer, nullable=False),
    Column("starts", DateTime(timezone=True), nullable=False, index=True),
    Column("minutes", Integer),  # arena: its length
    Column("rounds", Integer),  # Swiss: its rounds
    Column("bots", Boolean, nullable=False),  # arena: bots fill a quiet arena's tables
    Column("creator_id", Integer, ForeignKey("gp_players.id", ondelete="SET NULL")),
    Column("creator", String(64), nullable=False),
    #: "scheduled", "running", "finished" or "cancelled" (with ``reason``).
    Column("status", String(10), nullable=False, index=True),
    Column("reason", String(200)),
    #: The engine's state (``ghostparty.tournaments.to_json``); every change a
    #: compare-and-set on ``version``.
    Column("state", Text, nullable=False),
    Column("version", Integer, nullable=False),
    #: Swiss: when the next round may be paired.
    Column("round_at", DateTime(timezone=True)),
    #: A recurring event's name (made by the runner from configuration), else None.
    Column("recurring", String(64)),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False),
    UniqueConstraint("recurring", "starts", name="uq_gp_tournaments_recurring_starts"),
)

tournament_entrants = SqlTable(
    "gp_tournament_entrants",
    metadata,
    Column("tournament_id", String(16), ForeignKey("gp_tournaments.id", ondelete="CASCADE"), primary_key=True),
    #: The engine's player id: "p<account>", "g<random>" for a guest, "b<n>" for a bot.
    Column("entrant", String(24), primary_key=True),
    Column("player_id", Integer, ForeignKey("gp_players.id", ondelete="SET NULL"), index=True),
    Column("name", String(64), nullable=False),
    #: SHA-256 of a guest's entry secret, hex (accounts are known by their session).
    Column("secret_hash", String(64)),
    Column("bot", Boolean, nullable=False),
    Column("joined", DateTime(timezone=True), nullable=False),
)

tournament_games = SqlTable(
    "gp_tournament_games",
    metadata,
    Column("tournament_id", String(16), ForeignKey("gp_tournaments.id", ondelete="CASCADE"), primary_key=True),
    #: The engine's game id: "g<n>" (arena) or "r<round>t<table>" (Swiss).
    Column("game", String(24), primary_key=True),
    Column("table_id", String(16), ForeignKey("gp_tables.id", ondelete="CASCADE"), nullable=False, unique=True),
    #: Entrant ids in seat order, and each person's seat token (handed to them only).
    Column("seats", JSON, nullable=False),
    Column("tokens", JSON, nullable=False),
    Column("recorded", Boolean, nullable=False),
    Column("started", DateTime(timezone=True), nullable=False),
)

# -- 0008: friends: follows and invitations ------------------------------------------------

#: One account follows another (one-way, as lichess; the followed one isn't told).
follows = SqlTable(
    "gp_follows",
    metadata,
    Column("follower_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), primary_key=True),
    Column("followed_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), primary_key=True, index=True),
    Column("created", DateTime(timezone=True), nullable=False),
)

#: An invitation to sit at an open table, until it is answered, the table starts or it expires.
invitations = SqlTable(
    "gp_invitations",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("inviter_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("invitee_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("table_id", String(16), ForeignKey("gp_tables.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("status", String(8), nullable=False),  # "open", "accepted", "declined"
    Column("created", DateTime(timezone=True), nullable=False),
    Column("expires", DateTime(timezone=True), nullable=False),
)

# -- 0010: game reviews -----------------------------------------------------------------

#: A finished game's review (``ghostparty-review/1``), made once by the review jobs
#: (``reviews.py``); ``version`` is the review code's (:data:`~ghostparty.server.reviews.pool.REVIEW_VERSION`):
#: a review of another version is made again when asked for.
reviews = SqlTable(
    "gp_reviews",
    metadata,
    Column("table_id", String(16), ForeignKey("gp_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("version", String(32), nullable=False),
    Column("review", JSON, nullable=False),
    Column("computed", DateTime(timezone=True), nullable=False, index=True),
    Column("cpu_seconds", Float, nullable=False),
)

# -- 0017: bot invitations ---------------------------------------------------------------

#: A person's invitation of a bot account to one seat of an open table: the bot may take
#: that seat (``POST /api/bot/invitations/{table}/accept``) until it answers or it expires.
bot_invitations = SqlTable(
    "gp_bot_invitations",
    metadata,
    Column("table_id", String(16), ForeignKey("gp_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("bot_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), primary_key=True, index=True),
    Column("inviter_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("expires", DateTime(timezone=True), nullable=False, index=True),
)


# -- 0019: Web Push: subscriptions per device, what each account wants, the server's key --

#: A browser's push subscription (one per device): where to post (the push service's
#: endpoint) and the keys the payload is encrypted to (RFC 8291).
push_subscriptions = SqlTable(
    "gp_push_subscriptions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("endpoint", String(1000), nullable=False, unique=True),
    #: The browser's P-256 public key and auth secret, base64url as the browser gives them.
    Column("p256dh", String(200), nullable=False),
    Column("auth", String(64), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("last_success", DateTime(timezone=True)),
)

#: What kinds of notification an account wants (space-separated) and in which language.
push_choices = SqlTable(
    "gp_push_choices",
    metadata,
    Column("player_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), primary_key=True),
    Column("kinds", String(100), nullable=False),
    Column("language", String(8), nullable=False),
)

#: The "your move" notifications sent: one per game and mover until the game changes.
push_reminders = SqlTable(
    "gp_push_reminders",
    metadata,
    Column("table_id", String(16), ForeignKey("gp_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("player_id", Integer, ForeignKey("gp_players.id", ondelete="CASCADE"), primary_key=True),
    Column("sent", DateTime(timezone=True), nullable=False),
)

#: The server's VAPID key (PEM), made once when no key file is given (one row, id 1).
push_keys = SqlTable(
    "gp_push_keys",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("private_key", Text, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)


#: The revision that :data:`metadata` describes (the newest migration).
HEAD = "0019"
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
