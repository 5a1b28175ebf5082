"""Tournament states to and from JSON, so a server can store one and resume it elsewhere.

``to_json(state)`` writes an :class:`~ghostparty.tournaments.arena.Arena` as
``ghostparty-arena/1``, a :class:`~ghostparty.tournaments.swiss.Swiss` as
``ghostparty-swiss/1`` or a :class:`~ghostparty.tournaments.ladder.Ladder` as
``ghostparty-ladder/1``; ``from_json(text)`` reads any back. Only what happened is
stored — settings, entrants, games or rounds with their places and who left — and every
record (points, games, first places, table-mates) is derived again on reading, so a
stored state cannot contradict itself. Points are exact: an integer or ``"11/4"``.
"""

from __future__ import annotations

import json
from typing import Any

from ghostparty.tournaments.arena import Arena, ArenaConfig, ArenaGame, ArenaPlayer
from ghostparty.tournaments.errors import TournamentError
from ghostparty.tournaments.ladder import (
    Ladder,
    LadderConfig,
    LadderDeal,
    LadderGame,
    LadderGroup,
    LadderPlayer,
    game_id,
)
from ghostparty.tournaments.points import decode, encode
from ghostparty.tournaments.swiss import Swiss, SwissConfig, SwissPlayer, SwissRound, SwissTable

ARENA_FORMAT = "ghostparty-arena/1"
SWISS_FORMAT = "ghostparty-swiss/1"
LADDER_FORMAT = "ghostparty-ladder/1"
FORMATS = (ARENA_FORMAT, SWISS_FORMAT, LADDER_FORMAT)

State = Arena | Swiss | Ladder


def to_dict(state: State) -> dict[str, Any]:
    """The JSON-ready dict of an arena, a Swiss tournament or a ladder."""
    if isinstance(state, Ladder):
        return _ladder_dict(state)
    if isinstance(state, Arena):
        c = state.config
        return {
            "format": ARENA_FORMAT,
            "config": {
                "table_size": c.table_size,
                "starts_at": c.starts_at,
                "ends_at": c.ends_at,
                "bot_wait": c.bot_wait,
            },
            "players": [
                {"id": p.id, "rating": p.rating, "bot": p.bot, "active": p.active, "free_since": p.free_since}
                | ({"away_in": p.away_in} if p.away_in is not None else {})
                for p in state.players.values()
            ],
            "games": [
                {
                    "id": g.id,
                    "seats": list(g.seats),
                    "started_at": g.started_at,
                    "finished_at": g.finished_at,
                    "places": None if g.places is None else list(g.places),
                    "left": dict(g.left),
                }
                for g in state.games.values()
            ],
        }
    bye = state.config.bye_points
    return {
        "format": SWISS_FORMAT,
        "config": {
            "table_size": state.config.table_size,
            "rounds": state.config.rounds,
            "bye_points": None if bye is None else encode(bye),
        },
        "players": [{"id": p.id, "rating": p.rating, "active": p.active} for p in state.players.values()],
        "rounds": [
            {
                "number": r.number,
                "tables": [
                    {
                        "seats": list(t.seats),
                        "places": None if t.places is None else list(t.places),
                        "left": dict(t.left),
                    }
                    for t in r.tables
                ],
                "byes": list(r.byes),
            }
            for r in state.rounds
        ],
    }


def _ladder_dict(state: Ladder) -> dict[str, Any]:
    return {
        "format": LADDER_FORMAT,
        "config": {"table_size": state.config.table_size, "deals": state.config.deals},
        "players": [
            {"id": p.id, "rating": p.rating, "house": p.house, "active": p.active} for p in state.players.values()
        ],
        "deals": [
            {
                "number": d.number,
                "seed": d.seed,
                "out": list(d.out),
                "groups": [
                    {
                        "members": list(g.members),
                        "games": [
                            {"places": None if x.places is None else list(x.places), "left": dict(x.left)}
                            for x in g.games
                        ],
                    }
                    for g in d.groups
                ],
            }
            for d in state.deals
        ],
    }


def to_json(state: State) -> str:
    """``to_dict`` as compact JSON text."""
    return json.dumps(to_dict(state), separators=(",", ":"))


def from_json(text: str) -> State:
    """The state ``to_json`` wrote; :class:`TournamentError` naming the field if it is wrong."""
    try:
        data = json.loads(text)
    except ValueError as error:
        raise TournamentError("json", f"expected JSON text: {error}") from None
    return from_dict(data)


def from_dict(data: object) -> State:
    """The state ``to_dict`` made."""
    root = _mapping(data, "state")
    kind = root.get("format")
    if kind == ARENA_FORMAT:
        return _arena(root)
    if kind == SWISS_FORMAT:
        return _swiss(root)
    if kind == LADDER_FORMAT:
        return _ladder(root)
    raise TournamentError("format", f"expected one of {list(FORMATS)}, got {kind!r}")


