"""The rules as Numba kernels over one int32 array per game (RULES.md §2–§8).

A game's whole state lives in an ``int32`` array ``s`` laid out by the offsets below; the
rule set is the flat ``int32`` array ``t`` of :mod:`ghostparty.fast.tables`. Guests have identities here
(guest ``g`` belongs to seat ``g // per``; a seat's guests are numbered in the order it
places them), which the heat-map needs; where several guests of one seat share a
location, the lowest-numbered one moves, as :mod:`ghostparty.analysis.tracker` does.
Locations, the order of legal moves and every rule follow :mod:`ghostparty.rules`
exactly; ``tests/fast`` replays compiled games through the typed engine to prove it.

Each rule is applied where its RULES.md section is cited, in the order
:mod:`ghostparty.rules.transition` applies it.

Over 400 lines: one game's array layout (the offsets below) and every kernel that reads
the array by those offsets; Numba freezes module globals into each kernel at compile
time, and the kernels are the rules as one transition, read top to bottom beside
:mod:`ghostparty.rules` (the tables they read are :mod:`ghostparty.fast.tables`', the
driver and policies :mod:`ghostparty.fast.play`'s and :mod:`ghostparty.fast.policy`'s).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit

from ghostparty.fast.tables import (
    CLOCK_SPEEDS,
    DOOR,
    DURING_PLAY,
    END_SCORE,
    ENTRIES,
    ENTRY_COUNT,
    ENTRY_ROOM,
    ENTRY_STEP,
    GREEN,
    GREEN_POINTS,
    HOLD,
    HUGO_NEXT,
    HUGO_START,
    LAST_TIME,
    MAX_GUESTS,
    NEUTRAL,
    OVERFLOW,
    PATH_END,
    PLAIN_SPEED,
    RED,
    RED_POINTS,
    ROLLS,
    ROOM_BASE,
    ROUNDS,
    SHIELD,
    START_SCORE,
    STEP_BASE,
    STEP_VALUE,
    STEPS,
)

F = TypeVar("F", bound=Callable[..., object])
#: Numba's options for the functions under the batch kernel (``_nrt`` is not in its stubs).
_KERNEL: dict[str, Any] = {"cache": True, "_nrt": False}


def kernel(func: F) -> F:
    """Compile ``func`` for the kernel, cached, without Numba's reference counting.

    None of these functions allocates, so they need no counting; with it, every array
    passed between them cost an atomic increment and decrement per call (40 % of the
    time). Only :func:`ghostparty.fast.play.batch`, which allocates, keeps it.
    """
    return cast(F, njit(**_KERNEL)(func))


# -- the state array ---------------------------------------------------------------------------

PHASE = 0  # PLACE, ROLL, MOVE or OVER below
TO_MOVE = 1
ROLL = 2  # the rolled number in phase MOVE, else 0
CLOCK = 3  # index into the clock times, -1 without a clock
HUGO = 4
ROUND = 5
FIRST = 6
QHEAD = 7  # the place queue is QUEUE[QHEAD:QLEN]
QLEN = 8
PLAYERS = 9
PER = 10  # guests per player
WINNERS = 11  # bit mask of the winning seats
REASON = 12  # why the game ended: BY_SCORE, BY_CLOCK, BY_ROUNDS
ACTIONS = 13  # actions applied so far
CAPTURED = 14  # guests captured so far
SCORED_ROUNDS = 15  # rows of ROUND_SCORES filled
BOOKING = 16  # whether the guests' ledgers below are being kept (the heat-map's horizon)
HORIZON_GAME = 17  # 1: book every round; 0: round 1 only
MOVER = 18  # the guest that moved last (its shield is booked to it)
SCORES = 24
ROUND_SCORES = SCORES + 8  # 3 rounds x 8 seats
GUEST = ROUND_SCORES + 24  # location of each guest, -1 while waiting to be placed
WAIT = GUEST + MAX_GUESTS  # the step a waiting guest came from (§8.6.3), for placing order
QUEUE = WAIT + MAX_GUESTS
COUNT = QUEUE + MAX_GUESTS  # guests per location
WHO = COUNT + 64  # the guest in each room (valid while COUNT says it is occupied)
START = WHO + 64  # per guest: its round-1 square, -1 before it is placed
CAPTURES = START + MAX_GUESTS  # per guest: times captured (while booking)
CAPTURE_POINTS = CAPTURES + MAX_GUESTS  # per guest: step values of those captures
OTHER_POINTS = CAPTURE_POINTS + MAX_GUESTS  # per guest: shields, the wine cellar
SENT = OTHER_POINTS + MAX_GUESTS  # per guest: 1 if a round ended with it on the gallery
ORDER = SENT + MAX_GUESTS  # scratch: the seats by total at a round's end (§8.6.4)
STATE_SIZE = ORDER + 8
#: The part of the state that is the position (what a snapshot keeps).
POSITION_SIZE = COUNT

PLACE_PHASE, ROLL_PHASE, MOVE_PHASE, OVER_PHASE = 0, 1, 2, 3
BY_SCORE, BY_CLOCK, BY_ROUNDS = 1, 2, 3
#: Die faces in :func:`roll_face`'s order (RULES.md §1.4); 0 is HUGO.
HUGO_FACE = 0
#: Action kinds, as recorded: (kind, a, b).
KIND_PLACE, KIND_ROLL, KIND_MOVE, KIND_PASS = 0, 1, 2, 3

_FACES = np.array([1, 2, HUGO_FACE, 4, 5, HUGO_FACE], dtype=np.int32)


# -- random numbers: splitmix64, one uint64 per game ------------------------------------------


@kernel
def mix64(z: np.uint64) -> np.uint64:
    """SplitMix64's finaliser: a bijective scramble of 64 bits."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@kernel
