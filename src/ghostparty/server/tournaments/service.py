"""Tournaments on the server: creating, joining, leaving and cancelling them, over the
pure engine (:mod:`ghostparty.tournaments`) kept as JSON in the store.

Every change is lock the tournament's row → read → engine event → write
(:meth:`Tournaments.update`), so requests on any instance and the runner
(:mod:`ghostparty.server.tournaments.runner`) take turns and never overwrite one another: a hundred
people joining at once are all let in. After each change a
notice goes out on the pub/sub channel ``tournament:<id>`` (every instance's sockets
watching it send the new state, :mod:`ghostparty.server.http.routes.tournaments`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from random import Random
from typing import Any

from ghostparty.server.bus.envelope import TournamentChanged
from ghostparty.server.bus.pubsub import PubSub
from ghostparty.server.common.errors import ErrorCode, ServiceError, in_thread
from ghostparty.server.common.model import TURN_BASED_FROM, now
from ghostparty.server.common.ratings import BOT_LEVELS
from ghostparty.server.tables.lobby import MAX_TURN, MIN_TURN, Lobby
from ghostparty.server.tournaments.store import (
    ACTIVE,
    CANCELLED,
    RUNNING,
    SCHEDULED,
    Change,
    Entrant,
    TournamentRow,
    TournamentStore,
)
from ghostparty.tournaments import (
    Arena,
    ArenaConfig,
    Ladder,
    LadderConfig,
    Swiss,
    SwissConfig,
    TournamentError,
    from_json,
    to_json,
)
from ghostparty.tournaments.ladder import DEALS

#: Seconds people in an arena with bots wait for a full table before bots fill it.
BOT_WAIT = 30.0
#: How many bots a quiet arena may seat (per table: ``table_size - 1``).
BOT_LEVEL = "greedy"
#: The rating a guest is paired by.
GUEST_RATING = 1500
#: An arena's length and a Swiss's rounds, and how far ahead a tournament may start.
MINUTES = (5, 720)
ROUNDS = (1, 20)
AHEAD = timedelta(days=30)
#: Tries of a change the store refused (a key of it taken meanwhile), each read afresh.
RETRIES = 8

#: A bot ladder's house bots when none are named, its time per decision at most.
HOUSE = ("greedy", "expectimax", "mcts")
LADDER_TURN = 60

Engine = Arena | Swiss | Ladder


def house_entrant(level: str) -> str:
    """The entrant id of a ladder's house bot of ``level``."""
    return f"h-{level}"


def house_level(entrant: str) -> str | None:
    """The level of a house bot's entrant id (:func:`house_entrant`), else ``None``."""
    return entrant[2:] if entrant.startswith("h-") else None


def channel(tournament_id: str) -> str:
    """The pub/sub channel of a tournament's changes."""
    return f"tournament:{tournament_id}"


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def stamp(moment: datetime) -> float:
    """The engine's time: seconds since the epoch."""
    return moment.timestamp()


@dataclass(frozen=True, slots=True)
class Spec:
    """A tournament asked for (``schemas.CreateTournament``)."""

    kind: str
    rules: str
    table_size: int
    starts: datetime
    rated: bool = False
    turn_seconds: int = 60
    minutes: int | None = None
    rounds: int | None = None
    bots: bool = False
    #: A ladder's house bots: the server's own levels that take part.
    house: tuple[str, ...] = ()