def _arena(root: dict[str, Any]) -> Arena:
    c = _mapping(root.get("config"), "config")
    arena = Arena(
        ArenaConfig(_given(c, "table_size"), _given(c, "starts_at"), _given(c, "ends_at"), _given(c, "bot_wait"))
    )
    stored: list[ArenaPlayer] = []
    for i, item in enumerate(_list(root.get("players"), "players")):
        p = _mapping(item, f"players[{i}]")
        entry = ArenaPlayer(
            _text(p.get("id"), f"players[{i}].id"),
            _number(p.get("rating"), f"players[{i}].rating"),
            bot=_flag(p.get("bot"), f"players[{i}].bot"),
            active=_flag(p.get("active"), f"players[{i}].active"),
            free_since=_number(p.get("free_since"), f"players[{i}].free_since"),
            away_in=None if p.get("away_in") is None else _text(p.get("away_in"), f"players[{i}].away_in"),
        )
        if entry.id in arena.players:
            raise TournamentError(f"players[{i}].id", f"{entry.id!r} is listed twice")
        arena.players[entry.id] = ArenaPlayer(
            entry.id, entry.rating, entry.bot, entry.active, free_since=entry.free_since
        )
        stored.append(entry)
    for i, item in enumerate(_list(root.get("games"), "games")):
        g = _mapping(item, f"games[{i}]")
        game = _text(g.get("id"), f"games[{i}].id")
        seats = [_text(s, f"games[{i}].seats") for s in _list(g.get("seats"), f"games[{i}].seats")]
        for player in seats:
            if player not in arena.players or arena.players[player].game is not None:
                raise TournamentError(f"games[{i}].seats", f"{player!r} is unknown or already seated")
        if len(seats) != arena.config.table_size or len(set(seats)) != len(seats) or game in arena.games:
            raise TournamentError(f"games[{i}]", f"expected a new id and {arena.config.table_size} different seats")
        arena.games[game] = ArenaGame(game, tuple(seats), _number(g.get("started_at"), f"games[{i}].started_at"))
        for player in seats:
            arena.players[player].game = game
        if g.get("places") is not None:
            left = _mapping(g.get("left") or {}, f"games[{i}].left")
            finished = _number(g.get("finished_at"), f"games[{i}].finished_at")
            arena.finish_game(game, _list(g.get("places"), f"games[{i}].places"), finished, left)
    for entrant in stored:  # who is active, since when free, why out, as stored (a leaver may have come back)
        found = arena.players[entrant.id]
        found.active, found.free_since, found.away_in = entrant.active, entrant.free_since, entrant.away_in
    return arena


def _swiss(root: dict[str, Any]) -> Swiss:
    c = _mapping(root.get("config"), "config")
    bye = c.get("bye_points")
    config = SwissConfig(
        _given(c, "table_size"), _given(c, "rounds"), None if bye is None else decode(bye, "config.bye_points")
    )
    swiss = Swiss(config)
    for i, item in enumerate(_list(root.get("players"), "players")):
        p = _mapping(item, f"players[{i}]")
        player = _text(p.get("id"), f"players[{i}].id")
        if player in swiss.players:
            raise TournamentError(f"players[{i}].id", f"{player!r} is listed twice")
        swiss.players[player] = SwissPlayer(
            player, _number(p.get("rating"), f"players[{i}].rating"), _flag(p.get("active"), f"players[{i}].active")
        )
    rounds = _list(root.get("rounds"), "rounds")
    if len(rounds) > config.rounds:
        raise TournamentError("rounds", f"expected at most {config.rounds} rounds, got {len(rounds)}")
    for n, item in enumerate(rounds):
        r = _mapping(item, f"rounds[{n}]")
        if n and not swiss.rounds[-1].complete:
            raise TournamentError(f"rounds[{n}]", f"round {n} has tables without a result")
        byes = [_text(b, f"rounds[{n}].byes") for b in _list(r.get("byes"), f"rounds[{n}].byes")]
        tables = [
            _mapping(t, f"rounds[{n}].tables[{k}]") for k, t in enumerate(_list(r.get("tables"), f"rounds[{n}].tables"))
        ]
        seatings = [
            [
                _text(s, f"rounds[{n}].tables[{k}].seats")
                for s in _list(t.get("seats"), f"rounds[{n}].tables[{k}].seats")
            ]
            for k, t in enumerate(tables)
        ]
        everyone = byes + [p for seats in seatings for p in seats]
        unknown = [p for p in everyone if p not in swiss.players]
        if unknown or len(set(everyone)) != len(everyone) or len(byes) != len(everyone) % config.table_size:
            raise TournamentError(
                f"rounds[{n}]",
                f"expected known players, each once, {len(everyone) % config.table_size} of them on a bye; got {everyone!r}",
            )
        if any(len(seats) != config.table_size for seats in seatings):
            raise TournamentError(f"rounds[{n}].tables", f"expected {config.table_size} seats per table")
        swiss.rounds.append(SwissRound(n + 1, [SwissTable(tuple(seats)) for seats in seatings], tuple(byes)))
        for player in byes:
            swiss.players[player].byes += 1
            swiss.players[player].points += config.bye
        for k, t in enumerate(tables):
            if t.get("places") is not None:
                left = _mapping(t.get("left") or {}, f"rounds[{n}].tables[{k}].left")
                swiss.record(n + 1, k + 1, _list(t.get("places"), f"rounds[{n}].tables[{k}].places"), left)
    return swiss


