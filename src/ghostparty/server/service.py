"""The authority over tables: seats, the die, every action and the bots' turns.

:class:`TableService` knows no transport. It is given a :class:`~.store.Store` and a
:class:`~.pubsub.PubSub`; the HTTP and WebSocket endpoints decode a request, call one
method and encode what it returns or the :class:`ServiceError` it raises. Every change
is saved with a compare-and-set on the table's version before anyone is told of it,
then published on the table's channel as an ``update`` message (docs/PROTOCOL.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
import unicodedata
import weakref
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from random import Random
from typing import Any, ParamSpec, TypeVar

from ghostparty.analysis import capture_odds
from ghostparty.bots import Bot, make_bot
from ghostparty.rules import (
    MOVE,
    OVER,
    PLACE,
    ROLL,
    Action,
    Game,
    IllegalAction,
    Position,
    Roll,
    action_from_dict,
    action_to_dict,
    legal_actions,
    position_to_dict,
    ruleset,
    sample_roll,
)
from ghostparty.rules.events import Event
from ghostparty.rules.narrate import narrate
from ghostparty.server.codec import events_to_list, table_view
from ghostparty.server.model import CLOSED, OPEN, PLAYING, ActionRow, Seat, Table, now
from ghostparty.server.model import OVER as TABLE_OVER
from ghostparty.server.pubsub import Message, PubSub
from ghostparty.server.replay import replay_steps
from ghostparty.server.store import Store

log = logging.getLogger("ghostparty.server")

P = ParamSpec("P")
R = TypeVar("R")

MAX_NAME = 24
#: The shortest and longest turn time a table may have, in seconds.
MIN_TURN, MAX_TURN = 5, 3600
#: What a client sends to ask the server to roll the die.
ROLL_REQUEST: dict[str, Any] = {"roll": True}


class ServiceError(Exception):
    """A request the service refuses; ``code`` is one of docs/PROTOCOL.md's error codes."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """A seat asked for at a table's creation."""

    kind: str
    bot: str | None = None


@dataclass
class _Live:
    """A table with its game rebuilt in memory (``game`` is ``None`` while open)."""

    table: Table
    game: Game | None
    log: list[dict[str, Any]] = field(default_factory=list)
    #: Each log entry's engine events, kept as the (small, frozen) event values and
    #: written out only for a ``state`` message.
    events: list[Sequence[Event]] = field(default_factory=list)
    bots: dict[int, Bot] = field(default_factory=dict)
    #: The odds last computed and the position they are for (presence updates resend them).
    odds: tuple[Position | None, list[dict[str, Any]]] = (None, [])


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(name: str) -> str:
    """A display name, trimmed; :class:`ServiceError` ``bad_name`` if it can't be shown as is."""
    name = unicodedata.normalize("NFC", name).strip()
    if not name:
        raise ServiceError("bad_name", "a name needs at least one visible character")
    if len(name) > MAX_NAME:
        raise ServiceError("bad_name", f"a name has at most {MAX_NAME} characters, this one has {len(name)}")
    bad = sorted({c for c in name if c in "<>&\"'`" or unicodedata.category(c) in {"Cc", "Cf", "Zl", "Zp"}})
    if bad:
        shown = ", ".join(repr(c) for c in bad)
        raise ServiceError("bad_name", f"a name may not contain {shown}")
    return name


