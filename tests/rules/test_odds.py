"""``ghostparty.rules.odds``: the pure capture odds, against the tree it replaced.

:func:`reference_odds` is the former ``ghostparty.analysis.danger`` algorithm, kept here
as it was: every roll of the horizon is a chance node over the die's exact fractions and
Hugo is moved with ``apply`` at every HUGO face. The pure module must give the very same
fractions on positions of seeded random games of both rule sets, 2 to 8 players, in
every phase, for every seat.
"""

from __future__ import annotations

import doctest
import random
import subprocess
import sys
from fractions import Fraction

import pytest

from ghostparty import Game
from ghostparty.rules import HUGO, MOVE, OVER, PLACE, ROLL, Position, apply, chance_outcomes
from ghostparty.rules import odds as odds_module
from ghostparty.rules.events import Captured, Event
from ghostparty.rules.odds import GuestOdds, capture_odds

_ZERO = Fraction(0)
_ONE = Fraction(1)


# -- the reference: the former implementation, a tree over every roll -------------------


def reference_odds(position: Position, seat: int) -> list[tuple[str, Fraction]]:
    board = position.board
    mine = position.guests[seat]
    watched = tuple(sorted({loc for loc in mine if loc < board.squares}))
    odds = _Horizon(seat, watched).start(position) if watched else ()
    by_square = dict(zip(watched, odds, strict=True))
    return [(board.names[loc], by_square.get(loc, _ZERO)) for loc in mine]


def _pass_turn(position: Position) -> Position:
    return position._replace(phase=ROLL, to_move=(position.to_move + 1) % position.players, roll=None)


class _Horizon:
    def __init__(self, seat: int, watched: tuple[int, ...]) -> None:
        self.seat = seat
        self.watched = watched
        self.zeros = (_ZERO,) * len(watched)
        self.memo: dict[Position, tuple[Fraction, ...]] = {}

    def start(self, position: Position) -> tuple[Fraction, ...]:
        phase = position.phase
        if phase == OVER:
            return self.zeros
        if phase == PLACE:
            position = position._replace(phase=ROLL, to_move=position.first_player, roll=None, place_queue=())
        elif phase == MOVE:
            return self.odds(_pass_turn(position))
        return self.turn(position)

    def odds(self, position: Position) -> tuple[Fraction, ...]:
        if position.to_move == self.seat:
            return self.zeros
        known = self.memo.get(position)
        if known is None:
            known = self.memo[position] = self.turn(position)
        return known

    def turn(self, position: Position) -> tuple[Fraction, ...]:
        total = list(self.zeros)
        p_number = _ZERO
        for roll, p in chance_outcomes(position):
            if roll.face != HUGO:
                p_number += p
                continue
            events: list[Event] = []
            after = apply(position, roll, events)
            index = position.board.index
            caught = {index[e.square] for e in events if type(e) is Captured and self.seat in e.seats}
            ended = after.phase != ROLL or after.round != position.round
            rest = self.zeros if ended else self.odds(after)
            for i, square in enumerate(self.watched):
                total[i] += p * (_ONE if square in caught else rest[i])
        if p_number:
            rest = self.odds(_pass_turn(position))
            for i in range(len(self.watched)):
                total[i] += p_number * rest[i]
        return tuple(total)


# -- positions ---------------------------------------------------------------------------


def game_states(rules: str, players: int, seed: int) -> list[Position]:
    """Every position of one seeded game with uniformly random decisions, to its end."""
    game = Game(rules, players=players, seed=seed)
    rng = random.Random(seed)
    states = [game.state]
    while not game.is_over:
        if game.state.phase == ROLL:
            game.roll()
        else:
            game.push(rng.choice(game.actions()))
        states.append(game.state)
    return states


def sampled_positions() -> list[Position]:
    """About 300 positions: 11 from each of two games per rule set and player count, the
    last position of each game (phase ``"over"``) among them."""
    positions = []
    for rules in ("hugo", "midnight-party"):
        for players in range(2, 9):
            for seed in (1, 2):
                states = game_states(rules, players, seed * 100 + players)
                rng = random.Random(seed)
                positions += [*rng.sample(states[:-1], 10), states[-1]]
    return positions


POSITIONS = sampled_positions()


def as_pairs(result: list[GuestOdds]) -> list[tuple[str, Fraction]]:
    return [(entry.location, entry.probability) for entry in result]


# -- tests -------------------------------------------------------------------------------


def test_the_sample_covers_every_phase_and_round() -> None:
    assert {p.phase for p in POSITIONS} == {PLACE, ROLL, MOVE, OVER}
    assert {p.round for p in POSITIONS if p.ruleset.id == "midnight-party"} == {1, 2, 3}
    assert {p.players for p in POSITIONS} == set(range(2, 9))


