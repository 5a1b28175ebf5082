"""``ghostparty puzzles mine``: bot games, a folder of records or a server's database, JSON and CSV out, a summary."""

from __future__ import annotations

import csv
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from click.testing import CliRunner

from ghostparty.analysis.puzzle_runs import CSV_COLUMNS, puzzles_from_dict
from ghostparty.analysis.review.timing import bot_game
from ghostparty.cli.main import cli
from tests.fixtures.tables import finished_games

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


def test_mines_the_finished_games_of_a_servers_database(tmp_path: Path) -> None:
    """A SQLite store with three finished games (and one under way): their puzzles name
    the table and the decision they come from, which is the position the table's record
    reaches there; --limit takes the games that ended last, --since those of the last days."""
    from sqlalchemy import update

    from ghostparty.rules import GameRecord
    from ghostparty.server.infra.database import Database
    from ghostparty.server.infra.db import tables
    from ghostparty.server.tables.finished import finished_ids, finished_records
    from tests.fixtures.tables import HUMAN, bot, run, service

    path = tmp_path / "games.db"
    games = finished_games(f"sqlite:///{path}", 3)

    async def under_way() -> None:
        svc = service(f"sqlite:///{path}")
        table_id = str((await svc.create_table("hugo", [HUMAN, bot("greedy")], 0))["id"])
        token, _ = await svc.join(table_id, 0, "Bea")
        await svc.start(table_id, 0, token)
        await svc.close()
        svc.store.close()

    run(under_way)
    out = tmp_path / "puzzles.json"
    result = CliRunner().invoke(cli, ["puzzles", "mine", "--database", str(path), "--out", str(out), *FAST])
    assert result.exit_code == 0, result.output
    assert "games read 3" in result.output
    found = puzzles_from_dict(json.loads(out.read_text(encoding="utf-8")))
    assert found and {puzzle.game for puzzle in found} <= set(games)
    store = Database.open(f"sqlite:///{path}")
    try:
        records = {game: GameRecord.from_dict(record) for game, record in finished_records(store.engine, games)}
        assert set(records) == set(games) and all(record.seed is None for record in records.values())
        for puzzle in found:
            assert puzzle.game is not None and puzzle.seed is None
            assert records[puzzle.game].replay()[puzzle.index] == puzzle.position
        ended = [datetime(2020, 1, 1, tzinfo=UTC), datetime.now(UTC) - timedelta(hours=2), datetime.now(UTC)]
        with store.engine.begin() as conn:  # the first game ended long ago, the others lately, in turn
            for game, when in zip(games, ended, strict=True):
                conn.execute(update(tables).where(tables.c.id == game).values(updated=when))
        assert finished_ids(store.engine, limit=2) == games[1:]
        assert finished_ids(store.engine, since=ended[1]) == games[1:] and finished_ids(store.engine) == games
    finally:
        store.close()
    url = f"sqlite:///{path}"
    for args, read in ((["--limit", "1"], 1), (["--since", "30"], 2)):
        again = CliRunner().invoke(cli, ["puzzles", "mine", "--database", url, *args, "--out", str(out), *FAST])
        assert again.exit_code == 0 and f"games read {read}" in again.output, again.output


def test_refuses_a_database_with_a_folder_or_none_to_read(tmp_path: Path) -> None:
    out = str(tmp_path / "p.json")
    both = CliRunner().invoke(cli, ["puzzles", "mine", str(tmp_path), "--database", "sqlite:///x.db", "--out", out])
    assert both.exit_code == 2 and "FOLDER and --database: give one" in both.output
    alone = CliRunner().invoke(cli, ["puzzles", "mine", "--limit", "3", "--out", out])
    assert alone.exit_code == 2 and "give --database too" in alone.output
    missing = CliRunner().invoke(cli, ["puzzles", "mine", "--database", str(tmp_path / "none.db"), "--out", out])
    assert missing.exit_code == 2 and "no such SQLite file" in missing.output
    empty = tmp_path / "empty.db"
    finished_games(f"sqlite:///{empty}", 0)
    nothing = CliRunner().invoke(cli, ["puzzles", "mine", "--database", str(empty), "--out", out])
    assert nothing.exit_code == 2 and "no finished games" in nothing.output
