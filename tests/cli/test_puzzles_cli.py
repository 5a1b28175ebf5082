"""``ghostparty puzzles mine``: bot games or a folder of records, JSON and CSV out, a summary."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from click.testing import CliRunner

from ghostparty.analysis.puzzle_runs import CSV_COLUMNS, puzzles_from_dict
from ghostparty.analysis.review.timing import bot_game
from ghostparty.cli.main import cli

FAST = ["--rollouts", "6", "--cut", "1", "--jobs", "1", "--no-progress"]


def test_mines_fresh_bot_games(tmp_path: Path) -> None:
    out, table = tmp_path / "puzzles.json", tmp_path / "puzzles.csv"
    args = ["puzzles", "mine", "--games", "2", "--rules", "hugo", "--players", "2", "--bots", "learned,greedy"]
    result = CliRunner().invoke(cli, [*args, "--seed", "4", "--out", str(out), "--csv", str(table), *FAST])
    assert result.exit_code == 0, result.output
    assert "games read 2" in result.output and "confirmed puzzles" in result.output and "certified" in result.output
    found = puzzles_from_dict(json.loads(out.read_text(encoding="utf-8")))
    with table.open(encoding="utf-8", newline="") as file:
        rows = list(csv.DictReader(file))
    assert [row["id"] for row in rows] == [puzzle.id for puzzle in found]
    assert rows == [] or list(rows[0]) == list(CSV_COLUMNS)
    assert f"wrote {len(found)} puzzle" in result.output


def test_mines_a_folder_and_skips_what_is_no_record(tmp_path: Path) -> None:
    (tmp_path / "games" / "old").mkdir(parents=True)
    record = bot_game("hugo", 2, "learned", 1)
    (tmp_path / "games" / "old" / "one.json").write_text(json.dumps(record.to_dict()), encoding="utf-8")
    (tmp_path / "games" / "two.json").write_text(json.dumps(record.to_dict()), encoding="utf-8")
    (tmp_path / "games" / "notes.json").write_text('{"hello": 1}', encoding="utf-8")
    out = tmp_path / "puzzles.json"
    result = CliRunner().invoke(cli, ["puzzles", "mine", str(tmp_path / "games"), "--out", str(out), *FAST])
    assert result.exit_code == 0, result.output
    assert "skipped" in result.output and "notes.json" in result.output
    assert "games read 2" in result.output
    found = puzzles_from_dict(json.loads(out.read_text(encoding="utf-8")))
    assert found and all(puzzle.seed == 1 for puzzle in found)
    # The same game twice: each position once.
    assert len({puzzle.id for puzzle in found}) == len(found)
    assert f"{len(found)} repeated a position and were dropped" in result.output


def test_refuses_bad_settings(tmp_path: Path) -> None:
    out = str(tmp_path / "p.json")
    assert CliRunner().invoke(cli, ["puzzles", "mine", "--out", out, "--margin", "0"]).exit_code == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    result = CliRunner().invoke(cli, ["puzzles", "mine", str(empty), "--out", out])
    assert result.exit_code == 2 and "no *.json files" in result.output