class TableService:
    """Tables from the lobby to the end of their games.

    ``bot_delay`` is the pause before each bot action, so people can follow; ``rng``
    draws table ids, seeds and tokens (give a seeded one for reproducible tests).

    Absent players: a person whose turn time runs out, or whose every page has been
    closed for ``away_after`` seconds during a game, is marked *away* and the table's
    ``absent_bot`` plays for them until they come back (from their next turn on). An open
    table nobody starts within ``lobby_expiry`` seconds is closed; a finished game leaves
    memory ``finished_linger`` seconds after its end (the store keeps it). ``clock`` gives
    the time; :meth:`tick` and :meth:`sweep` act on it, and :meth:`run_timers` calls them
    periodically, so tests drive time themselves.
    """

    def __init__(
        self,
        store: Store,
        pubsub: PubSub,
        *,
        bot_delay: float = 0.5,
        rng: Random | None = None,
        clock: Callable[[], datetime] = now,
        cache_size: int = 2000,
        away_after: float = 60.0,
        lobby_expiry: float = 3600.0,
        finished_linger: float = 600.0,
    ) -> None:
        self.store = store
        self.pubsub = pubsub
        self.bot_delay = bot_delay
        self._random = rng
        self._clock = clock
        self._cache: OrderedDict[str, _Live] = OrderedDict()
        self._cache_size = cache_size
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._bot_tasks: dict[str, asyncio.Task[None]] = {}
        self._online: dict[str, dict[int, int]] = {}
        self.away_after = away_after
        self.lobby_expiry = lobby_expiry
        self.finished_linger = finished_linger
        #: Per table: the version and the time at which the person to move runs out of time.
        self._deadlines: dict[str, tuple[int, datetime]] = {}
        #: Per (table, seat): since when no page holds a seated person's token.
        self._gone: dict[tuple[str, int], datetime] = {}
        self._timers: asyncio.Task[None] | None = None

    # -- lobby ---------------------------------------------------------------------

    async def create_table(
        self,
        rules: str,
        seats: Sequence[SeatSpec],
        first_player: int | None = None,
        *,
        turn_seconds: int | None = None,
        absent_bot: str = "greedy",
    ) -> Message:
        """A new open table; a table of bots only starts at once.

        ``turn_seconds`` limits each of a person's decisions and rolls; ``absent_bot`` is
        the level that plays for a person who is away.
        """
        try:
            ruleset(rules)
        except (KeyError, ValueError):
            raise ServiceError("bad_request", f"unknown rules {rules!r}: expected 'hugo' or 'midnight-party'") from None
        if not 2 <= len(seats) <= 8:
            raise ServiceError("bad_request", f"a table has 2 to 8 seats, not {len(seats)}")
        if first_player is not None and not 0 <= first_player < len(seats):
            raise ServiceError("bad_seat", f"first_player must be a seat, 0 to {len(seats) - 1}, not {first_player}")
        if turn_seconds is not None and not MIN_TURN <= turn_seconds <= MAX_TURN:
            raise ServiceError("bad_request", f"turn_seconds must be {MIN_TURN} to {MAX_TURN}, not {turn_seconds}")
        try:
            make_bot(absent_bot)
        except ValueError as error:
            raise ServiceError("bad_request", f"absent_bot: {error}") from None
        table_seats = []
        for i, spec in enumerate(seats):
            if spec.kind == "bot":
                level = spec.bot or "greedy"
                try:
                    make_bot(level)
                except ValueError as error:
                    raise ServiceError("bad_request", f"seat {i}: {error}") from None
                table_seats.append(Seat(i, "bot", bot=level, name=f"{level.split(':')[0].capitalize()} bot"))
            elif spec.kind == "human":
                table_seats.append(Seat(i, "human"))
            else:
                raise ServiceError("bad_request", f"seat {i}: kind must be 'human' or 'bot', not {spec.kind!r}")
        stamp = self._clock()
        for _attempt in range(8):
            table = Table(
                id=self._token(6),
                rules=rules,
                players=len(seats),
                seats=tuple(table_seats),
                seed=self._randbits(62),
                first_player=first_player,
                turn_seconds=turn_seconds,
                absent_bot=absent_bot,
                created=stamp,
                updated=stamp,
            )
            if await self._store(self.store.create, table):
                break
        else:
            raise ServiceError("server_busy", "could not find a free table id; try again", 503)
        live = self._remember(_Live(table, None))
        if not table.humans:
            async with self._lock(table.id):
                await self._start(live)
        return self._view(live.table)

    async def join(self, table_id: str, seat: int, name: str) -> tuple[str, Message]:
        """Take an empty human seat; returns its secret token (given out only here)."""
        name = clean_name(name)
        async with self._lock(table_id):
            live = await self._live(table_id, refresh=True)  # lobby changes are rare: read the store
            table = live.table
            if table.status != OPEN:
                raise ServiceError("not_open", "the game has started: seats can't change now")
            current = self._seat(table, seat)
            if current.taken:
                raise ServiceError("seat_taken", f"seat {seat} is taken; choose an empty human seat")
            token = self._token(18)
            joined = replace(current, name=name, token_hash=hash_token(token))
            await self._save(live, replace(table.with_seat(joined), version=table.version + 1, updated=self._clock()))
            await self._publish(live, None)
            return token, self._view(live.table)

    async def leave(self, table_id: str, seat: int, token: str) -> Message:
        """Give a seat back before the game starts."""
        async with self._lock(table_id):
            live = await self._live(table_id, refresh=True)
            table = live.table
            self._check_token(table, seat, token)
            if table.status != OPEN:
                raise ServiceError("not_open", "the game has started: seats can't change now")
            empty = replace(table.seats[seat], name=None, token_hash=None)
            await self._save(live, replace(table.with_seat(empty), version=table.version + 1, updated=self._clock()))
            await self._publish(live, None)
            return self._view(live.table)

    async def start(self, table_id: str, seat: int, token: str) -> Message:
        """Start the game once every human seat has a name (any seated player may)."""
        async with self._lock(table_id):
            live = await self._live(table_id, refresh=True)
            self._check_token(live.table, seat, token)
            if live.table.status != OPEN:
                raise ServiceError("not_open", "the game has already started")
            empty = [s.seat for s in live.table.seats if not s.taken]
            if empty:
                raise ServiceError("seats_empty", f"seats {empty} have nobody yet: wait for them or make them bots")
            await self._start(live)
            return self._state(live, ())

    async def _start(self, live: _Live) -> None:
        table = live.table
        first = table.first_player
        if first is None:
            first = Random(f"{table.seed}:first").randrange(table.players)
        game = Game(table.rules, table.players, first_player=first)
        started = replace(
            table,
            status=PLAYING,
            first_player=first,
            to_move=game.state.to_move,
            version=table.version + 1,
            updated=self._clock(),
        )
        await self._save(live, started)
        live.game = game
        await self._publish(live, None)
        self._schedule_bots(live)

    # -- play ------------------------------------------------------------------------

    async def act(self, table_id: str, seat: int, token: str, version: int, action: object) -> Message:
        """Apply a person's action for ``seat`` at the table's ``version``; returns
        ``{"table": …, "position": …}`` after it (everyone hears of it by an ``update``).

        ``action`` is FORMAT.md's dict, except that a roll is asked for with
        ``{"roll": true}`` and the server draws the face.
        """
        async with self._lock(table_id):
            live = await self._live(table_id)
            self._check_token(live.table, seat, token)
            if live.table.version != version:
                live = await self._live(table_id, refresh=True)
            table = live.table
            if table.status != PLAYING or live.game is None:
                raise ServiceError("not_playing", f"the table is {table.status}, not playing")
            if table.version != version:
                raise ServiceError(
                    "stale_version", f"the table is at version {table.version}, not {version}: reload and choose again"
                )
            if table.to_move != seat:
                raise ServiceError("not_your_turn", f"it is seat {table.to_move}'s turn, not seat {seat}'s")
            if table.seats[seat].away:
                if not self._turn_starts(live, seat):
                    raise ServiceError(
                        "not_your_turn", "a bot is finishing this turn for you: you play from your next one"
                    )
                live.table = table.with_seat(replace(table.seats[seat], away=False, back=False))
            await self._apply(live, seat, self._decode(live, action))
            return {"table": self._view(live.table), "position": self._position(live)}

    def _decode(self, live: _Live, data: object) -> Action:
        assert live.game is not None
        position = live.game.state
        if data == ROLL_REQUEST:
            if position.phase != ROLL:
                raise ServiceError("illegal_action", f"no roll now: the phase is {position.phase!r}")
            return self._die(live)
        if isinstance(data, Mapping) and "roll" in data:
            raise ServiceError("illegal_action", 'the server rolls the die: send {"roll": true}')
        try:
            action = action_from_dict(data)
        except IllegalAction as error:
            raise ServiceError("illegal_action", str(error)) from None
        legal = legal_actions(position)
        if action not in legal:
            expected = ", ".join(_short(a) for a in legal[:12]) + (" …" if len(legal) > 12 else "")
            raise ServiceError("illegal_action", f"{_short(action)} is not legal now; expected one of: {expected}")
        return action

    def _die(self, live: _Live) -> Roll:
        """The die's face for the game's next action: the same for a given table and index,
        so a restart or a second server instance rolls exactly what the first would."""
        assert live.game is not None
        return sample_roll(Random(f"{live.table.seed}:die:{len(live.game.history)}"))

    async def _apply(self, live: _Live, seat: int, action: Action) -> None:
        game = live.game
        assert game is not None
        table = live.table
        index = len(game.history)
        events = game.push(action)
        state = game.state
        over = state.phase == OVER
        new = replace(
            table,
            version=table.version + 1,
            status=TABLE_OVER if over else PLAYING,
            to_move=None if over else state.to_move,
            winners=state.winners,
            updated=self._clock(),
        )
        for held in new.seats:  # people who came back play from their next turn on
            if held.back and not (state.to_move == held.seat and state.phase == MOVE and not over):
                new = new.with_seat(replace(held, away=False, back=False))
        row = ActionRow(index, seat, action_to_dict(action))
        try:
            await self._save(live, new, [row])
        except ServiceError:
            game.undo()
            raise
        entry = {"index": index, "seat": seat, "action": row.action, "lines": narrate(events)}
        live.log.append(entry)
        live.events.append(events)
        await self._publish(live, {**entry, "events": events_to_list(events)})
        self._schedule_bots(live)
        if over:
            self._deadlines.pop(live.table.id, None)
            for seat_number in range(live.table.players):
                self._gone.pop((live.table.id, seat_number), None)

    # -- bots --------------------------------------------------------------------------

    def _schedule_bots(self, live: _Live) -> None:
        table = live.table
        self._set_deadline(live)
        if table.status != PLAYING or table.to_move is None or not table.seats[table.to_move].played_by_bot:
            return
        task = self._bot_tasks.get(table.id)
        if task is not None and not task.done():
            return
        self._bot_tasks[table.id] = asyncio.get_running_loop().create_task(self._play_bots(table.id))

    async def _play_bots(self, table_id: str) -> None:
        """Play bot turns at a table until a person is to move or the game ends."""
        try:
            while True:
                await asyncio.sleep(self.bot_delay)
                async with self._lock(table_id):
                    live = await self._live(table_id)
                    table = live.table
                    game = live.game
                    if table.status != PLAYING or game is None or table.to_move is None:
                        return
                    seat = table.seats[table.to_move]
                    if not seat.played_by_bot:
                        return
                    if seat.back and self._turn_starts(live, seat.seat):  # the person plays again
                        await self._set_away(live, seat.seat, away=False)
                        return
                    position = game.state
                    if position.phase == ROLL:
                        action: Action = self._die(live)
                    else:
                        bot = live.bots.get(seat.seat)
                        if bot is None:
                            level = seat.bot if seat.kind == "bot" and seat.bot else table.absent_bot
                            bot = live.bots[seat.seat] = make_bot(level)
                        rng = Random(f"{table.seed}:bot:{len(game.history)}")
                        action = await asyncio.to_thread(bot.choose, position, rng)
                    await self._apply(live, seat.seat, action)
        except ServiceError as error:  # another instance moved first: it plays on
            log.info("bot turn at table %s stopped: %s", table_id, error.message)
        except Exception:
            log.exception("bot turn at table %s failed", table_id)
        finally:
            task = self._bot_tasks.get(table_id)
            if task is asyncio.current_task():
                del self._bot_tasks[table_id]

    async def resume(self, limit: int = 10_000) -> int:
        """After a restart: let the bots of every game under way play on; how many games."""
        playing = await self._store(self.store.list_tables, PLAYING, limit)
        for table in playing:
            self._schedule_bots(await self._live(table.id))
        return len(playing)

    async def idle(self) -> None:
        """Wait until no bot is thinking or about to move (for tests and shutdown)."""
        while self._bot_tasks:
            await asyncio.gather(*list(self._bot_tasks.values()), return_exceptions=True)

    async def close(self) -> None:
        if self._timers is not None:
            self._timers.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._timers
        for task in list(self._bot_tasks.values()):
            task.cancel()
        await asyncio.gather(*self._bot_tasks.values(), return_exceptions=True)
        self._bot_tasks.clear()

    # -- reading ----------------------------------------------------------------------

    async def table(self, table_id: str) -> Message:
        """``{"table": …, "position": …}``."""
        live = await self._live(table_id)
        return {"table": self._view(live.table), "position": self._position(live)}

    async def state(self, table_id: str, tokens: Mapping[int, str], *, min_version: int = 0) -> Message:
        """The ``state`` message for a client holding ``tokens`` (seat → token).

        :raises ServiceError: ``bad_token`` if a token doesn't belong to its seat.
        """
        live = await self._live(table_id)
        if live.table.version < min_version:
            live = await self._live(table_id, refresh=True)
        held = self.seats_for(live.table, tokens)
        return self._state(live, held)

    def seats_for(self, table: Table, tokens: Mapping[int, str]) -> tuple[int, ...]:
        for seat, token in tokens.items():
            self._check_token(table, seat, token)
        return tuple(sorted(tokens))

    async def held_seats(self, table_id: str, tokens: Mapping[int, str]) -> tuple[int, ...]:
        """The seats ``tokens`` prove, checked against the table."""
        return self.seats_for((await self._live(table_id)).table, tokens)

    async def tables(self, limit: int = 50) -> Message:
        """The lobby's lists: open tables, games under way and recently finished games
        (to replay), most recently changed first."""
        open_tables, playing, finished = await asyncio.gather(
            self._store(self.store.list_tables, OPEN, limit),
            self._store(self.store.list_tables, PLAYING, limit),
            self._store(self.store.list_tables, TABLE_OVER, 20),
        )
        return {
            "open": [self._view(t) for t in open_tables],
            "playing": [self._view(t) for t in playing],
            "finished": [self._view(t) for t in finished],
        }

    async def record(self, table_id: str) -> Message:
        """The game so far as a ``ghostparty-record/1`` dict."""
        live = await self._live(table_id)
        if live.game is None:
            raise ServiceError("not_playing", "the game hasn't started: there is no record yet")
        return live.game.record().to_dict()

    async def replay(self, table_id: str) -> Message:
        """A finished game's replay steps (:func:`~ghostparty.server.replay.replay_steps`);
        a game under way can't be replayed yet, so nobody learns more than its players."""
        live = await self._live(table_id)
        if live.game is None or live.table.status != TABLE_OVER:
            raise ServiceError("not_over", "only a finished game can be replayed")
        return replay_steps(live.game.record())

    @staticmethod
    def legal(live_table: Table, position: Any, held: Sequence[int]) -> list[dict[str, Any]]:
        """Docs/PROTOCOL.md's ``legal`` for a client holding ``held``."""
        mover = live_table.to_move
        if live_table.status != PLAYING or mover is None or mover not in held or position is None:
            return []
        if live_table.seats[mover].away:  # a bot plays this turn for them
            return []
        if position.phase == ROLL:
            return [dict(ROLL_REQUEST)]
        return [action_to_dict(a) for a in legal_actions(position)]

    # -- presence ---------------------------------------------------------------------

    async def connected(self, table_id: str, seats: Sequence[int]) -> None:
        """A client holding ``seats`` is watching the table."""
        counts = self._online.setdefault(table_id, {})
        changed = False
        for seat in seats:
            counts[seat] = counts.get(seat, 0) + 1
            changed |= counts[seat] == 1
            self._gone.pop((table_id, seat), None)
        if changed:
            await self._publish_presence(table_id)
        await self._come_back(table_id, seats)

    async def disconnected(self, table_id: str, seats: Sequence[int]) -> None:
        counts = self._online.get(table_id, {})
        changed = False
        for seat in seats:
            left = counts.get(seat, 0) - 1
            if left <= 0:
                counts.pop(seat, None)
                changed = True
                self._gone[(table_id, seat)] = self._clock()
            else:
                counts[seat] = left
        if not counts:
            self._online.pop(table_id, None)
        if changed:
            await self._publish_presence(table_id)

    async def _publish_presence(self, table_id: str) -> None:
        live = self._cache.get(table_id)
        if live is not None:
            await self._publish(live, None)

    # -- absent players and housekeeping ------------------------------------------------

    def _turn_starts(self, live: _Live, seat: int) -> bool:
        """Whether ``seat`` is to move at the start of its turn (not halfway through it)."""
        state = live.game.state if live.game is not None else None
        return state is not None and state.to_move == seat and state.phase in {ROLL, PLACE}

    def _set_deadline(self, live: _Live) -> None:
        table = live.table
        mover = table.seats[table.to_move] if table.status == PLAYING and table.to_move is not None else None
        if table.turn_seconds is None or mover is None or mover.played_by_bot:
            self._deadlines.pop(table.id, None)
            return
        self._deadlines[table.id] = (table.version, table.updated + timedelta(seconds=table.turn_seconds))

    async def _set_away(self, live: _Live, seat: int, *, away: bool, back: bool = False) -> None:
        """Mark a person away (a bot plays for them), back (from their next turn), or present."""
        table = live.table
        changed = table.with_seat(replace(table.seats[seat], away=away, back=back))
        await self._save(live, replace(changed, version=table.version + 1, updated=self._clock()))
        await self._publish(live, None)
        self._schedule_bots(live)

    async def _come_back(self, table_id: str, seats: Sequence[int]) -> None:
        """People who open the page again take their seats back from their next turn on."""
        live = self._cache.get(table_id)
        if live is None or live.table.status != PLAYING:
            return
        for seat in seats:
            async with self._lock(table_id):
                live = await self._live(table_id)
                held = live.table.seats[seat]
                if not held.away or held.back or live.table.status != PLAYING:
                    continue
                bot_mid_turn = live.table.to_move == seat and not self._turn_starts(live, seat)
                await self._set_away(live, seat, away=bot_mid_turn, back=bot_mid_turn)

    async def tick(self) -> None:
        """Mark away every person whose time ran out or who left ``away_after`` ago."""
        moment = self._clock()
        expired = [(table_id, version) for table_id, (version, when) in self._deadlines.items() if when <= moment]
        left = [key for key, since in self._gone.items() if (moment - since).total_seconds() >= self.away_after]
        for table_id, version in expired:
            self._deadlines.pop(table_id, None)
            await self._away(table_id, None, version)
        for table_id, seat in left:
            self._gone.pop((table_id, seat), None)
            await self._away(table_id, seat, None)

    async def _away(self, table_id: str, seat: int | None, version: int | None) -> None:
        try:
            async with self._lock(table_id):
                live = await self._live(table_id)
                table = live.table
                if table.status != PLAYING or (version is not None and table.version != version):
                    return
                seat = table.to_move if seat is None else seat
                if seat is None or table.seats[seat].kind != "human" or table.seats[seat].away:
                    return
                await self._set_away(live, seat, away=True)
        except ServiceError as error:
            log.info("could not mark a seat away at table %s: %s", table_id, error.message)

    async def sweep(self) -> tuple[int, int]:
        """Close open tables nobody started within ``lobby_expiry``; drop finished games
        from memory after ``finished_linger``. Returns how many of each."""
        moment = self._clock()
        before = moment - timedelta(seconds=self.lobby_expiry)
        stale = await self._store(self.store.list_tables, OPEN, 500, before=before)
        closed = 0
        for table in stale:
            async with self._lock(table.id):
                live = await self._live(table.id, refresh=True)
                if live.table.status != OPEN:
                    continue
                try:
                    await self._save(
                        live, replace(live.table, status=CLOSED, version=live.table.version + 1, updated=moment)
                    )
                except ServiceError:
                    continue
                await self._publish(live, None)
                self._cache.pop(table.id, None)
                closed += 1
        linger = timedelta(seconds=self.finished_linger)
        done = [
            table_id
            for table_id, live in self._cache.items()
            if live.table.status in {TABLE_OVER, CLOSED} and moment - live.table.updated >= linger
        ]
        for table_id in done:
            self._cache.pop(table_id, None)
            self._online.pop(table_id, None)
        return closed, len(done)

    def run_timers(self, interval: float = 0.5, sweep_every: float = 60.0) -> None:
        """Call :meth:`tick` every ``interval`` seconds and :meth:`sweep` every ``sweep_every``."""

        async def loop() -> None:
            waited = 0.0
            while True:
                await asyncio.sleep(interval)
                waited += interval
                try:
                    await self.tick()
                    if waited >= sweep_every:
                        waited = 0.0
                        await self.sweep()
                except Exception:
                    log.exception("the timers failed; trying again")

        self._timers = asyncio.get_running_loop().create_task(loop())

    # -- internals ----------------------------------------------------------------------

    def _lock(self, table_id: str) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[table_id] = lock
        return lock

    async def _live(self, table_id: str, *, refresh: bool = False) -> _Live:
        live = None if refresh else self._cache.get(table_id)
        if live is not None:
            self._cache.move_to_end(table_id)
            return live
        if not isinstance(table_id, str) or not 1 <= len(table_id) <= 16:
            raise ServiceError("unknown_table", f"no table {table_id!r}", 404)
        loaded = await self._store(self.store.load, table_id)
        if loaded is None:
            raise ServiceError("unknown_table", f"no table {table_id!r}", 404)
        table, rows = loaded
        return self._remember(self._rebuild(table, rows))

    @staticmethod
    def _rebuild(table: Table, rows: Sequence[ActionRow]) -> _Live:
        if table.status in {OPEN, CLOSED} or table.first_player is None:  # never started
            return _Live(table, None)
        game = Game(table.rules, table.players, first_player=table.first_player)
        live = _Live(table, game)
        for row in rows:
            events = game.push(action_from_dict(row.action))
            live.log.append({"index": row.index, "seat": row.seat, "action": row.action, "lines": narrate(events)})
            live.events.append(events)
        return live

    async def _store(self, call: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
        """``call(*args, **kwargs)`` on the store: on the event loop if the store is
        embedded (:attr:`Store.embedded`), else in a worker thread."""
        if self.store.embedded:
            return call(*args, **kwargs)
        return await asyncio.to_thread(call, *args, **kwargs)

    def _remember(self, live: _Live) -> _Live:
        self._cache[live.table.id] = live
        self._cache.move_to_end(live.table.id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return live

    async def _save(self, live: _Live, table: Table, rows: Sequence[ActionRow] = ()) -> None:
        seats = table.seats != live.table.seats
        saved = await self._store(self.store.save, table, live.table.version, rows, with_seats=seats)
        if not saved:
            self._cache.pop(table.id, None)
            raise ServiceError("stale_version", "the table changed meanwhile: reload and choose again")
        live.table = table

    async def _publish(self, live: _Live, entry: dict[str, Any] | None) -> None:
        table = live.table
        state = live.game.state if live.game is not None else None
        message: Message = {
            "type": "update",
            "table": self._view(table),
            "position": self._position(live),
            "entry": entry,
            # The legal actions of the seat to move; each connection passes them on only
            # to a client that holds that seat.
            "legal": self.legal(table, state, (table.to_move,)) if table.to_move is not None else [],
            "odds": self._odds(live),
        }
        await self.pubsub.publish(table.id, message)

    def _view(self, table: Table) -> Message:
        return table_view(table, self._online.get(table.id, {}))

    @staticmethod
    def _position(live: _Live) -> dict[str, Any] | None:
        return position_to_dict(live.game.state) if live.game is not None else None

    def _state(self, live: _Live, held: Sequence[int]) -> Message:
        state = live.game.state if live.game is not None else None
        return {
            "type": "state",
            "table": self._view(live.table),
            "position": self._position(live),
            "seats": list(held),
            "legal": self.legal(live.table, state, held),
            "odds": self._odds(live),
            "log": [
                {**entry, "events": events_to_list(events)} for entry, events in zip(live.log, live.events, strict=True)
            ],
        }

    @staticmethod
    def _odds(live: _Live) -> list[dict[str, Any]]:
        """For the seat to move, each guest's chance that Hugo reaches it before that
        seat's next turn (:func:`ghostparty.analysis.capture_odds`), exact and rounded."""
        if live.game is None or live.table.status != PLAYING:
            return []
        position = live.game.state
        cached_for, odds = live.odds
        if cached_for is not position:
            odds = [guest.as_dict() for guest in capture_odds(position)]
            live.odds = (position, odds)
        return odds

    @staticmethod
    def _seat(table: Table, seat: object) -> Seat:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < table.players:
            raise ServiceError("bad_seat", f"seat must be 0 to {table.players - 1}, not {seat!r}")
        return table.seats[seat]

    def _check_token(self, table: Table, seat: object, token: object) -> None:
        held = self._seat(table, seat)
        if (
            held.kind != "human"
            or held.token_hash is None
            or not isinstance(token, str)
            or not hmac.compare_digest(held.token_hash, hash_token(token))
        ):
            raise ServiceError("bad_token", f"that token doesn't hold seat {seat}", 403)

    def _token(self, nbytes: int) -> str:
        if self._random is not None:
            return self._random.randbytes(nbytes).hex()
        return secrets.token_urlsafe(nbytes)

    def _randbits(self, bits: int) -> int:
        return self._random.getrandbits(bits) if self._random is not None else secrets.randbits(bits)


def _short(action: Action) -> str:
    data = action_to_dict(action)
    if "from" in data:
        return f"{data['from']}→{data['to']}"
    return ", ".join(f"{k}: {v}" for k, v in data.items())
