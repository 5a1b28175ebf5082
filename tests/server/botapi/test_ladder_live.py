"""The bot ladder on a live server: three bots (two house bots and a bot account played
by ``ghostparty connect``'s client) play duplicate deals to the end, every deal from
every seat with the same dice, and the standings carry intervals; people can't join;
impossible ladders are refused; a bot that doesn't answer in time loses its turn to the
timer (no time bank)."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import httpx2 as httpx
import pytest
from click.testing import CliRunner

from ghostparty.cli.main import cli
from tests.fixtures.botapi import account, bot_account
from tests.fixtures.ladder import CLOCK, join, make_ladder, rolls, wait_until_over
from tests.fixtures.serving import serving


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from ghostparty.server.app import create_app

    database = tmp_path_factory.mktemp("ladder") / "games.db"
    app = create_app(
        f"sqlite:///{database}", bot_delay=0.0, seed=27, tables_per_minute=1000, clock=CLOCK, tournament_every=0.2
    )
    with serving(app) as port:
        yield f"http://127.0.0.1:{port}"


def test_a_ladder_of_three_bots_plays_duplicate_deals_to_standings_with_intervals(base: str) -> None:
    ladder = make_ladder(base, "Organiser")
    guest = httpx.post(f"{base}/api/tournaments/{ladder}/join", json={"name": "Gus"}, timeout=30)
    assert guest.status_code == 403 and guest.json()["error"]["code"] == "bots_only"
    token = bot_account(base, "Laddie", scopes=("bot:play", "play"))
    # ghostparty connect --ladder: enters, plays every game to the ladder's end, prints the standings
    command = ["connect", "--server", base, "--token", token, "--bot", "random", "--seed", "3", "--ladder", ladder]
    ran: dict[str, Any] = {}
    thread = threading.Thread(target=lambda: ran.update(result=CliRunner().invoke(cli, command)), daemon=True)
    thread.start()
    until = time.monotonic() + 30
    while httpx.get(f"{base}/api/tournaments/{ladder}", timeout=30).json()["entrants"] < 1:
        assert time.monotonic() < until and thread.is_alive(), ran
        time.sleep(0.1)
    CLOCK.offset += timedelta(minutes=1, seconds=1)  # the ladder's start
    thread.join(timeout=120)
    result = ran["result"]
    assert result.exit_code == 0, (result.output, result.exception)
    print(result.output)
    state = httpx.get(f"{base}/api/tournaments/{ladder}", timeout=30).json()
    assert state["tournament"]["status"] == "finished", state["tournament"]
    standings = state["standings"]
    printed = [line for line in result.output.splitlines() if "Laddie" in line or "House" in line]
    assert len(printed) == 3 and "duplicate deals" in result.output
    for line in standings:
        row = next(p for p in printed if line["name"] in p)
        assert f"{line['score_value']:+.3f}" in row and f"[{line['ci_low']:+.3f}, {line['ci_high']:+.3f}]" in row
    assert sorted(s["name"] for s in standings) == ["House greedy", "House random", "Laddie"]
    assert [s["level"] for s in standings if s["house"]] != [] and all(s["deals"] == 2 for s in standings)
    for line in standings:
        assert line["games"] == 6 and line["ci_method"] == "normal approx. over duplicate deals"
        assert line["ci_low"] <= line["score_value"] <= line["ci_high"]
    # duplicate scores are against each deal's mean: over a group they sum to zero
    assert abs(sum(s["score_value"] for s in standings)) < 1e-3
    assert state["podium"] == [
        {"place": 1, "name": "Laddie", "score": standings[[s["name"] for s in standings].index("Laddie")]["score"]}
    ]
    games = state["games"]
    assert len(games) == 6 and all(g["finished"] for g in games)
    sequences = []
    for deal in (1, 2):
        tables = sorted((g for g in games if g["round"] == deal), key=lambda g: g["rotation"])
        assert [g["rotation"] for g in tables] == [0, 1, 2]
        # every bot in every seat of the deal once
        for seat in range(3):
            assert sorted(g["seats"][seat] for g in tables) == sorted(s["name"] for s in standings)
        dice = [rolls(base, g["table"]) for g in tables]
        shortest = min(len(d) for d in dice)
        assert shortest >= 5
        assert all(d[:shortest] == dice[0][:shortest] for d in dice), dice  # the same rolls in each rotation
        sequences.append(dice[0][:shortest])
    assert sequences[0] != sequences[1]  # two deals, two sequences
    csv = httpx.get(f"{base}/api/tournaments/{ladder}/results.csv", timeout=30).text
    assert csv.splitlines()[0] == "rank,name,score,ci_low,ci_high,deals,games,points,house,active"


@pytest.fixture(scope="module")
def planner(base: str) -> Iterator[tuple[httpx.Client, str]]:
    """One person's logged-in client and CSRF token (an address makes 10 accounts an hour)."""
    client, csrf = account(base, "Planner")
    with contextlib.closing(client):
        yield client, csrf


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"house": ["greedy", "chess-engine"]}, "house: expected different levels"),
        ({"house": ["greedy", "greedy"]}, "house: expected different levels"),
        ({"turn_seconds": 120}, "time per decision is 5 to 60"),
        ({"rounds": 0}, "a ladder needs rounds"),
        ({"rounds": None, "minutes": 30}, "a ladder needs rounds"),
        ({"bots": True}, "no bot fill"),
        ({"kind": "arena", "rounds": None, "minutes": 30}, "only a ladder has house bots"),
    ],
)
def test_impossible_ladders_are_refused(
    base: str, planner: tuple[httpx.Client, str], settings: dict[str, Any], words: str
) -> None:
    body = {
        "kind": "ladder",
        "rules": "hugo",
        "table_size": 3,
        "starts": (CLOCK() + timedelta(minutes=5)).isoformat(),
        "rounds": 2,
        "turn_seconds": 5,
        "house": ["random"],
        **settings,
    }
    refused = httpx.post(f"{base}/api/tournaments", json=body, timeout=30)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "registered_only"
    client, csrf = planner
    refused = client.post("/api/tournaments", json=body, headers={"X-CSRF-Token": csrf})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_request", refused.text
    assert words in refused.json()["error"]["message"]


