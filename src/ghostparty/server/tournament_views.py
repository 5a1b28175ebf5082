"""What the pages and the results downloads see of a tournament: its settings, live
standings (names, exact points), its games with their tables, the podium; a player's
own current table; the list of tournaments; a player's trophies."""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from typing import Any

from ghostparty.server.tournament_service import Engine, ended
from ghostparty.server.tournament_store import FINISHED, Entrant, GameRow, TournamentRow
from ghostparty.tournaments import Arena, from_json
from ghostparty.tournaments.points import encode


def _time(value: Any) -> str | None:
    return value.isoformat().replace("+00:00", "Z") if value is not None else None


def summary(row: TournamentRow) -> dict[str, Any]:
    """A tournament's settings and status (the list's line, the page's head)."""
    return {
        "id": row.id,
        "kind": row.kind,
        "rules": row.rules,
        "table_size": row.table_size,
        "rated": row.rated,
        "turn_seconds": row.turn_seconds,
        "starts": _time(row.starts),
        "ends": _time(ended(row)),
        "minutes": row.minutes,
        "rounds": row.rounds,
        "bots": row.bots,
        "creator": row.creator,
        "status": row.status,
        "reason": row.reason,
        "next_round": _time(row.round_at) if row.kind == "swiss" else None,
        "recurring": row.recurring,
    }


def standings(engine: Engine, names: dict[str, Entrant]) -> list[dict[str, Any]]:
    """The standings, best first; points exact (an integer or ``"11/4"``)."""
    lines = []
    if isinstance(engine, Arena):
        for s in engine.standings():
            lines.append(
                {
                    "rank": s.rank,
                    "name": _name(names, s.player),
                    "points": encode(s.points),
                    "games": s.games,
                    "firsts": s.firsts,
                    "bot": s.bot,
                    "active": engine.players[s.player].active,
                    "entrant": s.player,
                }
            )
        return lines
    for w in engine.standings():
        lines.append(
            {
                "rank": w.rank,
                "name": _name(names, w.player),
                "points": encode(w.points),
                "opponents": encode(w.opponents),
                "games": w.games,
                "firsts": w.firsts,
                "byes": w.byes,
                "bot": False,
                "active": w.active,
                "entrant": w.player,
            }
        )
    return lines


def podium(row: TournamentRow, engine: Engine, names: dict[str, Entrant]) -> list[dict[str, Any]]:
    """The best three people once the tournament is finished (bots never)."""
    if row.status != FINISHED:
        return []
    best: list[tuple[str, Fraction]] = (
        [(s.player, s.points) for s in engine.podium()]
        if isinstance(engine, Arena)
        else [(s.player, s.points) for s in engine.podium() if s.games > 0]
    )
    return [{"place": i + 1, "name": _name(names, p), "points": encode(points)} for i, (p, points) in enumerate(best)]


def games(engine: Engine, rows: list[GameRow], names: dict[str, Entrant]) -> list[dict[str, Any]]:
    """Every game: its round and table number (Swiss), table id, seats, result."""
    found = []
    for g in rows:
        places: tuple[int, ...] | None
        if isinstance(engine, Arena):
            record = engine.games.get(g.game)
            places, points = (record.places, record.points) if record else (None, None)
            round_number = table_number = None
        else:
            round_number, table_number = (int(x) for x in g.game[1:].split("t"))
            table = engine.rounds[round_number - 1].tables[table_number - 1]
            places, points = table.places, table.points
        found.append(
            {
                "game": g.game,
                "table": g.table_id,
                "round": round_number,
                "table_number": table_number,
                "seats": [_name(names, e) for e in g.seats],
                "places": list(places) if places else None,
                "points": [encode(p) for p in points] if points else None,
                "finished": places is not None,
            }
        )
    return found


def view(row: TournamentRow, entrants: list[Entrant], rows: list[GameRow]) -> dict[str, Any]:
    """The whole state a tournament page shows."""
    engine = from_json(row.state)
    names = {e.entrant: e for e in entrants}
    byes = []
    if not isinstance(engine, Arena):
        byes = [{"round": r.number, "names": [_name(names, p) for p in r.byes]} for r in engine.rounds]
    return {
        "tournament": summary(row),
        "entrants": sum(1 for e in entrants if not e.bot),
        "standings": standings(engine, names),
        "games": games(engine, rows, names),
        "byes": byes,
        "round": None if isinstance(engine, Arena) else len(engine.rounds),
        "podium": podium(row, engine, names),
    }


def current(row: TournamentRow, engine: Engine, entrant: str, rows: list[GameRow]) -> dict[str, Any]:
    """Where ``entrant`` plays now: their table, seat and seat token, if any."""
    playing = None
    if isinstance(engine, Arena):
        known = engine.players.get(entrant)
        playing = known.game if known else None
        active = bool(known and known.active)
    else:
        known_s = engine.players.get(entrant)
        active = bool(known_s and known_s.active)
        if engine.rounds:
            last = engine.rounds[-1]
            for i, t in enumerate(last.tables):
                if entrant in t.seats and t.places is None:
                    playing = f"r{last.number}t{i + 1}"
    for g in rows:
        if g.game == playing and entrant in g.tokens:
            return {
                "entrant": entrant,
                "active": active,
                "table": g.table_id,
                "seat": g.seats.index(entrant),
                "token": g.tokens[entrant],
            }
    return {"entrant": entrant, "active": active, "table": None, "seat": None, "token": None}


def results_csv(data: dict[str, Any]) -> str:
    """The standings of :func:`view` as CSV (a header line, then best first)."""
    out = io.StringIO()
    columns = ["rank", "name", "points", "games", "firsts", "opponents", "byes", "bot", "active"]
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for line in data["standings"]:
        writer.writerow([_cell(line.get(c, "")) for c in columns])
    return out.getvalue()


def trophies(rows: list[TournamentRow], entrants_of: dict[str, list[Entrant]], player_id: int) -> list[dict[str, Any]]:
    """The podium places ``player_id`` won, newest first."""
    found = []
    for row in rows:
        names = {e.entrant: e for e in entrants_of.get(row.id, [])}
        for place in podium(row, from_json(row.state), names):
            if any(e.player_id == player_id and e.name == place["name"] for e in names.values() if not e.bot):
                found.append(
                    {
                        "tournament": row.id,
                        "kind": row.kind,
                        "rules": row.rules,
                        "starts": _time(row.starts),
                        "place": place["place"],
                    }
                )
    return found


def _cell(value: Any) -> str:
    text = str(value).lower() if isinstance(value, bool) else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text  # no formulas in a spreadsheet


def _name(names: dict[str, Entrant], entrant: str) -> str:
    known = names.get(entrant)
    return known.name if known is not None else entrant
