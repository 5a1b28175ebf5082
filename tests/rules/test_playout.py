"""The rules core's random game (``rules.playout``) and the placements it asks for.

Both run compiled when the core is built (``.ci/run`` runs ``tests/rules`` on both cores).
"""

from __future__ import annotations

from random import Random

import pytest

from ghostparty.rules import (
    HUGO_RULES,
    MIDNIGHT_PARTY,
    OVER,
    PLACE,
    ROLL,
    Place,
    Ruleset,
    apply,
    legal_actions,
    position_from_dict,
    position_to_dict,
    sample_roll,
    start_position,
)
from ghostparty.rules.playout import random_game


def _by_hand(ruleset: Ruleset, players: int, rng: Random) -> int:
    """The game as any caller would play it: the die and the random bot's choice, one source."""
    position = start_position(ruleset, players)
    count = 0
    while position.phase != OVER:
        if position.phase == ROLL:
            action = sample_roll(rng)
        else:
            actions = legal_actions(position)
            action = actions[int(rng.random() * len(actions))]
        position = apply(position, action)
        count += 1
    return count


@pytest.mark.parametrize(("ruleset", "players"), [(HUGO_RULES, 2), (HUGO_RULES, 5), (MIDNIGHT_PARTY, 3)])
def test_random_game_draws_what_the_die_and_the_random_bot_draw(ruleset: Ruleset, players: int) -> None:
    for seed in range(4):
        mine, theirs = Random(seed), Random(seed)
        assert random_game(ruleset, players, mine) == _by_hand(ruleset, players, theirs)
        assert mine.random() == theirs.random()  # the same number of draws, too


@pytest.mark.parametrize(
    ("guests", "hugo"),
    [
        (((), (), ()), 57),  # Hugo on his start, as in play
        (((), (), ()), 0),
        (((3, 3, 7), (), (3, 39, 41)), 0),  # two guests on one square, one in a room
        (((0, 5), (5, 12), (37,)), 5),  # Hugo on guests' square, a guest on square 0
        (((1, 2, 4), (6, 50), (38, 39)), 52),  # Hugo on a cellar step, a guest on another
    ],
)
def test_placements_are_the_free_gallery_squares_ascending(guests: tuple[tuple[int, ...], ...], hugo: int) -> None:
    position = start_position(HUGO_RULES, 3)._replace(guests=guests, hugo=hugo)
    assert position.phase == PLACE
    board = HUGO_RULES.board
    taken = {loc for locs in guests for loc in locs} | {hugo}
    free = [Place(board.names[sq]) for sq in range(board.squares) if sq not in taken]
    assert legal_actions(position) == free


def test_placements_with_a_guest_in_the_first_room() -> None:
    # §2.2: a guest is placed on a free gallery square. In play no guest is in a room while
    # guests are placed, but FORMAT.md accepts such a position: the guest in the first room
    # (whose location follows the gallery's last square) takes no gallery square from anyone.
    board = HUGO_RULES.board
    guests = ((board.room_base,), (2,), ())
    start = start_position(HUGO_RULES, 3)  # seats 0 and 1 have placed one guest each
    placed = start._replace(guests=guests, to_move=2, place_queue=start.place_queue[2:])
    position = position_from_dict(position_to_dict(placed))
    assert position.phase == PLACE
    assert position.guests == guests
    free = [Place(board.names[sq]) for sq in range(board.squares) if sq not in (2, position.hugo)]
    assert legal_actions(position) == free