def seed_game(rng: np.ndarray, seed: np.uint64, game: np.int64) -> None:
    """Seed ``rng`` for game number ``game`` of a run: the games' streams depend on both only."""
    rng[0] = mix64(seed + mix64(np.uint64(game) + np.uint64(1)))


@kernel
def below(rng: np.ndarray, n: int) -> int:
    """A uniform integer in ``0 … n-1`` (SplitMix64, Lemire's multiply-shift)."""
    z = rng[0] + np.uint64(0x9E3779B97F4A7C15)
    rng[0] = z
    z = mix64(z)
    return int(np.int64(((z >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32)))


@kernel
def roll_face(rng: np.ndarray) -> int:
    """One roll of the die: 1, 2, 4, 5, or :data:`HUGO_FACE` (0) with probability 1/3."""
    return int(_FACES[below(rng, 6)])


# -- setup (RULES.md §2) ---------------------------------------------------------------------------


@kernel
def new_game(t: np.ndarray, s: np.ndarray, players: int, per: int, horizon_game: int) -> None:
    """Reset ``s`` to the start of a game with seat 0 first (RULES.md §2.1, §2.2)."""
    s[:] = 0
    s[PHASE] = PLACE_PHASE
    s[CLOCK] = 0 if t[LAST_TIME] >= 0 else -1
    s[HUGO] = t[HUGO_START]
    s[ROUND] = 1
    s[PLAYERS] = players
    s[PER] = per
    s[BOOKING] = 1
    s[HORIZON_GAME] = horizon_game
    s[MOVER] = -1
    for seat in range(players):
        s[SCORES + seat] = t[START_SCORE]
    n = players * per
    s[QLEN] = n
    for i in range(n):
        s[QUEUE + i] = i % players
        s[GUEST + i] = -1
        s[WAIT + i] = 0
        s[START + i] = -1
    for i in range(n, MAX_GUESTS):
        s[GUEST + i] = -2  # no such guest


# -- the position's facts --------------------------------------------------------------------------


@kernel
def occupant_seat(s: np.ndarray, room: int) -> int:
    """The seat whose guest is in ``room``, or -1."""
    if s[COUNT + room] == 0:
        return -1
    return int(s[WHO + room] // s[PER])


@kernel
def sorted_locations(s: np.ndarray, seat: int, out: np.ndarray) -> int:
    """The seat's placed guests' locations, ascending, into ``out``; how many."""
    per = s[PER]
    n = 0
    for g in range(seat * per, seat * per + per):
        loc = s[GUEST + g]
        if loc < 0:
            continue
        i = n
        while i > 0 and out[i - 1] > loc:
            out[i] = out[i - 1]
            i -= 1
        out[i] = loc
        n += 1
    return n


@kernel
def legal_moves(t: np.ndarray, s: np.ndarray, moves: np.ndarray, scratch: np.ndarray) -> int:
    """The legal moves in phase MOVE into ``moves[i] = (source, target)``, ``(-1, -1)`` a pass.

    In :func:`ghostparty.rules.legal_actions`'s order: by source, the plain move first,
    then the rooms in the order the path reaches their doors; the pass last.
    RULES.md §4.1, §4.2, §8.2, §8.3.
    """
    seat = s[TO_MOVE]
    roll = s[ROLL]
    rb = t[ROOM_BASE]
    sb = t[STEP_BASE]
    hold = t[HOLD]
    n = sorted_locations(s, seat, scratch)
    hugo_out = s[HUGO] < rb  # §4.2.1: no room while Hugo is in the cellar
    count = 0
    prev = -1
    for i in range(n):
        loc = scratch[i]
        if loc == prev:
            continue
        prev = loc
        if loc >= rb and hold:  # §8.2: only guests on the gallery move
            break
        moves[count, 0] = loc
        moves[count, 1] = t[PATH_END + loc * ROLLS + roll]
        count += 1
        if hugo_out:
            for e in range(t[ENTRY_COUNT + loc * ROLLS + roll]):
                room = t[ENTRY_ROOM + (loc * ROLLS + roll) * ENTRIES + e]
                k = t[ENTRY_STEP + (loc * ROLLS + roll) * ENTRIES + e]
                occupant = occupant_seat(s, room)
                if occupant >= 0:
                    if occupant == seat or hold or k != roll:  # §4.2.3, §8.2, §4.2.4
                        continue
                elif k != roll and t[SHIELD + room] == GREEN:  # §4.2.4; else §4.2.5
                    continue
                moves[count, 0] = loc
                moves[count, 1] = room
                count += 1
        if loc >= sb:  # §4.1: only the highest own step leaves the cellar
            break
    if hold and (n < 2 or scratch[1] >= rb):  # §8.3: at most one own guest on the gallery
        moves[count, 0] = -1
        moves[count, 1] = -1
        count += 1
    return count


@kernel
def empty_squares(s: np.ndarray, squares: int, out: np.ndarray) -> int:
    """The gallery squares a guest may be placed on, ascending (§2.2; not Hugo's)."""
    n = 0
    hugo = s[HUGO]
    for sq in range(squares):
        if s[COUNT + sq] == 0 and sq != hugo:
            out[n] = sq
            n += 1
    return n


@kernel
def random_empty(s: np.ndarray, squares: int, rng: np.ndarray) -> int:
    """A uniformly random square of :func:`empty_squares`, drawn by rejection."""
    hugo = s[HUGO]
    while True:
        sq = below(rng, squares)
        if s[COUNT + sq] == 0 and sq != hugo:
            return sq


# -- changes ---------------------------------------------------------------------------------------


@kernel
def _put(s: np.ndarray, g: int, loc: int) -> None:
    old = s[GUEST + g]
    if old >= 0:
        s[COUNT + old] -= 1
    s[GUEST + g] = loc
    if loc >= 0:
        s[COUNT + loc] += 1
        s[WHO + loc] = g


@kernel
def _guest_at(s: np.ndarray, seat: int, loc: int) -> int:
    """The seat's lowest-numbered guest on ``loc``."""
    per = s[PER]
    for g in range(seat * per, seat * per + per):
        if s[GUEST + g] == loc:
            return g
    return -1


@kernel
def _capture(t: np.ndarray, s: np.ndarray, square: int) -> None:
    """Capture every guest on ``square`` onto one step (RULES.md §6.1, §6.2)."""
    step = t[OVERFLOW]
    for loc in range(t[STEP_BASE], t[STEP_BASE] + t[STEPS]):  # the highest value first
        if s[COUNT + loc] == 0:
            step = loc
            break
    value = t[STEP_VALUE + step]
    per = s[PER]
    booking = s[BOOKING]
    for g in range(s[PLAYERS] * per):
        if s[GUEST + g] == square:
            _put(s, g, step)
            s[CAPTURED] += 1
            if t[DURING_PLAY]:
                s[SCORES + g // per] += value
            if booking:
                s[CAPTURES + g] += 1
                s[CAPTURE_POINTS + g] += value


@kernel
def _top_score(s: np.ndarray) -> int:
    top = s[SCORES]
    for seat in range(1, s[PLAYERS]):
        top = max(top, s[SCORES + seat])
    return int(top)


@kernel
def _game_over(s: np.ndarray, reason: int) -> None:
    """RULES.md §7, §8.7: the lowest score wins; ties share the win."""
    best = s[SCORES]
    for seat in range(1, s[PLAYERS]):
        best = min(best, s[SCORES + seat])
    mask = 0
    for seat in range(s[PLAYERS]):
        if s[SCORES + seat] == best:
            mask |= 1 << seat
    s[WINNERS] = mask
    s[REASON] = reason
    s[PHASE] = OVER_PHASE
    s[ROLL] = 0
    s[QHEAD] = 0
    s[QLEN] = 0


@kernel
def _next_turn(s: np.ndarray) -> None:
    """RULES.md §3.2: the next seat clockwise rolls."""
    s[TO_MOVE] = (s[TO_MOVE] + 1) % s[PLAYERS]
    s[PHASE] = ROLL_PHASE
    s[ROLL] = 0


@kernel
def _round_is_over(t: np.ndarray, s: np.ndarray) -> bool:
    """RULES.md §8.4: no guest on the gallery, or every room occupied."""
    rb = t[ROOM_BASE]
    on_gallery = False
    in_rooms = 0
    for g in range(s[PLAYERS] * s[PER]):
        loc = s[GUEST + g]
        if loc < rb:
            on_gallery = True
        elif loc < t[STEP_BASE]:
            in_rooms += 1
    return not on_gallery or in_rooms == t[STEP_BASE] - rb


@kernel
def _end_round(t: np.ndarray, s: np.ndarray) -> None:
    """RULES.md §8.4–§8.7: the wine cellar, the round's scores, the next round or the end."""
    rb = t[ROOM_BASE]
    sb = t[STEP_BASE]
    players = s[PLAYERS]
    per = s[PER]
    n = players * per
    booking = s[BOOKING]
    wine = t[OVERFLOW]
    for g in range(n):  # §8.4: the guests still on the gallery go onto step 2
        if s[GUEST + g] < rb:
            _put(s, g, wine)
            if booking:
                s[SENT + g] = 1
                s[OTHER_POINTS + g] += t[STEP_VALUE + wine]
    row = ROUND_SCORES + 8 * s[SCORED_ROUNDS]
    for seat in range(players):
        s[row + seat] = 0
    for g in range(n):  # §8.5
        loc = s[GUEST + g]
        points = 0
        if loc >= sb:
            points = t[STEP_VALUE + loc]
        elif t[SHIELD + loc] == RED:
            points = t[RED_POINTS]
            if booking:
                s[OTHER_POINTS + g] += points
        elif t[SHIELD + loc] == GREEN:
            points = t[GREEN_POINTS]
            if booking:
                s[OTHER_POINTS + g] += points
        s[row + g // per] += points
    s[SCORED_ROUNDS] += 1
    for seat in range(players):
        s[SCORES + seat] += s[row + seat]
    if s[ROUND] >= t[ROUNDS]:  # §8.7
        s[CLOCK] = -1
        _game_over(s, BY_ROUNDS)
        return
    # §8.6.4 order: the higher total first, ties to the lower seat.
    for seat in range(players):
        i = seat
        while i > 0 and s[SCORES + s[ORDER + i - 1]] < s[SCORES + seat]:
            s[ORDER + i] = s[ORDER + i - 1]
            i -= 1
        s[ORDER + i] = seat
    qlen = 0
    for step in range(sb, sb + t[STEPS]):  # §8.6.3: step 10 first, down to step 2
        for i in range(players):
            seat = s[ORDER + i]
            for g in range(seat * per, seat * per + per):
                if s[GUEST + g] == step:
                    s[QUEUE + qlen] = seat
                    qlen += 1
    for g in range(n):
        loc = s[GUEST + g]
        if loc >= sb:  # §8.6.3: waits to be placed again
            _put(s, g, -1)
            s[WAIT + g] = loc - sb
        elif loc >= rb:  # §8.6.1: onto the door (not captured: Hugo does not step there)
            _put(s, g, t[DOOR + loc])
    first = s[ORDER]
    s[FIRST] = first
    s[ROUND] += 1
    s[HUGO] = t[HUGO_START]  # §8.6.2
    s[ROLL] = 0
    s[QHEAD] = 0
    s[QLEN] = qlen
    if not booking or not s[HORIZON_GAME]:
        s[BOOKING] = 0
    if qlen:
        s[PHASE] = PLACE_PHASE
        s[TO_MOVE] = s[QUEUE]
    else:
        s[PHASE] = ROLL_PHASE
        s[TO_MOVE] = first


@kernel
def place(t: np.ndarray, s: np.ndarray, square: int) -> None:
    """Place the mover's next waiting guest on ``square`` (RULES.md §2.2, §8.6.3)."""
    seat = s[TO_MOVE]
    per = s[PER]
    g = -1
    for h in range(seat * per, seat * per + per):  # the waiting guest from the highest step first
        if s[GUEST + h] == -1 and (g < 0 or s[WAIT + h] < s[WAIT + g]):
            g = h
    _put(s, g, square)
    if s[ROUND] == 1:
        s[START + g] = square
    s[QHEAD] += 1
    s[ACTIONS] += 1
    if s[QHEAD] < s[QLEN]:
        s[TO_MOVE] = s[QUEUE + s[QHEAD]]
    else:
        s[QHEAD] = 0
        s[QLEN] = 0
        s[TO_MOVE] = s[FIRST]
        s[PHASE] = ROLL_PHASE


@kernel
def _hugo_move(t: np.ndarray, s: np.ndarray) -> None:
    """RULES.md §5, §6: every point used, captures on each square, the clock, the ends."""
    rb = t[ROOM_BASE]
    clock = s[CLOCK]
    speed = t[CLOCK_SPEEDS + clock] if clock >= 0 else t[PLAIN_SPEED + s[PLAYERS]]
    rounds = t[ROUNDS] > 1
    check_round = rounds
    loc = s[HUGO]
    for _ in range(speed):  # §5.1
        loc = t[HUGO_NEXT + loc]
        s[HUGO] = loc
        if loc < rb:
            if s[COUNT + loc]:  # §5.2
                _capture(t, s, loc)
                check_round = rounds
                if t[END_SCORE] and _top_score(s) >= t[END_SCORE]:  # §6.3, §7
                    _game_over(s, BY_SCORE)
                    return
            if loc == 0 and clock >= 0:  # §5.3: after the captures on square 0
                clock += 1
                s[CLOCK] = clock
                if clock == t[LAST_TIME]:
                    _game_over(s, BY_CLOCK)
                    return
        if check_round:  # §8.4, after every square (its answer changes only by a capture)
            if _round_is_over(t, s):
                _end_round(t, s)
                return
            check_round = False
    _next_turn(s)


@kernel
def roll(t: np.ndarray, s: np.ndarray, face: int) -> None:
    """Apply a roll of the die (RULES.md §3.1, §8.3)."""
    s[ACTIONS] += 1
    if face == HUGO_FACE:
        _hugo_move(t, s)
        return
    if t[HOLD]:
        seat = s[TO_MOVE]
        per = s[PER]
        mine = 0
        for g in range(seat * per, seat * per + per):
            if s[GUEST + g] < t[ROOM_BASE]:
                mine += 1
        if mine == 0:  # §8.3: with no own guest on the gallery a number does nothing
            _next_turn(s)
            return
    s[PHASE] = MOVE_PHASE
    s[ROLL] = face


@kernel
def move(t: np.ndarray, s: np.ndarray, source: int, target: int) -> None:
    """Apply the legal move ``(source, target)``, or a pass for ``(-1, -1)`` (RULES.md §4, §8.3)."""
    s[ACTIONS] += 1
    if source < 0:
        _next_turn(s)
        return
    rb = t[ROOM_BASE]
    seat = s[TO_MOVE]
    g = _guest_at(s, seat, source)
    s[MOVER] = g
    scored = False
    if target < rb:  # §4.4: ends on the gallery, captured on Hugo's square
        _put(s, g, target)
        if target == s[HUGO]:
            _capture(t, s, target)
            scored = True
    else:  # §4.2: entered a room
        occupant = s[WHO + target] if s[COUNT + target] else -1
        _put(s, g, target)
        if occupant >= 0:  # §4.3: expelled onto the door square
            door = t[DOOR + target]
            _put(s, occupant, door)
            s[WHO + target] = g
            if door == s[HUGO]:
                _capture(t, s, door)
                scored = True
        shield = t[SHIELD + target]
        if t[DURING_PLAY] and shield != NEUTRAL:  # §4.5
            old = s[SCORES + seat]
            new = old + t[RED_POINTS] if shield == RED else max(0, old + t[GREEN_POINTS])
            s[SCORES + seat] = new
            scored = True
            if s[BOOKING]:
                s[OTHER_POINTS + g] += new - old
    if scored and t[END_SCORE] and _top_score(s) >= t[END_SCORE]:  # §7
        _game_over(s, BY_SCORE)
        return
    if t[ROUNDS] > 1 and _round_is_over(t, s):  # §8.4
        _end_round(t, s)
        return
    _next_turn(s)