def check(spec: Spec, moment: datetime) -> None:
    """``bad_request`` (400) naming what is impossible about ``spec``."""
    if spec.rules not in ("hugo", "midnight-party"):
        raise ServiceError(ErrorCode.BAD_REQUEST, f"unknown rules {spec.rules!r}: expected 'hugo' or 'midnight-party'")
    if not 2 <= spec.table_size <= 4:
        raise ServiceError(ErrorCode.BAD_REQUEST, f"table_size must be 2 to 4 players, not {spec.table_size}")
    if not MIN_TURN <= spec.turn_seconds <= MAX_TURN:
        raise ServiceError(
            ErrorCode.BAD_REQUEST, f"turn_seconds must be {MIN_TURN} to {MAX_TURN}, not {spec.turn_seconds}"
        )
    if spec.starts.tzinfo is None:
        raise ServiceError(ErrorCode.BAD_REQUEST, "starts needs a time zone, e.g. '2026-11-26T20:00:00Z'")
    if spec.starts < moment - timedelta(minutes=1) or spec.starts > moment + AHEAD:
        raise ServiceError(
            ErrorCode.BAD_REQUEST, f"starts must be from now to {AHEAD.days} days ahead, not {spec.starts}"
        )
    if spec.kind == "arena":
        if spec.minutes is None or not MINUTES[0] <= spec.minutes <= MINUTES[1] or spec.rounds is not None:
            raise ServiceError(
                ErrorCode.BAD_REQUEST, f"an arena needs minutes ({MINUTES[0]} to {MINUTES[1]}) and no rounds"
            )
        if spec.turn_seconds >= TURN_BASED_FROM:
            raise ServiceError(
                ErrorCode.BAD_REQUEST, f"an arena is played in real time: turn_seconds below {TURN_BASED_FROM}"
            )
        if spec.turn_seconds * 4 > spec.minutes * 60:
            raise ServiceError(
                ErrorCode.BAD_REQUEST, f"{spec.minutes} minutes leave no time for {spec.turn_seconds} s a move"
            )
    elif spec.kind == "ladder":
        if spec.rounds is None or not DEALS[0] <= spec.rounds <= DEALS[1] or spec.minutes is not None:
            raise ServiceError(
                ErrorCode.BAD_REQUEST, f"a ladder needs rounds (its deals, {DEALS[0]} to {DEALS[1]}) and no minutes"
            )
        if spec.turn_seconds > LADDER_TURN:
            raise ServiceError(
                ErrorCode.BAD_REQUEST,
                f"a ladder's time per decision is {MIN_TURN} to {LADDER_TURN} s, not {spec.turn_seconds}",
            )
        if spec.bots:
            raise ServiceError(
                ErrorCode.BAD_REQUEST, "a ladder names its house bots (house), it has no bot fill (bots)"
            )
        wrong = [level for level in spec.house if level not in BOT_LEVELS]
        if wrong or len(set(spec.house)) != len(spec.house):
            raise ServiceError(
                ErrorCode.BAD_REQUEST, f"house: expected different levels of {list(BOT_LEVELS)}, got {list(spec.house)}"
            )
    elif spec.kind == "swiss":
        if spec.rounds is None or not ROUNDS[0] <= spec.rounds <= ROUNDS[1] or spec.minutes is not None:
            raise ServiceError(
                ErrorCode.BAD_REQUEST, f"a Swiss needs rounds ({ROUNDS[0]} to {ROUNDS[1]}) and no minutes"
            )
        if spec.bots:
            raise ServiceError(ErrorCode.BAD_REQUEST, "bots fill arenas only: a Swiss pairs its entrants")
    else:
        raise ServiceError(ErrorCode.BAD_REQUEST, f"kind must be 'arena', 'swiss' or 'ladder', not {spec.kind!r}")
    if spec.house and spec.kind != "ladder":
        raise ServiceError(ErrorCode.BAD_REQUEST, "only a ladder has house bots (house)")


def new_engine(spec: Spec) -> Engine:
    if spec.kind == "ladder":
        assert spec.rounds is not None
        ladder = Ladder(LadderConfig(spec.table_size, spec.rounds))
        for level in spec.house:
            ladder.join(house_entrant(level), GUEST_RATING, house=True)
        return ladder
    if spec.kind == "swiss":
        assert spec.rounds is not None
        return Swiss(SwissConfig(spec.table_size, spec.rounds))
    assert spec.minutes is not None
    begin = stamp(spec.starts)
    arena = Arena(
        ArenaConfig(spec.table_size, begin, begin + spec.minutes * 60, bot_wait=BOT_WAIT if spec.bots else None)
    )
    for n in range(1, spec.table_size if spec.bots else 1):
        arena.join(f"b{n}", GUEST_RATING, begin, bot=True)
    return arena


def ended(row: TournamentRow) -> datetime | None:
    """When an arena stops pairing."""
    return row.starts + timedelta(minutes=row.minutes) if row.minutes is not None else None


