"""The one game loop (``ghostparty.sim.playout``), its seeding (``seeds``) and the local
parallel driver (``parallel``); the Dask backend is tested in ``test_dask.py``."""

from __future__ import annotations

import doctest
import time
from collections import Counter
from itertools import pairwise
from random import Random

import pytest

from ghostparty.bots import make_bot
from ghostparty.rules import (
    HUGO_RULES,
    MIDNIGHT_PARTY,
    OVER,
    PLACE,
    ROLL,
    Action,
    Game,
    Pass,
    Position,
    Roll,
    apply,
    legal_actions,
    start_position,
)
from ghostparty.sim import parallel, seeds
from ghostparty.sim.bench import play_fast
from ghostparty.sim.parallel import chunks, workers
from ghostparty.sim.playout import (
    PlayoutError,
    UniformPlacement,
    next_action,
    play_out,
    playout,
    rolls,
    seeded_playout,
)
from ghostparty.sim.seeds import bot_rng, die_rng, game_seed


class Failing:
    name = "failing"

    def choose(self, position: Position, rng: Random) -> Action:
        raise RuntimeError("no idea")


class Illegal:
    name = "illegal"

    def choose(self, position: Position, rng: Random) -> Action:
        return Pass()


def test_docstring_examples() -> None:
    for module in (seeds, parallel):
        assert doctest.testmod(module).failed == 0


@pytest.mark.parametrize(("rules", "players"), [(HUGO_RULES, 3), (MIDNIGHT_PARTY, 4)])
def test_every_step_is_the_action_applied_in_its_position(rules: object, players: int) -> None:
    position = start_position(rules, players)  # type: ignore[arg-type]
    bots = [make_bot("greedy"), make_bot("random")] * 2
    steps = list(seeded_playout(position, bots[:players], 9, events=True))
    assert steps[0].position == position
    for before, after in pairwise(steps):
        assert after.position == before.after
    for step in steps:
        assert step.after == apply(step.position, step.action)
        assert step.seat == step.position.to_move
        assert step.rolled == (step.position.phase == ROLL) == isinstance(step.action, Roll)
        assert step.think == 0.0 if step.rolled else step.think >= 0.0
        assert step.events is not None and step.events
    assert steps[-1].after.phase == OVER
    assert all(s.events is None for s in seeded_playout(position, bots[:players], 9))


def test_a_seeded_playout_is_the_game_ghostparty_play_rolls() -> None:
    """The die is ``Game(seed=…)``'s and the bots draw from ``bot_rng``: the same game as the terminal's."""
    seed = game_seed(7, 3)
    bots = [make_bot("random") for _ in range(3)]
    played = [step.action for step in seeded_playout(start_position(HUGO_RULES, 3), bots, seed)]
    game = Game(HUGO_RULES, 3, seed=seed)
    rngs = [bot_rng(seed, seat) for seat in range(3)]
    replayed = []
    while not game.is_over:
        position = game.state
        action = next_action(position, bots[position.to_move], rngs[position.to_move], rolls(game.rng))
        game.push(action)
        replayed.append(action)
    assert replayed == played
    assert die_rng(seed).random() == Random(seed).random()


def test_the_benchmark_loop_plays_the_game_of_the_one_loop() -> None:
    """``bench.play_fast`` is written out by hand; it must play what the loop plays with
    random bots and the die drawing from one shared source."""
    for seed in range(5):
        rng = Random(seed)
        bots = [make_bot("random")] * 4
        steps = list(playout(start_position(HUGO_RULES, 4), bots, [rng] * 4, rolls(rng)))
        assert play_fast(HUGO_RULES, 4, Random(seed)) == len(steps)


def test_next_action_rolls_in_phase_roll_and_asks_the_policy_otherwise() -> None:
    position = start_position(HUGO_RULES, 2)
    assert position.phase == PLACE
    asked: list[Position] = []

    class Asked:
        name = "asked"

        def choose(self, position: Position, rng: Random) -> Action:
            asked.append(position)
            return legal_actions(position)[0]

    def die() -> Roll:
        raise AssertionError("no roll while placing")

    assert next_action(position, Asked(), Random(0), die) == legal_actions(position)[0]
    assert asked == [position]
    while position.phase != ROLL:
        position = apply(position, legal_actions(position)[0])
    face = Roll(4)
    assert next_action(position, Failing(), Random(0), lambda: face) == face