def test_equal_to_the_reference_for_every_seat() -> None:
    reached = 0
    for position in POSITIONS:
        for seat in range(position.players):
            result = capture_odds(position, seat)
            expected = reference_odds(position, seat)
            assert as_pairs(result) == expected, (position.describe(), seat)
            for entry, (_, probability) in zip(result, expected, strict=True):
                assert type(entry.probability) is Fraction
                assert entry.as_dict() == {
                    "location": entry.location,
                    "probability": str(probability),
                    "chance": round(float(probability), 5),
                }
            reached += sum(1 for _, probability in expected if probability)
    assert reached > 100  # the sample is not all zeros


@pytest.mark.parametrize("rules", ["hugo", "midnight-party"])
def test_equal_to_the_reference_wherever_hugo_stands(rules: str) -> None:
    # Hugo on every square and clock time (out of the cellar), to test how far he can get
    # against every guest: the speed-up past the arrow (§5.3), laps, the end at 5:00.
    positions = [p for p in POSITIONS if p.ruleset.id == rules and p.phase == ROLL and p.players in (3, 5)][:2]
    assert positions
    clocks = range(1, 6) if rules == "hugo" else (None,)
    for position in positions:
        taken = {loc for locs in position.guests for loc in locs}
        for hugo in range(position.board.squares):
            if hugo in taken:
                continue
            for clock in clocks:
                moved = position._replace(hugo=hugo, clock=clock)
                seat = moved.to_move
                assert as_pairs(capture_odds(moved, seat)) == reference_odds(moved, seat), (moved.describe(), seat)


@pytest.mark.parametrize("players", [2, 3, 4, 8])
def test_equal_to_the_reference_at_the_arrow(players: int) -> None:
    # hugo: one guest of the seat to roll just past the arrow, Hugo just before it, at
    # every clock time. Passing G0 speeds him up from his next move (§5.3), so some squares
    # are reached only thanks to it (24:00, two rolls, Hugo on G38: G39 G0 G1, then G2 …
    # G5), and 4:00 ends the game there (§7).
    position = next(p for p in POSITIONS if p.ruleset.id == "hugo" and p.phase == ROLL and p.players == players)
    seat = position.to_move
    others = {loc for s, locs in enumerate(position.guests) if s != seat for loc in locs}
    for clock in range(1, 6):
        for hugo in (36, 37, 38, 39, 0):
            for square in range(13):
                if square == hugo or hugo in others:
                    continue
                guests = (*position.guests[:seat], (square,), *position.guests[seat + 1 :])
                moved = position._replace(hugo=hugo, clock=clock, guests=guests)
                assert as_pairs(capture_odds(moved)) == reference_odds(moved, seat), (moved.describe(), square)


def test_the_speed_up_at_the_arrow_counts() -> None:
    # 2 players, 24:00 (speed 3), Hugo on G38, seat 0 to roll: G39 G0 G1 | G2 G3 G4 G5.
    # At the old speed the second move would stop on G4.
    position = next(p for p in POSITIONS if p.ruleset.id == "hugo" and p.phase == ROLL and p.players == 2)
    at = position.board.index
    guests = ((at["G5"], at["G6"]), (at["G30"],))
    moved = position._replace(to_move=0, hugo=at["G38"], clock=1, guests=guests, scores=(10, 10))
    assert as_pairs(capture_odds(moved)) == [("G5", Fraction(1, 9)), ("G6", _ZERO)]


def test_the_default_seat_and_errors() -> None:
    position = next(p for p in POSITIONS if p.phase == ROLL and p.players == 4)
    assert capture_odds(position) == capture_odds(position, position.to_move)
    with pytest.raises(ValueError, match="seat must be 0 to 3"):
        capture_odds(position, 4)
    with pytest.raises(ValueError, match="seat must be 0 to 3"):
        capture_odds(position, True)


def test_docstring_example() -> None:
    result = doctest.testmod(odds_module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0


def test_the_analysis_package_re_exports_it() -> None:
    from ghostparty import analysis
    from ghostparty.analysis import danger

    assert analysis.capture_odds is danger.capture_odds is capture_odds
    assert analysis.GuestOdds is danger.GuestOdds is GuestOdds


def test_importing_it_pulls_in_only_the_rules_core_and_the_standard_library() -> None:
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import ghostparty.rules.odds\n"
        "print('\\n'.join(sorted(set(sys.modules) - before)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = done.stdout.split()
    assert "ghostparty.rules.odds" in loaded
    outside = [
        name
        for name in loaded
        if not (name in ("ghostparty", "ghostparty.rules") or name.startswith("ghostparty.rules."))
        and name.split(".")[0] not in sys.stdlib_module_names
    ]
    assert outside == []
    assert not [name for name in loaded if name.startswith(("ghostparty.analysis", "ghostparty.bots"))]
