"""Compiled games as the rules core's values: actions, positions and legal move lists.

:func:`recorded_games` plays games in recording mode and hands each back as typed
:class:`~ghostparty.rules.Action` and :class:`~ghostparty.rules.Position` values, so that
they can be replayed through :func:`ghostparty.rules.apply` and compared position by
position (``tests/fast``), or saved as a :class:`~ghostparty.rules.GameRecord`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ghostparty.bots.collector import collector_paused
from ghostparty.fast import engine as e
from ghostparty.fast.play import LEDGER, RECORD_WIDTH, batch
from ghostparty.fast.policy import POLICIES
from ghostparty.fast.tables import MAX_GUESTS, tables
from ghostparty.rules import (
    GUESTS_PER_PLAYER,
    HUGO,
    MOVE,
    OVER,
    PASS,
    PLACE,
    ROLL,
    Action,
    GameRecord,
    Move,
    Phase,
    Place,
    Position,
    Roll,
    Ruleset,
    start_position,
)

_PHASES: tuple[Phase, ...] = (PLACE, ROLL, MOVE, OVER)
_new = tuple.__new__


@dataclass(frozen=True)
class RecordedGame:
    """One compiled game: every action, the position after it, and what was legal."""

    start: Position
    actions: tuple[Action, ...]
    positions: tuple[Position, ...]
    #: Per action: the number of legal choices (5 for a roll) and the index of the one taken
    #: in :func:`ghostparty.rules.legal_actions`'s order (-1 for a roll).
    choices: tuple[tuple[int, int], ...]
    #: Per move decision (phase ``"move"``), the legal actions the compiled engine listed.
    legal: tuple[tuple[Action, ...], ...]
    #: Per guest (seat by seat, in placement order): round-1 square, captures, capture
    #: points, other points, whether a round ended with it on the gallery.
    ledgers: tuple[tuple[int, int, int, int, int], ...]

    def record(self) -> GameRecord:
        """The game as a :class:`~ghostparty.rules.GameRecord` (replayable by the rules core)."""
        return GameRecord(start=self.start, actions=self.actions, seed=None)


def action_of(ruleset: Ruleset, kind: int, a: int, b: int) -> Action:
    """The typed action of a compiled ``(kind, a, b)``."""
    names = ruleset.board.names
    if kind == e.KIND_PLACE:
        return Place(names[a])
    if kind == e.KIND_ROLL:
        return Roll(HUGO if a == e.HUGO_FACE else a)
    if kind == e.KIND_MOVE:
        return Move(names[a], names[b])
    return PASS


def position_of(ruleset: Ruleset, state: npt.NDArray[np.int32] | list[int]) -> Position:
    """The typed position of a compiled state (its first ``POSITION_SIZE`` entries)."""
    s = state.tolist() if isinstance(state, np.ndarray) else state
    players = s[e.PLAYERS]
    per = s[e.PER]
    phase = _PHASES[s[e.PHASE]]
    located = s[e.GUEST : e.GUEST + players * per]
    guests = tuple(tuple(sorted(loc for loc in located[i : i + per] if loc >= 0)) for i in range(0, players * per, per))
    rows = e.ROUND_SCORES + 8 * s[e.SCORED_ROUNDS]
    round_scores = tuple(tuple(s[r : r + players]) for r in range(e.ROUND_SCORES, rows, 8))
    winners = tuple(seat for seat in range(players) if (s[e.WINNERS] >> seat) & 1) if phase == OVER else ()
    clock = s[e.CLOCK]
    return _new(
        Position,
        (
            ruleset,
            players,
            s[e.FIRST],
            s[e.ROUND],
            phase,
            s[e.TO_MOVE],
            s[e.ROLL] if phase == MOVE else None,
            clock if clock >= 0 else None,
            s[e.HUGO],
            tuple(s[e.SCORES : e.SCORES + players]),
            round_scores,
            guests,
            tuple(s[e.QUEUE + s[e.QHEAD] : e.QUEUE + s[e.QLEN]]) if phase == PLACE else (),
            winners,
        ),
    )


def policy_codes(policies: Sequence[str], players: int) -> npt.NDArray[np.int32]:
    """Each seat's policy code; ``policies`` repeats round the table (``["safe", "random"]``).

    :raises ValueError: for an unknown policy name.
    """
    if not policies:
        raise ValueError("no policy given: expected names from " + ", ".join(POLICIES))
    for name in policies:
        if name not in POLICIES:
            raise ValueError(f"unknown policy {name!r}: expected one of {', '.join(POLICIES)}")
    return np.array([POLICIES.index(policies[seat % len(policies)]) for seat in range(players)], dtype=np.int32)


def recorded_games(
    ruleset: Ruleset, players: int, games: int, seed: int = 0, policies: Sequence[str] = ("random",), first: int = 0
) -> list[RecordedGame]:
    """Play games ``first … first+games-1`` of a run compiled, recording everything."""
    t = tables(ruleset)
    per = GUESTS_PER_PLAYER[players]
    codes = policy_codes(policies, players)
    seed64 = np.uint64(seed % 2**64)
    nothing = np.zeros((0, 0), dtype=np.int32)
    sizes = np.zeros((games, 2), dtype=np.int64)
    batch(
        t, players, per, codes, seed64, first, games, 1, nothing, np.zeros(0, dtype=np.int64), sizes, nothing, nothing
    )
    record = np.zeros((int(sizes[:, 0].sum()) + games, RECORD_WIDTH), dtype=np.int32)
    legal = np.zeros((int(sizes[:, 1].sum()), 2), dtype=np.int32)
    no_sizes = np.zeros((0, 2), dtype=np.int64)
    batch(
        t, players, per, codes, seed64, first, games, 1, nothing, np.zeros(0, dtype=np.int64), no_sizes, record, legal
    )
    with collector_paused():  # the values built are acyclic: no scans of their young tuples
        return _games(ruleset, players, games, sizes, record, legal)


def _games(
    ruleset: Ruleset,
    players: int,
    games: int,
    sizes: npt.NDArray[np.int64],
    record: npt.NDArray[np.int32],
    legal: npt.NDArray[np.int32],
) -> list[RecordedGame]:
    """The recorded games as typed values."""
    per = GUESTS_PER_PLAYER[players]
    start = start_position(ruleset, players)
    result = []
    j = m = 0
    rows_all = record.tolist()
    legal_all = legal.tolist()
    for i in range(games):
        n = int(sizes[i, 0])
        rows = rows_all[j : j + n]
        moves = []
        lists = []
        for row in rows:
            kind, a, b, count = row[:4]
            moves.append(action_of(ruleset, kind, a, b))
            if kind in (e.KIND_MOVE, e.KIND_PASS):
                lists.append(
                    tuple(
                        action_of(ruleset, e.KIND_PASS if x < 0 else e.KIND_MOVE, x, y)
                        for x, y in legal_all[m : m + count]
                    )
                )
                m += count
        ledger = record[j + n, : LEDGER * MAX_GUESTS].reshape(LEDGER, MAX_GUESTS).T[: players * per].tolist()
        result.append(
            RecordedGame(
                start=start,
                actions=tuple(moves),
                positions=tuple(position_of(ruleset, row[5:]) for row in rows),
                choices=tuple((row[3], row[4]) for row in rows),
                legal=tuple(lists),
                ledgers=tuple((x[0], x[1], x[2], x[3], x[4]) for x in ledger),
            )
        )
        j += n + 1
    return result
