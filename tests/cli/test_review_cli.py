"""``ghostparty review``: a record in, the review out (rich text or JSON)."""

from __future__ import annotations

import json
from pathlib import Path
from random import Random

from click.testing import CliRunner

from ghostparty.cli.main import cli
from ghostparty.cli.review import sparkline
from ghostparty.rules import OVER, ROLL, GameRecord, apply, legal_actions, ruleset, sample_roll, start_position


def random_record(rules: str, players: int, seed: int) -> GameRecord:
    """A game of random legal choices and the real die."""
    rng = Random(seed)
    position = start = start_position(ruleset(rules), players)
    actions = []
    while position.phase != OVER:
        action = sample_roll(rng) if position.phase == ROLL else rng.choice(legal_actions(position))
        actions.append(action)
        position = apply(position, action)
    return GameRecord(start=start, actions=tuple(actions), seed=seed)


def _game(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(random_record("hugo", 2, 5).to_dict()), encoding="utf-8")
    return path


def test_json_output_is_the_review(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["review", str(_game(tmp_path)), "--json", "--depth", "1", "--horizon", "0"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert data["format"] == "ghostparty-review/1" and data["players"] == 2
    assert {"accuracy", "pr", "marks", "luck", "luck_adjusted"} <= set(data["players_review"][0])


def test_text_output_names_players_marks_and_luck(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["review", str(_game(tmp_path)), "--depth", "1", "--horizon", "0"])
    assert result.exit_code == 0, result.output
    assert "red" in result.output and "blue" in result.output
    assert "best was" in result.output and "dice:" in result.output


def test_the_terminal_table_adds_up_from_the_start_to_the_result(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["review", str(_game(tmp_path)), "--depth", "1", "--horizon", "0"], terminal_width=120
    )
    assert result.exit_code == 0, result.output
    rows: dict[str, list[float]] = {}
    for line in result.output.splitlines():
        cells = [cell.strip() for cell in line.strip("│┃ ").split("│")]
        if len(cells) == 3 and cells[0].lstrip("+= ") in ROWS:
            rows[cells[0]] = [float(cell) for cell in cells[1:]]
    assert set(rows) == set(ROWS_SHOWN), result.output
    for seat in range(2):
        average = rows["start"][seat] + rows["+ own decisions"][seat] + rows["+ the others' decisions"][seat]
        assert abs(average - rows["= with average dice"][seat]) <= 0.15
        end = average + sum(rows[name][seat] for name in ROWS_SHOWN[4:7])
        assert abs(end - rows["= result"][seat]) <= 0.25


ROWS_SHOWN = (
    "start",
    "+ own decisions",
    "+ the others' decisions",
    "= with average dice",
    "+ own rolls' luck",
    "+ the others' rolls' luck",
    "+ the analysis's drift",
    "= result",
)
ROWS = {name.lstrip("+= ") for name in ROWS_SHOWN}


def test_a_record_that_does_not_replay_is_refused_with_the_reason(tmp_path: Path) -> None:
    data = random_record("hugo", 2, 5).to_dict()
    data["actions"][3] = {"place": "G999"}
    del data["final"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(cli, ["review", str(path)])
    assert result.exit_code != 0
    assert "not a game record that replays" in result.output


def test_sparkline_spans_the_blocks() -> None:
    assert sparkline([0.0, 0.5, 1.0]) == "▁▅█"
    assert len(sparkline([i / 99 for i in range(100)], width=20)) == 20


def test_bench_review_reports_cpu_seconds_per_game() -> None:
    args = ["bench", "--review", "--games", "1", "--rules", "midnight-party", "--players", "2", "--json"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.stdout[result.stdout.index("[") :])
    assert row["rules"] == "midnight-party" and row["players"] == 2 and row["games"] == 1
    assert row["median_cpu_seconds"] > 0 and row["cpu_ms_per_action"] > 0 and row["mean_actions"] > 10
    assert row["serving_ms_per_action"] == 0.28  # the documented figure (docs/performance.md)
    assert row["review_per_serving"] == round(row["cpu_ms_per_action"] / 0.28, 1)


def test_bench_review_sets_the_review_beside_a_given_serving_cost() -> None:
    args = ["bench", "--review", "--games", "1", "--rules", "hugo", "--players", "2", "--serving-ms", "0.5"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "serving: 0.5 ms of server CPU an action (--serving-ms)" in result.output
    refused = CliRunner().invoke(cli, [*args[:-1], "0"])
    assert refused.exit_code != 0 and "--serving-ms" in refused.output


def test_bench_review_deep_reports_both_judges_on_the_same_games() -> None:
    args = ["bench", "--review", "--deep", "--games", "1", "--rules", "midnight-party", "--players", "4", "--json"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    fast, deep = json.loads(result.stdout[result.stdout.index("[") :])
    assert (fast["judge"], deep["judge"]) == ("fast", "deep")
    assert fast["mean_actions"] == deep["mean_actions"]
    assert deep["cpu_ms_per_action"] > fast["cpu_ms_per_action"] > 0
    assert deep["review_per_serving"] == round(deep["cpu_ms_per_action"] / 0.28, 1)
    refused = CliRunner().invoke(cli, ["bench", "--deep"])
    assert refused.exit_code != 0 and "give --review too" in refused.output


def test_bench_review_refuses_bots_and_interfaces() -> None:
    result = CliRunner().invoke(cli, ["bench", "--review", "--bots", "greedy"])
    assert result.exit_code != 0 and "--review times the game review" in result.output


def test_deep_judges_the_decisions_by_rollouts_and_says_so(tmp_path: Path) -> None:
    game = str(_game(tmp_path))
    cheap = ["--depth", "1", "--horizon", "0", "--deep", "--rollouts", "2"]
    result = CliRunner().invoke(cli, ["review", game, "--json", *cheap])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert data["judge"] == "deep" and data["settings"]["deep"]["rollouts"] == 2
    assert any(step.get("rollouts") == 2 for step in data["steps"])
    text = CliRunner().invoke(cli, ["review", game, *cheap], terminal_width=120)
    assert text.exit_code == 0 and "judged by the deep analysis: 2 rollouts" in text.output
    folder = tmp_path / "many"
    folder.mkdir()
    for n in range(2):
        (folder / f"g{n}.json").write_text(json.dumps(random_record("hugo", 2, n).to_dict()), encoding="utf-8")
    batch = CliRunner().invoke(cli, ["review", str(folder), "--json", "--jobs", "1", *cheap])
    assert batch.exit_code == 0, batch.output
    lines = [json.loads(line) for line in batch.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == 2 and all(line["judge"] == "deep" for line in lines)


def test_rollouts_without_deep_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["review", str(_game(tmp_path)), "--rollouts", "4"])
    assert result.exit_code == 2 and "--deep" in result.output
