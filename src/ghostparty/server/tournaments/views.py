"""What the pages and the results downloads see of a tournament: its settings, live
standings (names, exact points; a ladder's duplicate scores with 95 % intervals), its
games with their tables, the podium; a player's own current table; the list of
tournaments; a player's trophies."""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from typing import Any

from ghostparty.server.tournaments.service import Engine, ended, house_level
from ghostparty.server.tournaments.store import FINISHED, Entrant, GameRow, TournamentRow
from ghostparty.sim.stats import deal_interval
from ghostparty.tournaments import Arena, Ladder, from_json
from ghostparty.tournaments.errors import TournamentError
from ghostparty.tournaments.ladder import parse_game_id
from ghostparty.tournaments.points import PLACE_POINTS, encode

#: What a ladder's interval says it is (as ``ghostparty tournament --duplicate`` prints it).
LADDER_METHOD = "normal approx. over duplicate deals"


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
        "deals": row.rounds if row.kind == "ladder" else None,
        "recurring": row.recurring,
    }


def standings(engine: Engine, names: dict[str, Entrant]) -> list[dict[str, Any]]:
    """The standings, best first; points exact (an integer or ``"11/4"``)."""
    lines = []
    if isinstance(engine, Ladder):
        return ladder_standings(engine, names)
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


def ladder_standings(engine: Ladder, names: dict[str, Entrant]) -> list[dict[str, Any]]:
    """A ladder's standings: per bot its mean duplicate score per deal (points against
    the deal's mean; exact) with a 95 % interval over its deals (``None`` under two)."""
    top = float(PLACE_POINTS[engine.config.table_size][0])
    lines = []
    for s in engine.standings():
        deals = engine.deal_scores(s.player)
        low = high = None
        if len(deals) >= 2:
            found = deal_interval([[float(x) for x in d] for d in deals], bounds=(-top, top))
            low, high = round(found[0], 4), round(found[1], 4)
        lines.append(
            {
                "rank": s.rank,
                "name": _name(names, s.player),
                "score": encode(s.score),
                "score_value": round(float(s.score), 4),
                "ci_low": low,
                "ci_high": high,
                "ci_method": LADDER_METHOD if low is not None else None,
                "deals": s.deals,
                "games": s.games,
                "points": encode(s.points),
                "house": s.house,
                "level": house_level(s.player) if s.house else None,
                "bot": True,
                "active": s.active,
                "entrant": s.player,
            }
        )
    return lines


def podium(row: TournamentRow, engine: Engine, names: dict[str, Entrant]) -> list[dict[str, Any]]:
    """The best three people once the tournament is finished (bots never)."""
    if row.status != FINISHED:
        return []
    if isinstance(engine, Ladder):  # the best three bot accounts (house bots never)
        ranked = [s for s in engine.standings() if not s.house and s.deals > 0][:3]
        return [
            {"place": i + 1, "name": _name(names, s.player), "score": encode(s.score)} for i, s in enumerate(ranked)
        ]
    best: list[tuple[str, Fraction]] = (
        [(s.player, s.points) for s in engine.podium()]
        if isinstance(engine, Arena)
        else [(s.player, s.points) for s in engine.podium() if s.games > 0]
    )
    return [{"place": i + 1, "name": _name(names, p), "points": encode(points)} for i, (p, points) in enumerate(best)]


def games(engine: Engine, rows: list[GameRow], names: dict[str, Entrant]) -> list[dict[str, Any]]:
    """Every game: its round and table number (Swiss), table id, seats, result, and the
    seats whose person forfeited (away at the end: a bot finished it, 0 points)."""
    found = []
    for g in rows:
        left: dict[str, int] = {}
        places: tuple[int, ...] | None
        round_number: int | None
        table_number: int | None
        rotation = None
        if isinstance(engine, Ladder):
            round_number, table_number, rotation = parse_game_id(g.game)
            try:
                record_l = engine.game(g.game)
            except TournamentError:
                # a game paired after the tournament's row was read (the games are read
                # after it, not in its transaction): shown with the next version
                continue
            places, points, left = record_l.places, record_l.points, record_l.left
        elif isinstance(engine, Arena):
            record = engine.games.get(g.game)
            places, points = (record.places, record.points) if record else (None, None)
            left = record.left if record else {}
            round_number = table_number = None
        else:
            round_number, table_number = (int(x) for x in g.game[1:].split("t"))
            if round_number > len(engine.rounds) or table_number > len(engine.rounds[round_number - 1].tables):
                continue  # paired after the row was read, as above
            table = engine.rounds[round_number - 1].tables[table_number - 1]
            places, points, left = table.places, table.points, table.left
        found.append(
            {
                "game": g.game,
                "table": g.table_id,
                "round": round_number,
                "table_number": table_number,
                "rotation": rotation,
                "seats": [_name(names, e) for e in g.seats],
                "places": list(places) if places else None,
                "points": [encode(p) for p in points] if points else None,
                "finished": places is not None,
                "forfeits": [seat for seat, e in enumerate(g.seats) if e in left],
            }
        )
    return found


def view(row: TournamentRow, entrants: list[Entrant], rows: list[GameRow]) -> dict[str, Any]:
    """The whole state a tournament page shows."""
    engine = from_json(row.state)
    names = {e.entrant: e for e in entrants}
    byes = []
    if isinstance(engine, Ladder):
        byes = [{"round": d.number, "names": [_name(names, p) for p in d.out]} for d in engine.deals]
    elif not isinstance(engine, Arena):
        byes = [{"round": r.number, "names": [_name(names, p) for p in r.byes]} for r in engine.rounds]
    return {
        "tournament": summary(row),
        "entrants": sum(1 for e in entrants if not e.bot),
        "standings": standings(engine, names),
        "games": games(engine, rows, names),
        "byes": byes,
        "round": None
        if isinstance(engine, Arena)
        else len(engine.deals if isinstance(engine, Ladder) else engine.rounds),
        "podium": podium(row, engine, names),
    }


def current(row: TournamentRow, engine: Engine, entrant: str, rows: list[GameRow]) -> dict[str, Any]:
    """Where ``entrant`` plays now: their table, seat and seat token, if any; and, if an
    arena stopped pairing them because they were away at a game's end, that game's table
    (``away_in``: their page says so and offers to come back)."""
    playing = away_in = None
    if isinstance(engine, Ladder):
        known_l = engine.players.get(entrant)
        active = bool(known_l and known_l.active)
        # a ladder seats a bot at several tables of a deal at once: the first not over
        over = {x.id for x in engine.games() if x.places is not None}
        playing = next((g.game for g in rows if entrant in g.seats and g.game not in over), None)
    elif isinstance(engine, Arena):
        known = engine.players.get(entrant)
        playing = known.game if known else None
        active = bool(known and known.active)
        if known is not None and known.away_in is not None:
            away_in = next((g.table_id for g in rows if g.game == known.away_in), None)
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
                "away_in": away_in,
                "table": g.table_id,
                "seat": g.seats.index(entrant),
                "token": g.tokens[entrant],
            }
    return {"entrant": entrant, "active": active, "away_in": away_in, "table": None, "seat": None, "token": None}


def results_csv(data: dict[str, Any]) -> str:
    """The standings of :func:`view` as CSV (a header line, then best first)."""
    out = io.StringIO()
    columns = ["rank", "name", "points", "games", "firsts", "opponents", "byes", "bot", "active"]
    if data["tournament"]["kind"] == "ladder":
        columns = ["rank", "name", "score", "ci_low", "ci_high", "deals", "games", "points", "house", "active"]
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
