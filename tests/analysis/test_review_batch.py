"""Many reviews at once (issue 23): records from files, and the bots' own games judged in
the unit of a person's review (``ghostparty analyze bots``)."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from ghostparty.analysis.review.batch import (
    SeatScore,
    bot_lineups,
    judge_bot_game,
    review_bot_game,
    review_file,
    standings,
)
from ghostparty.analysis.review.judge import PR_SCALE
from ghostparty.cli.main import cli

from .review_games import random_record

FAST = ["--depth", "1", "--horizon", "0"]


def test_every_level_plays_as_often_as_the_others_and_from_every_seat() -> None:
    levels = ("random", "greedy", "learned", "expectimax", "mcts")
    lineups = bot_lineups(levels, 4, 40, seed=3)
    games = Counter(level for lineup, _ in lineups for level in lineup)
    assert set(games.values()) == {32}  # 40 games × 4 seats / 5 levels
    seats = Counter((seat, level) for lineup, _ in lineups for seat, level in enumerate(lineup))
    assert set(seats.values()) == {8}
    assert all(len(set(lineup)) == 4 for lineup, _ in lineups)
    assert len({seed for _, seed in lineups}) == 40 and lineups == bot_lineups(levels, 4, 40, seed=3)
    with pytest.raises(ValueError, match="at least as many distinct levels"):
        bot_lineups(("random", "greedy"), 3, 1, seed=0)


def test_standings_pool_pr_over_decisions_and_average_accuracy_over_games() -> None:
    scores = [
        SeatScore("greedy", 0, 10, 0.2, 90.0, {"mistake": 1}),
        SeatScore("greedy", 1, 30, 0.0, 100.0, {}),
        SeatScore("random", 0, 20, 1.0, 60.0, {"blunder": 2, "mistake": 1}),
        SeatScore("random", 1, 0, 0.0, None, {}),  # no decision: left out
    ]
    greedy, random = standings(scores)
    assert (greedy.level, greedy.games, greedy.decisions) == ("greedy", 2, 40)
    assert greedy.pr == pytest.approx(PR_SCALE * 0.2 / 40) and greedy.accuracy == pytest.approx(95.0)
    assert greedy.marks_per_100 == {"mistake": pytest.approx(2.5)}
    assert 0 < greedy.pr_margin < math.inf and greedy.accuracy_margin == pytest.approx(1.96 * 5.0)
    assert (random.games, random.pr, random.pr_margin) == (1, PR_SCALE * 1.0 / 20, math.inf)


def test_a_bot_game_review_names_each_seats_level_and_reconciles_pr() -> None:
    seats = review_bot_game("midnight-party", ("random", "greedy"), seed=11, depth=1, horizon=0)
    assert [s.level for s in seats] == ["random", "greedy"] and [s.seat for s in seats] == [0, 1]
    assert all(s.decisions > 0 and 0 <= s.loss <= s.decisions for s in seats)
    assert seats == review_bot_game("midnight-party", ("random", "greedy"), seed=11, depth=1, horizon=0)


def test_review_file_says_what_is_wrong_with_a_bad_file(tmp_path: Path) -> None:
    (tmp_path / "text.json").write_text("not json", encoding="utf-8")
    (tmp_path / "other.json").write_text('{"format": "something-else"}', encoding="utf-8")
    assert "cannot read" in review_file(str(tmp_path / "missing.json"))["error"]
    assert review_file(str(tmp_path / "text.json"))["error"].startswith("not JSON")
    assert review_file(str(tmp_path / "other.json"))["error"].startswith("not a game record")


def test_review_of_a_folder_on_two_processes_one_line_a_game(tmp_path: Path) -> None:
    for seed in (1, 2):
        record = random_record("midnight-party", 2, seed).to_dict()
        (tmp_path / f"game{seed}.json").write_text(json.dumps(record), encoding="utf-8")
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a record", encoding="utf-8")
    result = CliRunner().invoke(cli, ["review", str(tmp_path), "--json", "--jobs", "2", *FAST])
    assert result.exit_code == 1, result.output  # one file was no record
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [Path(line["source"]).name for line in lines] == ["broken.json", "game1.json", "game2.json"]
    assert "error" in lines[0] and lines[1]["format"] == "ghostparty-review/1" and len(lines[2]["steps"]) > 0
    alone = CliRunner().invoke(cli, ["review", str(tmp_path / "game1.json"), "--json", *FAST])
    assert json.loads(alone.stdout)["steps"] == lines[1]["steps"]  # the same review either way
    table = CliRunner().invoke(cli, ["review", str(tmp_path / "game1.json"), str(tmp_path / "game2.json"), *FAST])
    assert table.exit_code == 0 and "2 of 2 games reviewed" in table.output


def test_review_refuses_what_is_no_file_and_jobs_for_one_file(tmp_path: Path) -> None:
    missing = CliRunner().invoke(cli, ["review", str(tmp_path / "a.json"), str(tmp_path / "b.json")])
    assert missing.exit_code == 2 and "no such file or folder" in missing.output
    one = random_record("hugo", 2, 1).to_dict()
    (tmp_path / "one.json").write_text(json.dumps(one), encoding="utf-8")
    jobs = CliRunner().invoke(cli, ["review", str(tmp_path / "one.json"), "--jobs", "2"])
    assert jobs.exit_code == 2 and "several files" in jobs.output
    gone = CliRunner().invoke(cli, ["review", str(tmp_path / "gone.json")])
    assert gone.exit_code == 1 and "cannot read" in gone.output


def test_analyze_bots_prints_each_levels_pr_and_accuracy() -> None:
    args = ["analyze", "bots", "--rules", "midnight-party", "--players", "2", "--levels", "random,greedy"]
    result = CliRunner().invoke(cli, [*args, "--games", "2", "--jobs", "1", "--json", *FAST])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {row["level"] for row in data["levels"]} == {"random", "greedy"}
    assert all(row["games"] == 2 and row["decisions"] > 0 for row in data["levels"])
    bad = CliRunner().invoke(cli, ["analyze", "bots", "--levels", "greedy,nobody"])
    assert bad.exit_code == 2 and "unknown bot 'nobody'" in bad.output
    too_many = CliRunner().invoke(cli, ["analyze", "bots", "--levels", "random,greedy", "--players", "3"])
    assert too_many.exit_code == 2 and "3 players need 3 different levels" in too_many.output


DEEP = ["--deep", "--rollouts", "2", "--cut", "1"]


def test_a_bot_game_judged_deep_too_keeps_the_fast_scores_and_is_seeded() -> None:
    args = ("midnight-party", ("random", "greedy"), 11, 1, 0)
    judged = judge_bot_game(*args, rollouts=2, cut=1)
    assert set(judged) == {"fast", "deep"} and judged["fast"] == review_bot_game(*args)
    assert [s.decisions for s in judged["deep"]] == [s.decisions for s in judged["fast"]]
    assert all(0 <= s.loss <= s.decisions for s in judged["deep"])
    assert judged == judge_bot_game(*args, rollouts=2, cut=1)
    assert set(judge_bot_game(*args)) == {"fast"}


def test_analyze_bots_deep_prints_both_judges_side_by_side_the_same_for_a_seed() -> None:
    args = ["analyze", "bots", "--rules", "midnight-party", "--players", "2", "--levels", "random,greedy,learned"]
    args += ["--games", "3", "--seed", "4", "--no-progress", *FAST, *DEEP]
    table = CliRunner().invoke(cli, [*args, "--jobs", "1"])
    assert table.exit_code == 0, table.output
    words = " ".join(table.output.split())
    assert "PR fast" in words and "PR deep" in words and "2 rollouts, cut 1" in words
    first = CliRunner().invoke(cli, [*args, "--jobs", "1", "--json"])
    again = CliRunner().invoke(cli, [*args, "--jobs", "2", "--json"])
    assert first.exit_code == 0 and json.loads(first.stdout) == json.loads(again.stdout)
    data = json.loads(first.stdout)
    assert (data["deep"]["rollouts"], data["deep"]["cut"]) == (2, 1)
    fast = {row["level"]: row for row in data["levels"]}
    assert {row["level"] for row in data["deep"]["levels"]} == set(fast) == {"random", "greedy", "learned"}
    assert all(row["decisions"] == fast[row["level"]]["decisions"] for row in data["deep"]["levels"])


def test_analyze_bots_takes_rollout_settings_only_with_deep() -> None:
    for extra in (["--rollouts", "2"], ["--cut", "1"]):
        result = CliRunner().invoke(cli, ["analyze", "bots", "--levels", "random,greedy", "--players", "2", *extra])
        assert result.exit_code == 2 and "add --deep" in result.output
    plain = CliRunner().invoke(
        cli, ["analyze", "bots", "--levels", "random,greedy", "--players", "2", "--games", "1", "--json", *FAST]
    )
    assert "deep" not in json.loads(plain.stdout)
