"""Deep analysis (truncated rollouts with common random numbers) and the ``deep`` bot."""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ghostparty.analysis.deep as deep
from ghostparty.analysis.deep import DeepBot, analyze, rollout, win_chances
from ghostparty.analysis.review.solver import shares
from ghostparty.bots import LearnedBot, bot_names, make_bot
from ghostparty.rules import HUGO, MOVE, OVER, PLACE, ROLL, Action, Move, Pass, Position, Roll, apply, legal_actions
from ghostparty.rules.actions import DIE_FACES
from ghostparty.sim.tournament import play_game
from tests.bots import situations
from tests.bots.test_bots import position
from tests.rules.builders import playout

# Small budgets: the folder must stay fast on a loaded 2-core machine.
CHEAP = "deep:rollouts=3,cut=2,width=2"


@cache
def moves(rules: str, players: int, seed: int) -> tuple[Position, ...]:
    """Decisions with at least three legal moves from one seeded random game."""
    game = playout(rules, players, seed)
    return tuple(p for p in game.positions if p.phase == MOVE and len(legal_actions(p)) >= 3)


def spy_rolls(monkeypatch: pytest.MonkeyPatch) -> list[Roll]:
    """Every roll the rollouts apply, in order."""
    seen: list[Roll] = []
    real = deep.apply

    def recording(p: Position, action: Action) -> Position:
        if isinstance(action, Roll):
            seen.append(action)
        return real(p, action)

    monkeypatch.setattr(deep, "apply", recording)
    return seen


