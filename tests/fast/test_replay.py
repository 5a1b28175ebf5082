"""The compiled simulator plays by the rules: thousands of its games, replayed action by action
through :mod:`ghostparty.rules`, reach the same full position after every action; at every
move decision it lists exactly the typed engine's legal actions in the same order; and its
per-guest ledgers (the heat-map's counts) equal :class:`GuestTracker`'s over the same events.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

pytest.importorskip("numba", reason="the compiled simulator needs numba: pip install 'ghostparty[fast]'")

from ghostparty.analysis.tracker import GuestTracker
from ghostparty.fast.trace import RecordedGame, recorded_games
from ghostparty.rules import (
    GUESTS_PER_PLAYER,
    HUGO_RULES,
    MIDNIGHT_PARTY,
    MOVE,
    OVER,
    ROLL,
    Board,
    Event,
    Room,
    Ruleset,
    apply,
    legal_actions,
)

# 1,960 games (and 40 below): every player count of both rule sets, both policies (the
# safe policy's games reach other positions: more rooms entered, fewer captures).
SETTINGS = [
    (rules, players, policies, games)
    for rules, random_games, safe_games in ((HUGO_RULES, 140, 60), (MIDNIGHT_PARTY, 60, 20))
    for players in range(2, 9)
    for policies, games in ((("random",), random_games), (("safe", "random"), safe_games))
]


def replay(game: RecordedGame) -> None:
    """Replay one compiled game through the typed engine, checking everything on the way."""
    position = game.start
    tracker = GuestTracker(position)
    decisions = iter(game.legal)
    for index, (action, expected, (count, chosen)) in enumerate(
        zip(game.actions, game.positions, game.choices, strict=True)
    ):
        where = f"action {index} of a {position.ruleset.id} {position.players}p game"
        if position.phase != ROLL:
            legal = legal_actions(position)
            assert len(legal) == count, where
            assert legal[chosen] == action, where
            if position.phase == MOVE:
                assert tuple(legal) == next(decisions), where
        events: list[Event] = []
        position = apply(position, action, events)
        tracker.feed(events)
        assert position == expected, f"{where}:\n typed    {position}\n compiled {expected}"
    assert position.phase == OVER
    assert next(decisions, None) is None
    per = GUESTS_PER_PLAYER[position.players]
    for guest in tracker.all_guests():
        total = guest.total()
        ledger = (guest.start, total.captures, total.capture_points, total.other_points, int(total.sent_to_cellar))
        assert game.ledgers[guest.seat * per + guest.number] == ledger, f"guest {guest.seat}/{guest.number}"


@pytest.mark.parametrize(
    ("rules", "players", "policies", "games"),
    SETTINGS,
    ids=[f"{r.id}-{p}p-{'+'.join(pol)}" for r, p, pol, _ in SETTINGS],
)
def test_compiled_games_replay_position_by_position(
    rules: Ruleset, players: int, policies: tuple[str, ...], games: int
) -> None:
    for game in recorded_games(rules, players, games, seed=players, policies=policies):
        replay(game)


def test_the_board_is_read_from_the_rules_core() -> None:
    """A board with other doors, shields and steps plays by its own data (nothing re-typed)."""
    board = Board(
        id="test-board",
        rooms=(Room("cellar-bar", 5, "green"), Room("attic", 12, "red"), Room("study", 20), Room("hall", 33, "green")),
        steps=(9, 7, 5, 3),
        overflow=9,
        has_start=True,
        squares=36,
    )
    rules = replace(HUGO_RULES, id="test", board=board, clock_speeds=(2, 3, 4, 5, 6, 7), end_score=40)
    games = recorded_games(rules, 3, 40, seed=5)
    for game in games:
        replay(game)
    squares = {int(p.hugo) for g in games for p in g.positions}
    assert max(squares) == board.size - 1  # Hugo started on this board's START
    assert 35 in squares  # and walked its 36-square gallery