def test_a_slow_bot_loses_its_turn_to_the_timer_and_no_bank(base: str) -> None:
    ladder = make_ladder(base, "Timekeeper", rounds=1, house=["random", "greedy"])
    token = bot_account(base, "Sleeper", scopes=("bot:play", "play"))
    join(base, ladder, token)  # and never plays
    until = time.monotonic() + 30
    first: dict[str, Any] | None = None
    while first is None and time.monotonic() < until:
        state = httpx.get(f"{base}/api/tournaments/{ladder}", timeout=30).json()
        for g in state["games"]:
            if g["seats"][0] == "Sleeper":
                first = httpx.get(f"{base}/api/tables/{g['table']}", timeout=30).json()["table"]
        time.sleep(0.2)
    assert first is not None, "the ladder's tables were not made"
    # seat 0 starts a ladder table; no time bank: the deadline is the decision's own 5 s
    assert first["to_move"] == 0 and first["time_bank"] is None and first["seats"][0]["bank"] is None
    deadline = datetime.fromisoformat(first["deadline"].replace("Z", "+00:00"))
    updated = datetime.fromisoformat(first["updated"].replace("Z", "+00:00"))
    assert deadline - updated == timedelta(seconds=5)

    def later() -> None:
        CLOCK.offset += timedelta(seconds=6)

    state = wait_until_over(base, ladder, 90, tick=later)
    assert state["tournament"]["status"] == "finished"
    sleeper = next(s for s in state["standings"] if s["name"] == "Sleeper")
    # the table's bot played its seats; away at the end and never back, it scored nothing
    assert sleeper["points"] == 0 and sleeper["rank"] == 3 and sleeper["ci_low"] is None
    table = httpx.get(f"{base}/api/tables/{first['id']}", timeout=30).json()["table"]
    assert table["status"] == "over" and table["seats"][0]["away"] is True