def test_every_candidate_of_a_rollout_gets_the_same_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Common random numbers: rollout ``i`` rolls the same faces after every candidate."""
    p = moves("hugo", 2, 5)[10]
    seen = spy_rolls(monkeypatch)
    per_call: list[list[Roll]] = []
    real = deep.rollout

    def recording(*args: object, **kwargs: object) -> Position:
        start = len(seen)
        end = real(*args, **kwargs)  # type: ignore[arg-type]
        per_call.append(seen[start:])
        return end

    monkeypatch.setattr(deep, "rollout", recording)
    result = analyze(p, rollouts=4, cut=3, width=3, seed=9)
    assert len(result.options) == 3 and len(per_call) == 4 * 3
    for i in range(4):
        candidates = per_call[3 * i : 3 * i + 3]
        assert all(len(rolls) == 3 for rolls in candidates)  # mid-game: the cut, not the end
        assert candidates[0] == candidates[1] == candidates[2]
    assert len({tuple(rolls) for rolls in per_call}) > 1  # rollouts differ from each other


def test_the_first_roll_is_stratified_and_the_rest_stay_in_place(monkeypatch: pytest.MonkeyPatch) -> None:
    faces = deep._first_faces(14, seed=3)
    for block in (faces[:6], faces[6:12]):
        assert sorted(map(str, block)) == sorted(map(str, DIE_FACES))
    assert deep._first_faces(14, seed=3) == faces and deep._first_faces(14, seed=4) != faces
    p = apply(moves("hugo", 2, 5)[10], legal_actions(moves("hugo", 2, 5)[10])[0])
    seen = spy_rolls(monkeypatch)
    rollout(p, LearnedBot(), 4, random.Random("d"), random.Random("c"))
    plain = list(seen)
    seen.clear()
    forced = Roll(5) if plain[0] != Roll(5) else Roll(1)
    rollout(p, LearnedBot(), 4, random.Random("d"), random.Random("c"), first=forced)
    assert seen[0] == forced
    if plain[0] != Roll(HUGO) and forced != Roll(HUGO):
        assert seen[1:] == plain[1:]  # same turn structure: the later rolls are unchanged


def test_the_same_seed_gives_the_same_analysis() -> None:
    p = moves("midnight-party", 3, 2)[4]
    first = analyze(p, rollouts=6, cut=2, seed=11)
    assert analyze(p, rollouts=6, cut=2, seed=11) == first
    assert analyze(p, rollouts=6, cut=2, seed=12).options != first.options
    best = first.best
    assert best.win == max(o.win for o in first.options)
    for option in first.options:
        assert len(option.samples) == 6 and 0.0 <= option.win <= 1.0 and option.se >= 0.0
        diff, se = first.difference(option, best)
        assert diff == pytest.approx(option.win - best.win) and se >= 0.0
    assert len(first.options) + len(first.pruned) == len(legal_actions(p))


def test_a_forced_move_is_not_rolled_out(monkeypatch: pytest.MonkeyPatch) -> None:
    forced = next(
        p
        for seed in range(20)
        for p in playout("midnight-party", 2, seed).positions
        if p.phase == MOVE and len(legal_actions(p)) == 1
    )

    def no_rollouts(*args: object, **kwargs: object) -> Position:
        raise AssertionError("a forced move was rolled out")

    monkeypatch.setattr(deep, "rollout", no_rollouts)
    result = analyze(forced, rollouts=6)
    assert [o.action for o in result.options] == legal_actions(forced) and result.rollouts == 0
    assert DeepBot().choose(forced, random.Random(0)) == legal_actions(forced)[0]


def test_a_game_that_ends_before_the_cut_counts_its_exact_result() -> None:
    game = playout("hugo", 2, 3)
    last_roll = max(i for i, p in enumerate(game.positions) if p.phase == ROLL)
    before, after = game.positions[last_roll], game.positions[last_roll + 1]
    assert after.phase == OVER
    roll = next(r for r in DIE_FACES if apply(before, r) == after)
    end = rollout(before, LearnedBot(), 6, random.Random(1), random.Random(2), first=roll)
    assert end == after
    assert win_chances(end) == shares(after) and sum(win_chances(end)) == pytest.approx(1.0)


def test_the_cut_stops_before_the_next_roll() -> None:
    p = apply(moves("hugo", 2, 5)[10], legal_actions(moves("hugo", 2, 5)[10])[0])
    assert rollout(p, LearnedBot(), 0, random.Random(1), random.Random(2)) == p
    end = rollout(p, LearnedBot(), 3, random.Random(1), random.Random(2))
    assert end.phase in (ROLL, OVER)
    assert 0.0 < win_chances(end)[0] < 1.0 or end.phase == OVER


@pytest.mark.parametrize(
    ("make", "wanted"),
    [
        (situations.capture_to_avoid, Move("G24", "G26")),
        (situations.only_safe_room, Move("G6", "R:chapel")),
        (situations.mp_pass, Pass()),
    ],
)
def test_finds_the_hand_worked_answers(make: object, wanted: Action) -> None:
    p = position(make())  # type: ignore[operator]
    assert make_bot("deep:rollouts=12,cut=3,width=none").choose(p, random.Random(0)) == wanted


def test_deep_is_the_strongest_registered_level() -> None:
    assert bot_names()[-1] == "deep"
    bot = make_bot("deep:rollouts=12,cut=4,width=none,policy=greedy")
    assert isinstance(bot, DeepBot)
    assert (bot.rollouts, bot.cut, bot.width, bot.policy.name) == (12, 4, None, "greedy")
    top = make_bot("deep")
    assert isinstance(top, DeepBot) and (top.rollouts, top.cut, top.width, top.place) == (48, 6, None, 4)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("deep:rollouts=0", "rollouts must be a whole number of at least 1, got 0"),
        ("deep:rollouts=2.5", "rollouts must be a whole number of at least 1, got 2.5"),
        ("deep:cut=-1", "cut must be a whole number of rolls of at least 0, got -1"),
        ("deep:width=0", "width must be a whole number of at least 1 or none, got 0"),
        ("deep:policy=deep", "policy must be another bot's name, e.g. learned or greedy, got 'deep'"),
        ("deep:policy=nosuch", "unknown bot 'nosuch': expected one of"),
        ("deep:depth=3", "bad options for bot 'deep' in 'deep:depth=3'"),
        ("deep:rollouts", "bad bot option 'rollouts' in 'deep:rollouts': expected name=value"),
        ("deep:place=1", "place must be a whole number of squares of at least 2 or none, got 1"),
        ("deep:place=all", "place must be a whole number of squares of at least 2 or none, got 'all'"),
    ],
)
def test_bad_options_say_what_was_expected(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(".", r"\.")):
        make_bot(spec)


def test_analysis_judges_decisions_only() -> None:
    p = moves("hugo", 2, 5)[10]
    before = next(q for q in playout("hugo", 2, 5).positions if q.phase == ROLL)
    with pytest.raises(ValueError, match="judges a decision \\(phase 'move' or 'place'\\), not phase 'roll'"):
        analyze(before)
    assert analyze(p, rollouts=1, cut=0).options


def test_a_placement_is_rolled_out_through_the_rest_of_the_placement_phase(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every square of the round's last-but-one placement: the policy places the last guest,
    then ``cut`` rolls, the same dice after every square (RULES.md §2.2)."""
    game = playout("hugo", 2, 4)
    p = [q for q in game.positions if q.phase == PLACE][-2]
    seen = spy_rolls(monkeypatch)
    per_call: list[tuple[list[Roll], Position]] = []
    real = deep.rollout

    def recording(*args: object, **kwargs: object) -> Position:
        start = len(seen)
        end = real(*args, **kwargs)  # type: ignore[arg-type]
        per_call.append((seen[start:], end))
        return end

    monkeypatch.setattr(deep, "rollout", recording)
    result = analyze(p, rollouts=3, cut=2, width=None, seed=4)
    squares = len(legal_actions(p))
    assert len(result.options) == squares and not result.pruned and len(per_call) == 3 * squares
    for i in range(3):
        candidates = per_call[squares * i : squares * (i + 1)]
        assert all(rolls == candidates[0][0] and len(rolls) == 2 for rolls, _ in candidates)
        assert all(end.phase in (ROLL, OVER) and not end.place_queue for _, end in candidates)
    assert analyze(p, rollouts=3, cut=2, width=None, seed=4) == result


