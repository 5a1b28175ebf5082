"""Nothing public leads from the open game data to a table or a name (docs/OPEN-DATA.md,
*What the files don't tell*).

Games are played by a player who is in the open data (ann), one who chose a pseudonym
(bob), guests (Gina twice, Hal) and all three at one table; then the data is exported
and a stranger walks every GET route of the app with no login, from the lobby's lists
and the leaderboards through every table, replay, record, profile and tournament they
lead to, and tries each way back from the files (the puzzles' too): a game's id, a
pseudonym, a time, a rating. None works. The one link that stays is the game itself: its
moves are those its public replay shows, so whoever has a table's id finds its line — and
learns only what that table shows already: no pseudonym in it stands for anyone in
another game.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update
from starlette.routing import Route
from starlette.testclient import TestClient

from ghostparty.server.opendata.export import export
from ghostparty.server.opendata.puzzles import CSV_FILE
from ghostparty.server.puzzles.schema import puzzles
from ghostparty.server.tables.store import SqlTables
from tests.fixtures.accounts import make_client
from tests.server.accounts.test_rated import play_to_the_end

pytest.importorskip("pyarrow", reason="pyarrow is not installed (pip install 'ghostparty[data]')")

#: A time of day, as every public route writes its times.
TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")
#: How a path's parameters are filled: from what the walk found, or from fixed words.
FIXED = {"rules": ["hugo", "midnight-party"], "format": ["json", "csv"], "what": ["confirm"]}
#: The reviews the walk starts, made cheap.
CHEAP_REVIEWS = {"depth": 1, "horizon": 0}
#: Routes the walk leaves out, and why: the client's own files, and the open data itself.
NOT_DATA = {"/assets/{version}/{path:path}", "/open-data/{name}"}


@dataclass
class Seen:
    """What the stranger learned: every value any public route answered, and per table
    the names at its seats and its moves."""

    values: set[str] = field(default_factory=set)
    tables: dict[str, list[str]] = field(default_factory=dict)
    moves: dict[str, str] = field(default_factory=dict)
    names: set[str] = field(default_factory=set)
    tournaments: set[str] = field(default_factory=set)
    puzzles: set[str] = field(default_factory=set)
    walked: set[str] = field(default_factory=set)
    refused: set[str] = field(default_factory=set)


@dataclass
class Played:
    url: str
    lines: list[dict[str, Any]]
    tables: dict[str, list[str]]  # who: the ids of the tables they sat at
    seen: Seen
    folder: Path


def _from_games(store: SqlTables, games: list[str]) -> None:
    """The first of the starter puzzles (the server loaded them) said to come from ``games``,
    one each, as ``ghostparty puzzles mine --database`` names a stored game."""
    with store.engine.begin() as conn:
        ids = conn.execute(select(puzzles.c.id).order_by(puzzles.c.id).limit(len(games))).scalars().all()
        assert len(ids) == len(games), "the server loads its starter puzzles"
        for puzzle_id, game in zip(ids, games, strict=True):
            item = conn.execute(select(puzzles.c.puzzle).where(puzzles.c.id == puzzle_id)).scalar_one()
            item = {**item, "source": {"seed": None, "index": 3, "game": game}}
            conn.execute(update(puzzles).where(puzzles.c.id == puzzle_id).values(puzzle=item))


def _as(client: TestClient, name: str) -> dict[str, str]:
    """Register ``name``; the headers that act as them (the client keeps no cookie)."""
    answer = client.post("/api/account/register", json={"name": name, "password": "correct horse battery"})
    assert answer.status_code == 201, answer.text
    client.cookies.clear()
    return {"Cookie": f"gp_session={answer.cookies['gp_session']}", "X-CSRF-Token": answer.json()["csrf"]}


def _game(client: TestClient, rules: str, sitters: list[dict[str, str] | str], *, rated: bool = False) -> str:
    """A game played to its end: each of ``sitters`` (an account's headers, or a guest's
    name) at a seat in turn, a bot at one more seat."""
    seats = [{"kind": "human"} for _ in sitters] + [{"kind": "bot", "bot": "random"}]
    body = {"rules": rules, "seats": seats, "first_player": 0, "rated": rated}
    table_id = str(client.post("/api/tables", json=body).json()["table"]["id"])
    tokens = {}
    for seat, who in enumerate(sitters):
        join = {"seat": seat} if isinstance(who, dict) else {"seat": seat, "name": who}
        headers = who if isinstance(who, dict) else {}
        answer = client.post(f"/api/tables/{table_id}/join", json=join, headers=headers)
        assert answer.status_code == 200, answer.text
        tokens[seat] = answer.json()["token"]
    assert client.post(f"/api/tables/{table_id}/start", json={"seat": 0, "token": tokens[0]}).status_code == 200
    play_to_the_end(client, table_id, tokens)
    return table_id


def _values(data: Any, key: str = "") -> Iterator[tuple[str, str]]:
    """Every (key, scalar as text) in a JSON answer."""
    if isinstance(data, dict):
        for name, value in data.items():
            yield from _values(value, name)
    elif isinstance(data, list):
        for value in data:
            yield from _values(value, key)
    elif data is not None:
        yield key, str(data)


def _walk(client: TestClient) -> Seen:
    """Every GET route of the app, with no login, each path parameter filled with what the
    routes answered so far, until nothing new turns up."""
    seen = Seen()
    routes = [r for r in client.app.routes if isinstance(r, Route) and "GET" in (r.methods or {"GET"})]  # type: ignore[attr-defined]
    extra = ["/api/leaderboard/hugo?bots=1", "/api/leaderboard/midnight-party?bots=1"]
    for _ in range(4):
        before = (len(seen.tables), len(seen.names), len(seen.tournaments), len(seen.puzzles))
        candidates = {
            "table_id": sorted(seen.tables) or ["none"],
            "name": sorted(seen.names) or ["none"],
            "tournament_id": sorted(seen.tournaments) or ["1"],
            "puzzle_id": sorted(seen.puzzles) or ["none"],
            **FIXED,
        }
        urls = list(extra)
        if seen.names:
            urls.append("/api/records?" + "&".join(f"players={name}" for name in sorted(seen.names)[:8]))
        for route in routes:
            if route.path in NOT_DATA:
                continue
            params = list(route.param_convertors)
            unknown = [p for p in params if p not in candidates]
            assert not unknown, f"{route.path}: how does a stranger fill {unknown}? (add it to the walk)"
            paths = [route.path]
            for param in params:
                pattern = re.compile(r"\{" + param + r"(:[a-z]+)?\}")
                paths = [pattern.sub(value, path) for path in paths for value in candidates[param]]
            urls += paths
        for url in urls:
            _read(client, url, seen)
        for table_id in list(seen.tables):
            if table_id not in seen.moves:
                record = client.get(f"/api/tables/{table_id}/record").json()
                seen.moves[table_id] = json.dumps(record.get("actions"), sort_keys=True)
        if (len(seen.tables), len(seen.names), len(seen.tournaments), len(seen.puzzles)) == before:
            return seen
    raise AssertionError("the walk kept finding new things")


def _read(client: TestClient, url: str, seen: Seen) -> None:
    answer = client.get(url)
    seen.walked.add(url)
    if answer.status_code in (401, 403):
        seen.refused.add(url)
        return
    if "json" not in answer.headers.get("content-type", ""):
        return  # a page: the same HTML for every path (tests/browser check what it shows)
    data = answer.json()
    for key, value in _values(data):
        seen.values.add(value)
        if key in ("id", "table", "table_id") and value not in seen.tables:
            view = client.get(f"/api/tables/{value}")
            if view.status_code == 200 and "table" in view.json():  # an id of a table (not the app's manifest's)
                seen.tables[value] = [seat.get("name") or "" for seat in view.json()["table"]["seats"]]
        known = key in ("name", "player", "winner") and value not in seen.names
        if known and client.get(f"/api/players/{value}").status_code == 200:
            seen.names.add(value)
        if key == "id" and url.startswith("/api/tournaments"):
            seen.tournaments.add(value)
        if key == "id" and url.startswith("/api/puzzles"):
            seen.puzzles.add(value)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    folder = tmp_path_factory.mktemp("open-data-privacy")
    db_url = f"sqlite:///{folder}/games.db"
    with make_client(db_url) as client:
        ann, bob = _as(client, "ann"), _as(client, "bob")
        chose = client.post("/api/account/open-data", json={"opt_out": True}, headers=bob)
        assert chose.json() == {"opt_out": True}
        tables = {
            "ann": [_game(client, "hugo", [ann], rated=True)],
            "bob": [_game(client, "hugo", [bob], rated=True), _game(client, "hugo", [bob], rated=True)],
            "Gina": [_game(client, "midnight-party", ["Gina"]), _game(client, "hugo", ["Gina"])],
        }
        together = _game(client, "hugo", [ann, bob, "Hal"])
        for who in ("ann", "bob", "Hal"):
            tables.setdefault(who, []).append(together)
    store = SqlTables(db_url)
    try:
        _from_games(store, [together, tables["Gina"][0]])
        (month,) = export(store.engine, folder / "out")
    finally:
        store.close()
    text = gzip.decompress((folder / "out" / f"ghostparty-games-{month.month}.ndjson.gz").read_bytes()).decode()
    lines = [json.loads(line) for line in text.splitlines()]
    with make_client(db_url, review_settings=CHEAP_REVIEWS) as stranger:
        seen = _walk(stranger)
        for table in seen.tables:  # the reviews the walk started (a GET of /review starts one)
            stranger.portal.call(stranger.app.state.parts.reviewer.wait, table)  # type: ignore[attr-defined]
    return Played(db_url, lines, tables, seen, folder / "out")


def _pseudonymised(line: dict[str, Any]) -> list[dict[str, Any]]:
    return [seat for seat in line["seats"] if seat["name"].startswith(("player-", "guest-"))]


def test_the_walk_reaches_every_game_and_every_player(played: Played) -> None:
    """The stranger's walk is thorough: every table played, every account, and the
    routes that need a login refused it."""
    every = {table for tables in played.tables.values() for table in tables}
    assert set(played.seen.tables) == every
    assert {"ann", "bob"} <= played.seen.names
    assert any(url.startswith("/api/account") for url in played.seen.refused)
    assert any(url.startswith("/api/players/bob") for url in played.seen.walked)


def test_no_public_route_knows_a_games_id_a_pseudonym_or_its_time(played: Played) -> None:
    seen = played.seen
    with make_client(played.url) as stranger:
        for line in played.lines:
            assert line["id"] not in seen.values, f"the game {line['id']} is named by a public route"
            for path in ("", "/record", "/replay", "/series", "/review"):
                answer = stranger.get(f"/api/tables/{line['id']}{path}")
                assert answer.status_code in (400, 404), (path, answer.status_code)
            for seat in _pseudonymised(line):
                assert seat["name"] not in seen.values
                assert stranger.get(f"/api/players/{seat['name']}").status_code == 404
                # a rating would match the profile's history and the leaderboard
                assert seat["rating_before"] is None and seat["rating_after"] is None
    times = {value for value in seen.values if TIME.match(value)}
    assert times, "the public routes show times (the profiles' games and ratings)"
    for line in played.lines:
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", line["created"]) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", line["ended"])
        text = json.dumps(line)
        assert not TIME.search(text), "a time of day in the files"
    # within a day, the order of the lines is that of their keyed ids, not of the games' ends
    assert [(g["ended"], g["id"]) for g in played.lines] == sorted((g["ended"], g["id"]) for g in played.lines)


def test_a_game_found_by_its_moves_names_nobody_in_another_game(played: Played) -> None:
    """The one link left: a table's public record has the line's moves. Found that way,
    each pseudonym is tied to the name the table shows — and appears in no other line."""
    by_moves = {moves: table for table, moves in played.seen.moves.items()}
    learned: list[tuple[str, str]] = []  # (pseudonym, the name the table shows at its seat)
    for line in played.lines:
        table = by_moves.get(json.dumps(line["actions"], sort_keys=True))
        assert table is not None  # every game is public; the files add nothing to it
        learned += [(seat["name"], played.seen.tables[table][seat["seat"]]) for seat in _pseudonymised(line)]
    assert sorted(name for _, name in learned) == ["Gina", "Gina", "Hal", "bob", "bob", "bob"]
    for pseudonym, name in learned:
        carrying = [line for line in played.lines if any(s["name"] == pseudonym for s in line["seats"])]
        assert len(carrying) == 1, f"{pseudonym} ({name}) is named in {len(carrying)} games"
    assert any(seat["name"] == "ann" for line in played.lines for seat in line["seats"])  # she chose to be named


def test_the_puzzles_name_no_table_no_player_and_no_time(played: Played) -> None:
    """The puzzles' files name a game only by the id its line has (a finished game's, so
    in the files), never a table's id or anybody; their times are days."""
    text = gzip.decompress((played.folder / CSV_FILE).read_bytes()).decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    named = [row for row in rows if row["game"]]
    assert len(named) == 2 and {row["game"] for row in named} <= {line["id"] for line in played.lines}
    every = {table for tables in played.tables.values() for table in tables}
    for secret in every:
        assert secret not in text, secret
    for name in ("ann", "bob", "Gina", "Hal"):
        assert not re.search(rf"\b{name}\b", text), name
    assert not TIME.search(text), "a time of day in the puzzles"
    assert {row["game"] for row in named}.isdisjoint(played.seen.values)  # no public route names them
