"""Mining puzzles from games (analysis/puzzles.py): the answer is the review's best by the
margin and survives the deep analysis, forced moves never count, puzzles read back from
JSON and bad JSON is refused with a clear error, and the same game mines the same puzzles."""

from __future__ import annotations

import dataclasses
import json
from types import SimpleNamespace
from typing import Any

import pytest

from ghostparty.analysis import deep as deep_analysis
from ghostparty.analysis.explore import explore
from ghostparty.analysis.puzzle_runs import (
    csv_row,
    lineup,
    mine_bot_game,
    mine_game_record,
    mine_record,
    puzzles_from_dict,
    puzzles_to_dict,
)
from ghostparty.analysis.puzzles import (
    Mined,
    Puzzle,
    PuzzleError,
    _certified,
    _deep_agrees,
    mine,
    mine_game,
    puzzle_id,
)
from ghostparty.analysis.review.evaluator import Value
from ghostparty.analysis.review.solver import Bounds
from ghostparty.analysis.review.timing import bot_game
from ghostparty.rules import MOVE, PLACE, GameRecord, Place, legal_actions, position_from_dict
from tests.analysis.positions import ballroom_placement

#: Small rollouts keep the tests fast.
FAST = {"rollouts": 12, "cut": 2}
GAMES = [("hugo", 2, 1), ("midnight-party", 4, 1)]


@pytest.fixture(scope="module")
def mined() -> list[tuple[GameRecord, Mined]]:
    records = [bot_game(rules, players, "learned", seed) for rules, players, seed in GAMES]
    return [(record, mine_game(record, seed=3, **FAST)) for record in records]


def test_every_puzzle_is_the_reviews_best_by_the_margin(mined: list[tuple[GameRecord, Mined]]) -> None:
    assert sum(len(m.puzzles) for _, m in mined) >= 3
    for record, found in mined:
        positions = record.replay()
        assert 0 < len(found.puzzles) <= found.candidates <= found.decisions
        for puzzle in found.puzzles:
            assert puzzle.position == positions[puzzle.index] and puzzle.seed == record.seed
            options = explore(puzzle.position).options
            assert options[0].action == puzzle.answer.action
            assert options[0].win - options[1].win >= 0.10 and puzzle.margin >= 0.10
            assert [c.action for c in puzzle.alternatives] == [o.action for o in options[1:]]
            # Moves and placements alike: the deep look's figures for the answer beat each alternative's.
            assert puzzle.confirmed == "deep" and puzzle.answer.deep is not None
            assert all(c.deep is not None and c.deep[0] < puzzle.answer.deep[0] for c in puzzle.alternatives)
            assert ("placement" in puzzle.themes) == (puzzle.position.phase == PLACE)
            assert puzzle.reason["en"] and puzzle.reason["de"] and puzzle.reason["en"] != puzzle.reason["de"]


def test_a_forced_move_is_never_a_decision(mined: list[tuple[GameRecord, Mined]]) -> None:
    record = bot_game("hugo", 4, "learned", 2)
    # From the first roll on (placements are rolled out too, and cost far more at this margin).
    first = next(i for i, p in enumerate(record.replay()) if p.phase != PLACE)
    short = GameRecord(record.replay()[first], record.actions[first : first + 45], record.seed)
    positions = short.replay()[:-1]
    choices = [p for p in positions if p.phase in (MOVE, PLACE) and len(legal_actions(p)) >= 2]
    forced = [i for i, p in enumerate(positions) if p.phase == MOVE and len(legal_actions(p)) == 1]
    found = mine_game(short, margin=0.001, rollouts=4, cut=1)
    assert found.decisions == len(choices)
    assert not {puzzle.index for puzzle in found.puzzles} & set(forced)
    for _, m in mined:
        assert all(len(legal_actions(p.position)) >= 2 for p in m.puzzles)


def test_the_deep_analysis_must_agree_with_95_percent_confidence() -> None:
    record = bot_game("hugo", 2, "learned", 1)
    position = next(p for p in record.replay() if p.phase == MOVE and len(legal_actions(p)) >= 3)
    looked = deep_analysis.analyze(position, rollouts=12, cut=2, width=None, seed=0)
    best = looked.best
    sure = all(d - 1.96 * se > 0 for d, se in (looked.difference(best, o) for o in looked.options[1:]))
    assert _deep_agrees(looked, best.action) == sure
    assert not _deep_agrees(looked, looked.options[1].action)