class Tournaments:
    """The tournaments of a store; ``rating`` gives a registered player's shown rating."""

    def __init__(
        self,
        store: TournamentStore,
        lobby: Lobby,
        pubsub: PubSub,
        *,
        rating: Callable[[int, str], Awaitable[int]],
        is_bot: Callable[[int], Awaitable[bool]] | None = None,
        clock: Callable[[], datetime] = now,
        rng: Random | None = None,
    ) -> None:
        self.store = store
        self.lobby = lobby
        self.pubsub = pubsub
        self.rating = rating
        #: Whether an account is a bot account (a ladder admits only those).
        self.is_bot = is_bot
        self.clock = clock
        self.rng = rng or Random(secrets.randbits(64))
        #: The views the routes built lately, by tournament id: (version, view).
        self.views: dict[str, tuple[int, dict[str, Any]]] = {}

    async def create(
        self, spec: Spec, creator: tuple[int, str] | None, *, recurring: str | None = None
    ) -> TournamentRow | None:
        """A new scheduled tournament (``None``: a recurring one made already)."""
        moment = self.clock()
        check(spec, moment)
        engine = new_engine(spec)
        if isinstance(engine, Ladder):
            bots = [Entrant(p, f"House {p[2:]}", moment, bot=True) for p in engine.players]
        else:
            bots = [Entrant(p, f"{BOT_LEVEL.capitalize()} bot {p[1:]}", moment, bot=True) for p in engine.players]
        for _attempt in range(8):
            row = TournamentRow(
                id=self.rng.randbytes(5).hex(),
                kind=spec.kind,
                rules=spec.rules,
                table_size=spec.table_size,
                rated=spec.rated,
                turn_seconds=spec.turn_seconds,
                starts=spec.starts,
                minutes=spec.minutes,
                rounds=spec.rounds,
                bots=spec.bots,
                creator_id=creator[0] if creator else None,
                creator=creator[1] if creator else "Ghost Party",
                status=SCHEDULED,
                reason=None,
                state=to_json(engine),
                version=0,
                created=moment,
                updated=moment,
                recurring=recurring,
            )
            if await in_thread(self.store.create, row, bots):
                return row
            if recurring is not None:
                return None
        raise ServiceError(ErrorCode.SERVER_BUSY, "could not find a free tournament id; try again")

    async def get(self, tournament_id: str) -> TournamentRow:
        row = await in_thread(self.store.get, tournament_id)
        if row is None:
            raise ServiceError(ErrorCode.UNKNOWN_TOURNAMENT, f"no tournament {tournament_id!r}")
        return row

    async def update(
        self, tournament_id: str, step: Callable[[TournamentRow, Engine], Change | None]
    ) -> tuple[TournamentRow, Change | None]:
        """Apply ``step`` (``None``: nothing to change) to the stored tournament, in turn
        with every other change of it (:meth:`.TournamentStore.apply`). An engine refusal
        is a 400 naming it; a new entrant whose name reads like another's, ``name_taken``."""

        def locked(row: TournamentRow) -> Change | None:
            try:
                return step(row, from_json(row.state))
            except TournamentError as error:
                raise ServiceError(ErrorCode.BAD_REQUEST, str(error)) from None

        for _attempt in range(RETRIES):
            applied = await in_thread(self.store.apply, tournament_id, locked, self.clock())
            if applied.row is None:
                raise ServiceError(ErrorCode.UNKNOWN_TOURNAMENT, f"no tournament {tournament_id!r}")
            if applied.taken is not None:
                raise ServiceError(
                    ErrorCode.NAME_TAKEN,
                    f"{applied.taken!r} is already playing in this tournament: choose another name"
                    " (if that is you, come back from the browser you joined with)",
                )
            if applied.stored:
                if applied.change is not None:
                    await self.notify(tournament_id)
                return applied.row, applied.change
        raise ServiceError(ErrorCode.SERVER_BUSY, "the tournament changed too often meanwhile; try again")

    async def notify(self, tournament_id: str) -> None:
        await self.pubsub.publish(channel(tournament_id), TournamentChanged())

    async def join(
        self, tournament_id: str, player: tuple[int, str] | None, name: str | None, entry: str | None = None
    ) -> tuple[str, str | None]:
        """Enter, or come back after leaving (an account, or a guest by the ``entry``
        secret of their first join: the same entrant, name and record); returns the
        entrant id and, for a guest, the secret their page keeps."""
        row = await self.get(tournament_id)
        if row.status not in ACTIVE:
            raise ServiceError(ErrorCode.NOT_OPEN, f"the tournament is {row.status}: it can't be joined")
        if row.rated and player is None:
            raise ServiceError(
                ErrorCode.REGISTERED_ONLY, "a rated tournament is for registered players: log in to join"
            )
        if row.kind == "ladder" and (player is None or self.is_bot is None or not await self.is_bot(player[0])):
            raise ServiceError(
                ErrorCode.BOTS_ONLY,
                "the bot ladder is for bot accounts: join with a bot account's API token (docs/bot-api.md, 'The bot ladder')",
            )
        secret = None
        back = None if player is not None or not entry else await self.whom(tournament_id, None, entry)
        if player is not None:
            entrant_id, shown, rating = f"p{player[0]}", player[1], await self.rating(player[0], row.rules)
        elif back is not None:
            entrant_id, shown, rating, secret = back, "", GUEST_RATING, entry
        elif name is None:
            raise ServiceError(ErrorCode.BAD_NAME, "a guest needs a name to enter (or log in)")
        else:
            secret = secrets.token_urlsafe(18)
            entrant_id, shown, rating = f"g{secrets.token_hex(6)}", await self.lobby.guest_name(name), GUEST_RATING
        moment = self.clock()

        def step(row: TournamentRow, engine: Engine) -> Change:
            if row.status not in ACTIVE:
                raise ServiceError(ErrorCode.NOT_OPEN, f"the tournament is {row.status}: it can't be joined")
            known = entrant_id in engine.players
            if isinstance(engine, Arena):
                engine.join(entrant_id, rating, max(stamp(moment), engine.config.starts_at))
            else:
                engine.join(entrant_id, rating)
            added = None if known else Entrant(entrant_id, shown, moment, player[0] if player else None)
            if added is not None and secret is not None:
                added = Entrant(entrant_id, shown, moment, None, secret_hash(secret))
            return Change(to_json(engine), row.status, row.reason, row.round_at, entrant=added)

        await self.update(tournament_id, step)
        return entrant_id, secret

    async def whom(self, tournament_id: str, player: tuple[int, str] | None, entry: str | None) -> str | None:
        """The entrant id of the asker (their account, or a guest's secret), if they entered."""
        entrants = await in_thread(self.store.entrants, tournament_id)
        for e in entrants:
            if player is not None and e.player_id == player[0] and not e.bot:
                return e.entrant
            if entry and e.secret_hash and hmac.compare_digest(e.secret_hash, secret_hash(entry)):
                return e.entrant
        return None

    async def leave(self, tournament_id: str, player: tuple[int, str] | None, entry: str | None) -> None:
        """Stop being paired; a game under way still finishes and counts."""
        entrant_id = await self.whom(tournament_id, player, entry)
        if entrant_id is None:
            raise ServiceError(ErrorCode.NOT_ENTERED, "you have not entered this tournament")

        def step(row: TournamentRow, engine: Engine) -> Change:
            if row.status not in ACTIVE:
                raise ServiceError(ErrorCode.NOT_OPEN, f"the tournament is {row.status}: there is nothing to leave")
            if isinstance(engine, Arena):
                engine.leave(entrant_id, stamp(self.clock()))
            else:
                engine.withdraw(entrant_id)
            return Change(to_json(engine), row.status, row.reason, row.round_at)

        await self.update(tournament_id, step)

    async def cancel(self, tournament_id: str, player: tuple[int, str] | None, reason: str) -> None:
        """Only its creator cancels a tournament (the reason is shown to its players)."""
        row = await self.get(tournament_id)
        if player is None or row.creator_id != player[0]:
            raise ServiceError(ErrorCode.NOT_CREATOR, "only the tournament's creator may cancel it")
        reason = " ".join(reason.split())
        if not 3 <= len(reason) <= 200:
            raise ServiceError(ErrorCode.BAD_REQUEST, "give a reason of 3 to 200 characters; the players will read it")

        def step(row: TournamentRow, engine: Engine) -> Change:
            if row.status not in (SCHEDULED, RUNNING):
                raise ServiceError(ErrorCode.NOT_OPEN, f"the tournament is {row.status} already")
            return Change(row.state, CANCELLED, reason, None)

        await self.update(tournament_id, step)
