"""The tournaments' tables: the event, its entrants and its games.

Declared on the one :data:`~ghostparty.server.infra.db.metadata`, so the migrations
(``ghostparty/server/infra/migrations``) and their test compare one schema.
"""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Column, DateTime, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy import Table as SqlTable

from ghostparty.server.infra.db import metadata

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