def test_a_clearly_best_placement_is_confirmed_by_its_rollouts() -> None:
    """G25 adds the one face seat 0 lacks to end the round before Hugo sweeps its guests
    (tests/analysis/positions.py): every other square is worse by the paired rollouts."""
    position = position_from_dict(ballroom_placement())
    record = GameRecord(position, (Place("G25"),), None)
    found = mine_game(record, margin=0.01, rollouts=36, cut=3, seed=0)
    assert (found.decisions, found.candidates) == (1, 1)
    [puzzle] = found.puzzles
    assert puzzle.answer.action == Place("G25") and puzzle.confirmed == "deep" and "placement" in puzzle.themes
    assert len(puzzle.alternatives) == len(legal_actions(position)) - 1
    assert puzzle.answer.deep is not None
    assert all(c.deep is not None and c.deep[0] < puzzle.answer.deep[0] for c in puzzle.alternatives)
    assert Puzzle.from_dict(json.loads(json.dumps(puzzle.to_dict()))) == puzzle


def test_equal_placements_are_not_confirmed() -> None:
    """Every face already covered: the square placed on changes (next to) nothing, and the
    same seed gives the same analysis."""
    position = position_from_dict(ballroom_placement(covered=True))
    looked = deep_analysis.analyze(position, rollouts=12, cut=6, width=None, seed=0)
    assert looked == deep_analysis.analyze(position, rollouts=12, cut=6, width=None, seed=0)
    assert looked.options != deep_analysis.analyze(position, rollouts=12, cut=6, width=None, seed=1).options
    assert len(looked.options) == len(legal_actions(position)) and not looked.pruned
    assert not _deep_agrees(looked, looked.best.action)
    assert min(looked.difference(looked.best, other)[0] for other in looked.options[1:]) < 0.001


def test_a_tie_in_every_rollout_is_never_confirmed() -> None:
    """Two actions with the same outcome in every rollout differ by 0 ± 0: not above 0."""
    position = position_from_dict(ballroom_placement(covered=True))
    a, b = legal_actions(position)[:2]
    samples = (0.2, 0.4, 0.3)
    options = (
        deep_analysis.ActionValue(a, 0.3, 0.05, 0.3, samples),
        deep_analysis.ActionValue(b, 0.3, 0.05, 0.3, samples),
    )
    looked = deep_analysis.DeepAnalysis(position, options, (), 3, 6)
    assert looked.difference(*options) == (0.0, 0.0)
    assert not _deep_agrees(looked, a)


def test_certified_when_the_bounds_prove_the_answer() -> None:
    position = bot_game("hugo", 2, "learned", 1).replay()[13]
    a, b = legal_actions(position)[:2]

    def value(low: float, high: float) -> Value:
        return Value((0.5, 0.5), (0.0, 0.0), Bounds((low, 1 - high), (high, 1 - low)))

    def evaluator(*pairs: tuple[Any, Value]) -> Any:
        return SimpleNamespace(actions=lambda _: list(pairs))

    assert _certified(evaluator((a, value(0.6, 0.8)), (b, value(0.1, 0.6))), position, a)
    assert not _certified(evaluator((a, value(0.6, 0.8)), (b, value(0.1, 0.61))), position, a)
    assert not _certified(evaluator((a, value(0.0, 1.0)), (b, value(0.0, 1.0))), position, a)


def test_json_round_trip_and_csv(mined: list[tuple[GameRecord, Mined]]) -> None:
    puzzles = [p for _, m in mined for p in m.puzzles]
    text = json.dumps(puzzles_to_dict(puzzles))
    assert puzzles_from_dict(json.loads(text)) == puzzles
    data = puzzles[0].to_dict()
    assert data["id"] == puzzle_id(puzzles[0].position) and len(data["id"]) == 12
    assert data["rules"] == puzzles[0].rules and data["players"] == puzzles[0].players
    row = csv_row(puzzles[0])
    assert row["id"] == data["id"] and row["margin"] == data["margin"] and json.loads(row["position"])


def test_a_puzzle_names_its_game_where_the_record_came_with_one(mined: list[tuple[GameRecord, Mined]]) -> None:
    record, _ = mined[0]
    named = mine_record(record, "a stored game", 0.10, FAST["rollouts"], FAST["cut"], 3, "f5b16522b791")
    plain = mine_record(record, "a file", 0.10, FAST["rollouts"], FAST["cut"], 3)
    assert named["puzzles"] and all(p["source"]["game"] == "f5b16522b791" for p in named["puzzles"])
    assert all("game" not in p["source"] for p in plain["puzzles"])  # a file of puzzles as before
    found = [Puzzle.from_dict(p) for p in named["puzzles"]]
    assert [dataclasses.replace(p, game=None).to_dict() for p in found] == plain["puzzles"]
    assert puzzles_from_dict(json.loads(json.dumps(puzzles_to_dict(found)))) == found
    assert csv_row(found[0])["game"] == "f5b16522b791" and csv_row(Puzzle.from_dict(plain["puzzles"][0]))["game"] == ""
    stored = mine_game_record("f5b16522b791", record.to_dict(), 0.10, FAST["rollouts"], FAST["cut"], 3)
    assert stored["puzzles"] == named["puzzles"] and stored["source"] == "game f5b16522b791"
    broken = mine_game_record("f5b16522b791", {"format": "nonsense"}, 0.10, FAST["rollouts"], FAST["cut"], 3)
    assert broken == {"source": "game f5b16522b791", "error": "missing field 'start'"}