def test_remembered_placements_change_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The policy's placements kept across rollouts are the ones it would make again."""
    p = [q for q in playout("midnight-party", 2, 6).positions if q.phase == PLACE][7]
    kept = analyze(p, rollouts=3, cut=1, width=None, seed=2)
    real = deep._choose
    monkeypatch.setattr(deep, "_choose", lambda policy, position, choices, _: real(policy, position, choices, None))
    assert analyze(p, rollouts=3, cut=1, width=None, seed=2) == kept


@pytest.mark.parametrize("rules", ["hugo", "midnight-party"])
def test_with_place_the_bot_places_on_the_best_rolled_out_of_the_squares_learned_likes_best(rules: str) -> None:
    """``place=k``: the ``k`` squares ``learned`` ranks best, rolled out (RULES.md §2.2,
    §8.6); without it the bot places as ``learned`` and analyses nothing."""
    p = [q for q in playout(rules, 2, 3).positions if q.phase == PLACE][4]
    bot = make_bot("deep:rollouts=6,cut=2,place=3")
    assert isinstance(bot, DeepBot)
    chosen = bot.choose(p, random.Random(5))
    assert bot.last is not None and bot.last.position == p and bot.last.rollouts == 6
    liked = [action for _, action in deep.rank(p)[:3]]
    wins = [option.win for option in bot.last.options]
    assert {option.action for option in bot.last.options} == set(liked) and wins == sorted(wins, reverse=True)
    assert chosen == bot.last.best.action and chosen in liked
    plain = make_bot("deep:rollouts=6,cut=2,place=none")
    assert plain.choose(p, random.Random(5)) == LearnedBot().choose(p, random.Random(5))
    assert isinstance(plain, DeepBot) and plain.last is None


def test_a_placement_drawn_at_random_is_not_remembered() -> None:
    p = [q for q in playout("hugo", 2, 4).positions if q.phase == PLACE][5]
    memo: dict[Position, Action] = {}
    action = deep._choose(make_bot("random"), p, random.Random(1), memo)
    assert action in legal_actions(p) and memo == {}
    action = deep._choose(LearnedBot(), p, random.Random(1), memo)
    assert memo == {p: action} and deep._choose(LearnedBot(), p, random.Random(2), memo) == action


@settings(max_examples=6, deadline=None)
@given(
    rules=st.sampled_from(["hugo", "midnight-party"]),
    players=st.integers(min_value=2, max_value=8),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_plays_whole_games_legally(rules: str, players: int, seed: int) -> None:
    """Against random seats, with 2 to 8 players: the tournament's game loop rejects an
    illegal action, so a finished game is a legal one."""
    lineup = [CHEAP] + ["random"] * (players - 1)
    result = play_game(rules, lineup, seed)
    assert result.winners and result.decisions[0] > 0