def test_a_failing_policy_is_named_with_its_seat_and_count() -> None:
    position = start_position(HUGO_RULES, 3)
    for bot, kind in ((Failing(), "RuntimeError: no idea"), (Illegal(), "IllegalAction")):
        policies = [make_bot("random"), bot, make_bot("random")]
        with pytest.raises(PlayoutError, match=rf"'{bot.name}' in seat 1 failed after 1 actions: {kind}") as info:
            play_out(position, policies, [Random(0)] * 3, rolls(Random(0)))
        assert (info.value.seat, info.value.actions) == (1, 1)


def test_the_guard_stops_a_game_that_runs_too_long() -> None:
    """A random 2-player game takes well over 30 actions (10 placements, then a roll and a move a turn)."""
    bots = [make_bot("random")] * 2
    with pytest.raises(PlayoutError, match="did not end within 30 actions") as info:
        play_out(start_position(HUGO_RULES, 2), bots, [Random(0)] * 2, rolls(Random(0)), max_actions=30)
    assert (info.value.seat, info.value.actions) == (None, 30)


def _placements(policy: str, uniform: bool, games: int = 40) -> Counter[Action]:
    placed: Counter[Action] = Counter()
    for seed in range(games):
        bot = make_bot(policy)
        seats = [UniformPlacement(bot) if uniform else bot for _ in range(2)]
        for step in seeded_playout(start_position(HUGO_RULES, 2), seats, seed):
            if step.position.phase == PLACE:
                placed[step.action] += 1
    return placed


def test_uniform_placement_spreads_guests_over_the_board() -> None:
    """Greedy places on its favourite squares (12 of 40 in 40 games); placed uniformly,
    every square gets guests, none more than about twice its share, and the moves stay greedy's."""
    assert len(_placements("greedy", uniform=False)) < 20
    spread = _placements("greedy", uniform=True)
    assert len(spread) == HUGO_RULES.board.squares
    assert max(spread.values()) < 2.5 * sum(spread.values()) / HUGO_RULES.board.squares
    assert UniformPlacement(make_bot("greedy")).name == "greedy (uniform placement)"
    position = start_position(HUGO_RULES, 2)
    while position.phase == PLACE:
        position = apply(position, legal_actions(position)[0])
    position = apply(position, Roll(4))
    greedy = make_bot("greedy")
    assert UniformPlacement(greedy).choose(position, Random(1)) == greedy.choose(position, Random(1))


# -- the local parallel driver ---------------------------------------------------------------


def test_chunks_cover_the_range_in_order() -> None:
    for total, slots, most in ((1, 4, 10), (100, 2, 7), (1000, 3, 64), (5, 1, 1)):
        pieces = chunks(total, slots, most)
        assert pieces[0][0] == 0 and pieces[-1][1] == total
        assert all(a < b <= a + most for a, b in pieces)
        assert all(b == c for (_, b), (c, _) in pairwise(pieces))


def _slow_square(x: int) -> int:
    time.sleep(0.05 * (4 - x))  # the first tasks finish last
    return x * x


def _fail_on_two(x: int) -> int:
    if x == 2:
        raise ValueError(f"task {x} failed")
    return x


@pytest.mark.parametrize("jobs", [1, 2])
def test_results_come_in_task_order_with_progress(jobs: int) -> None:
    seen: list[int] = []
    with workers(jobs) as where:
        assert where.slots == jobs and where.local == (jobs == 1)
        assert where.describe() == ("1 process" if jobs == 1 else "2 processes")
        results = list(where.map(_slow_square, [(x,) for x in range(5)], seen.append, [1, 2, 3, 4, 5]))
    assert results == [0, 1, 4, 9, 16]
    assert sorted(seen) == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_task_error_is_raised_in_the_caller(jobs: int) -> None:
    with workers(jobs) as where, pytest.raises(ValueError, match="task 2 failed"):
        list(where.map(_fail_on_two, [(x,) for x in range(4)]))


def test_jobs_below_one_are_refused() -> None:
    with pytest.raises(ValueError, match="jobs must be at least 1, got 0"), workers(0):
        pass