def _ladder(root: dict[str, Any]) -> Ladder:
    c = _mapping(root.get("config"), "config")
    ladder = Ladder(LadderConfig(_given(c, "table_size"), _given(c, "deals")))
    size = ladder.config.table_size
    for i, item in enumerate(_list(root.get("players"), "players")):
        p = _mapping(item, f"players[{i}]")
        player = _text(p.get("id"), f"players[{i}].id")
        if player in ladder.players:
            raise TournamentError(f"players[{i}].id", f"{player!r} is listed twice")
        ladder.players[player] = LadderPlayer(
            player,
            _number(p.get("rating"), f"players[{i}].rating"),
            _flag(p.get("house"), f"players[{i}].house"),
            _flag(p.get("active"), f"players[{i}].active"),
        )
    deals = _list(root.get("deals"), "deals")
    if len(deals) > ladder.config.deals:
        raise TournamentError("deals", f"expected at most {ladder.config.deals} deals, got {len(deals)}")
    for n, item in enumerate(deals):
        where = f"deals[{n}]"
        d = _mapping(item, where)
        if n and not ladder.deals[-1].complete:
            raise TournamentError(where, f"deal {n} has games without a result")
        seed = d.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise TournamentError(f"{where}.seed", f"expected a die seed (an integer >= 0), got {seed!r}")
        out = [_text(x, f"{where}.out") for x in _list(d.get("out"), f"{where}.out")]
        groups: list[LadderGroup] = []
        for k, entry in enumerate(_list(d.get("groups"), f"{where}.groups")):
            g = _mapping(entry, f"{where}.groups[{k}]")
            members = tuple(
                _text(m, f"{where}.groups[{k}].members")
                for m in _list(g.get("members"), f"{where}.groups[{k}].members")
            )
            games = _list(g.get("games"), f"{where}.groups[{k}].games")
            if len(members) != size or len(games) != size:
                raise TournamentError(f"{where}.groups[{k}]", f"expected {size} members and {size} games")
            groups.append(
                LadderGroup(
                    k + 1,
                    members,
                    [
                        LadderGame(game_id(n + 1, k + 1, r), r, tuple(members[(s + r) % size] for s in range(size)))
                        for r in range(size)
                    ],
                )
            )
        everyone = out + [m for g in groups for m in g.members]
        if any(p not in ladder.players for p in everyone) or len(set(everyone)) != len(everyone):
            raise TournamentError(where, f"expected known players, each once, got {everyone!r}")
        ladder.deals.append(LadderDeal(n + 1, seed, groups, tuple(out)))
        for k, entry in enumerate(_list(d.get("groups"), f"{where}.groups")):
            for r, result in enumerate(_mapping(entry, f"{where}.groups[{k}]")["games"]):
                x = _mapping(result, f"{where}.groups[{k}].games[{r}]")
                if x.get("places") is not None:
                    left = _mapping(x.get("left") or {}, f"{where}.groups[{k}].games[{r}].left")
                    ladder.record(
                        game_id(n + 1, k + 1, r), _list(x.get("places"), f"{where}.groups[{k}].games[{r}].places"), left
                    )
    return ladder


def _given(data: dict[str, Any], key: str) -> Any:
    """``data[key]``, or ``None`` when absent: the settings' own checks name what is wrong."""
    return data.get(key)


def _mapping(value: object, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TournamentError(field, f"expected an object, got {value!r}")
    return value


def _list(value: object, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise TournamentError(field, f"expected a list, got {value!r}")
    return value


def _text(value: object, field: str) -> str:
    if not isinstance(value, str) or not value:
        raise TournamentError(field, f"expected a non-empty string, got {value!r}")
    return value


def _number(value: object, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TournamentError(field, f"expected a number, got {value!r}")
    return float(value)


def _flag(value: object, field: str) -> bool:
    if not isinstance(value, bool):
        raise TournamentError(field, f"expected true or false, got {value!r}")
    return value