def bad(puzzle: Puzzle, **changes: Any) -> dict[str, Any]:
    data = puzzle.to_dict()
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"id": "0" * 12}, "id: expected"),
        ({"rules": "midnight-party"}, "rules: the puzzle says"),
        ({"extra": 1}, "unknown field 'extra'"),
        ({"answer": {"action": {"from": "G0", "to": "G99"}, "win": 0.5, "deep": None}}, "answer and alternatives"),
        ({"answer": {"action": {"jump": 1}, "win": 0.5, "deep": None}}, "answer.action"),
        ({"alternatives": []}, "alternatives: expected a non-empty list"),
        ({"margin": 2}, "margin: expected"),
        ({"confirmed": "maybe"}, "confirmed: expected one of deep, got 'maybe'"),
        ({"confirmed": "deeper-search"}, "confirmed: expected one of deep, got 'deeper-search'"),
        ({"certified": "yes"}, "certified: expected true or false"),
        ({"themes": ["sings"]}, "themes: expected"),
        ({"reason": {"en": "x"}}, "reason: expected"),
        ({"source": {"seed": 1}}, "source: expected"),
        ({"source": {"seed": 1, "index": 0, "table": "x"}}, "source: expected"),
        ({"source": {"seed": None, "index": 0, "game": ""}}, "source.game: expected"),
        ({"source": {"seed": None, "index": 0, "game": 7}}, "source.game: expected"),
        ({"position": {"format": "hugo-position/1"}}, "position: "),
    ],
)
def test_bad_json_says_what_was_wrong(
    mined: list[tuple[GameRecord, Mined]], change: dict[str, Any], message: str
) -> None:
    puzzle = mined[0][1].puzzles[0]
    with pytest.raises(PuzzleError, match=message.replace("(", r"\(")):
        Puzzle.from_dict(bad(puzzle, **change))


def test_bad_files_and_missing_fields() -> None:
    with pytest.raises(PuzzleError, match="a puzzle must be a JSON object"):
        Puzzle.from_dict([])
    with pytest.raises(PuzzleError, match="missing field 'id'"):
        Puzzle.from_dict({})
    with pytest.raises(PuzzleError, match="ghostparty-puzzles/1"):
        puzzles_from_dict({"format": "x", "puzzles": []})
    with pytest.raises(PuzzleError, match="puzzle 0: a puzzle must be a JSON object"):
        puzzles_from_dict({"format": "ghostparty-puzzles/1", "puzzles": [1]})


def test_same_game_same_puzzles(mined: list[tuple[GameRecord, Mined]]) -> None:
    record, found = mined[1]
    again = mine(record, seed=3, **FAST)
    assert [p.to_dict() for p in again] == [p.to_dict() for p in found.puzzles]


def test_settings_are_checked() -> None:
    record = bot_game("hugo", 2, "learned", 1)
    with pytest.raises(ValueError, match="margin"):
        mine(record, margin=0)
    with pytest.raises(ValueError, match="rollouts"):
        mine(record, rollouts=0)


def test_bot_games_rotate_the_bots() -> None:
    assert lineup(["learned", "greedy"], 3, 0) == ("learned", "greedy", "learned")
    assert lineup(["learned", "greedy"], 3, 1) == ("greedy", "learned", "greedy")
    played = mine_bot_game("hugo", ("greedy", "greedy"), 5, 0.10, 4, 1)
    assert played["decisions"] >= played["candidates"] >= len(played["puzzles"])
    assert all(Puzzle.from_dict(item).seed == 5 for item in played["puzzles"])


def test_a_move_puzzle_names_its_roll(mined: list[tuple[GameRecord, Mined]]) -> None:
    puzzle = next(p for _, m in mined for p in m.puzzles if p.position.phase == MOVE)
    assert puzzle.to_dict()["roll"] == puzzle.position.roll in (1, 2, 4, 5)
    assert puzzle.answer.action in legal_actions(puzzle.position)
