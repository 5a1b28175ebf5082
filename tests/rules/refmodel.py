"""An independent reference model of RULES.md, on FORMAT.md's JSON dicts only.

Written from RULES.md without reusing the engine: plain dicts and strings, no
``ghostparty`` import. The differential and perft tests compare the engine with it,
so a bug would have to be made twice, in two different ways, to go unnoticed.

It trusts its input (a valid ``hugo-position/1`` dict) and does not validate it.
"""

from __future__ import annotations

import copy
from typing import Any

Pos = dict[str, Any]
Act = dict[str, Any]

# RULES.md §1.2, §1.3: the two board sides, transcribed from the tables.
ROOMS: dict[str, list[tuple[str, int, str]]] = {
    "hugo": [
        ("library", 2, "neutral"),
        ("fireplace", 3, "neutral"),
        ("chapel", 8, "neutral"),
        ("tower", 13, "neutral"),
        ("armory", 17, "red"),
        ("portrait-hall", 22, "neutral"),
        ("ballroom", 26, "green"),
        ("banquet-hall", 31, "green"),
        ("bedchamber", 35, "neutral"),
    ],
    "midnight-party": [
        ("library", 2, "neutral"),
        ("fireplace", 3, "neutral"),
        ("chapel", 7, "neutral"),
        ("abandoned-room", 11, "red"),
        ("tower", 14, "neutral"),
        ("armory", 18, "red"),
        ("portrait-hall", 22, "neutral"),
        ("ballroom", 25, "green"),
        ("banquet-hall", 29, "green"),
        ("bedchamber", 33, "neutral"),
        ("music-room", 36, "neutral"),
    ],
}
STEPS: dict[str, list[int]] = {"hugo": [10, 9, 8, 7, 6, 5, 4, 3], "midnight-party": [10, 9, 8, 7, 6, 5, 4, 3, 2]}
OVERFLOW = {"hugo": 10, "midnight-party": 2}
HUGO_START = {"hugo": "START", "midnight-party": "C10"}
CLOCK = ["23:45", "24:00", "1:00", "2:00", "3:00", "4:00", "5:00"]
CLOCK_SPEED = {"23:45": 3, "24:00": 3, "1:00": 4, "2:00": 5, "3:00": 6, "4:00": 7}
GUESTS = {2: 6, 3: 5, 4: 4, 5: 3, 6: 2, 7: 2, 8: 2}
SQUARES = 40
ROLLS: list[Act] = [{"roll": 1}, {"roll": 2}, {"roll": 4}, {"roll": 5}, {"roll": "hugo"}]


def room_door(rules: str, room_id: str) -> int:
    return next(door for rid, door, _ in ROOMS[rules] if rid == room_id)


def room_shield(rules: str, room_id: str) -> str:
    return next(shield for rid, _, shield in ROOMS[rules] if rid == room_id)


def room_at(rules: str, square: int) -> str | None:
    return next((rid for rid, door, _ in ROOMS[rules] if door == square), None)


def is_gallery(loc: str) -> bool:
    return loc.startswith("G")


def is_room(loc: str) -> bool:
    return loc.startswith("R:")


def is_step(loc: str) -> bool:
    return loc.startswith("C")


def square(loc: str) -> int:
    return int(loc[1:])


def step_value(loc: str) -> int:
    return int(loc[1:])


def sort_key(rules: str, loc: str) -> tuple[int, int]:
    """FORMAT.md's writer order: gallery ascending, rooms in board order, steps high to low."""
    if is_gallery(loc):
        return (0, square(loc))
    if is_room(loc):
        return (1, [rid for rid, _, _ in ROOMS[rules]].index(loc[2:]))
    return (2, -step_value(loc))


def normalise(pos: Pos) -> Pos:
    pos["guests"] = [sorted(g, key=lambda loc: sort_key(pos["rules"], loc)) for g in pos["guests"]]
    return pos


def hugo_path_next(rules: str, loc: str) -> str:
    """Hugo's next location (RULES.md §1.3, §5.1): START, every step from 10 down, G0, clockwise."""
    if loc == "START":
        return "C10"
    if is_step(loc):
        steps = STEPS[rules]
        i = steps.index(step_value(loc))
        return f"C{steps[i + 1]}" if i + 1 < len(steps) else "G0"
    return f"G{(square(loc) + 1) % SQUARES}"


# -- legal actions ------------------------------------------------------------------------


def gallery_count(pos: Pos, seat: int) -> int:
    return sum(1 for loc in pos["guests"][seat] if is_gallery(loc))


def room_holder(pos: Pos, room: str) -> int | None:
    for seat, locs in enumerate(pos["guests"]):
        if room in locs:
            return seat
    return None


def move_targets(pos: Pos, source: str) -> list[str]:
    """Every destination of a guest move from ``source`` (RULES.md §4.1, §4.2, §8.2)."""
    rules = pos["rules"]
    n = pos["roll"]
    seat = pos["to_move"]
    mp = rules == "midnight-party"
    hugo_on_gallery = is_gallery(pos["hugo"])
    # where the guest stands after each step: at[0] is before the first step (None off the gallery)
    if is_gallery(source):
        at: list[int | None] = [square(source)]
    else:
        at = [None]
    if is_room(source):
        first = room_door(rules, source[2:])
    else:  # gallery or cellar
        first = 0 if is_step(source) else (square(source) + 1) % SQUARES
    for k in range(1, n + 1):
        at.append((first + k - 1) % SQUARES)
    result = []
    for k in range(1, n + 1):  # entering with step k from the door reached at at[k-1]
        sq = at[k - 1]
        if sq is None or not hugo_on_gallery:
            continue
        rid = room_at(rules, sq)
        if rid is None:
            continue
        room = f"R:{rid}"
        if room == source:
            continue
        holder = room_holder(pos, room)
        if holder == seat:
            continue
        if mp and holder is not None:
            continue
        exact_needed = room_shield(rules, rid) == "green" or holder is not None
        if exact_needed and k != n:
            continue
        result.append(room)
    return [f"G{at[n]}", *result]


def move_sources(pos: Pos) -> list[str]:
    seat = pos["to_move"]
    mine = pos["guests"][seat]
    if pos["rules"] == "midnight-party":
        return sorted({loc for loc in mine if is_gallery(loc)}, key=square)
    sources = {loc for loc in mine if not is_step(loc)}
    steps = [step_value(loc) for loc in mine if is_step(loc)]
    if steps:
        sources.add(f"C{max(steps)}")
    return sorted(sources, key=lambda loc: sort_key(pos["rules"], loc))


def legal(pos: Pos) -> list[Act]:
    phase = pos["phase"]
    if phase == "roll":
        return [dict(a) for a in ROLLS]
    if phase == "place":
        taken = {loc for locs in pos["guests"] for loc in locs}
        return [{"place": f"G{sq}"} for sq in range(SQUARES) if f"G{sq}" not in taken]
    if phase == "move":
        actions: list[Act] = [
            {"from": source, "to": target} for source in move_sources(pos) for target in move_targets(pos, source)
        ]
        if pos["rules"] == "midnight-party" and gallery_count(pos, pos["to_move"]) <= 1:
            actions.append({"pass": True})
        return actions
    return []


# -- applying ------------------------------------------------------------------------------


class Over(Exception):
    """Raised inside :func:`apply` when the game ends; carries nothing."""


def _free_step(pos: Pos) -> str:
    taken = {loc for locs in pos["guests"] for loc in locs if is_step(loc)}
    for value in STEPS[pos["rules"]]:
        if f"C{value}" not in taken:
            return f"C{value}"
    return f"C{OVERFLOW[pos['rules']]}"


def _capture(pos: Pos, sq: str) -> bool:
    """Capture everything on ``sq`` (§6); True if anything was captured."""
    if not any(sq in locs for locs in pos["guests"]):
        return False
    step = _free_step(pos)
    for seat, locs in enumerate(pos["guests"]):
        count = locs.count(sq)
        pos["guests"][seat] = [loc for loc in locs if loc != sq] + [step] * count
        if pos["rules"] == "hugo":
            pos["scores"][seat] += count * step_value(step)
    return True


def _finish(pos: Pos, scores: list[int]) -> None:
    low = min(scores)
    pos["phase"] = "over"
    pos["roll"] = None
    pos["place_queue"] = []
    pos["winners"] = [s for s, v in enumerate(scores) if v == low]
    raise Over


def _check_46(pos: Pos) -> None:
    if pos["rules"] == "hugo" and max(pos["scores"]) >= 46:
        _finish(pos, pos["scores"])


def _round_over(pos: Pos) -> bool:
    rooms = {loc for locs in pos["guests"] for loc in locs if is_room(loc)}
    on_gallery = any(is_gallery(loc) for locs in pos["guests"] for loc in locs)
    return not on_gallery or len(rooms) == len(ROOMS[pos["rules"]])


def _end_round(pos: Pos) -> None:
    rules = pos["rules"]
    pos["guests"] = [["C2" if is_gallery(loc) else loc for loc in locs] for locs in pos["guests"]]
    scored = []
    for locs in pos["guests"]:
        total = 0
        for loc in locs:
            if is_step(loc):
                total += step_value(loc)
            elif is_room(loc):
                total += {"red": 1, "green": -3, "neutral": 0}[room_shield(rules, loc[2:])]
        scored.append(total)
    pos["round_scores"].append(scored)
    pos["scores"] = [a + b for a, b in zip(pos["scores"], scored, strict=True)]
    if pos["round"] == 3:
        _finish(pos, pos["scores"])
    totals = pos["scores"]
    order = sorted(range(pos["players"]), key=lambda s: (-totals[s], s))
    queue = []
    for value in STEPS[rules]:
        for seat in order:
            queue += [seat] * pos["guests"][seat].count(f"C{value}")
    pos["guests"] = [
        [f"G{room_door(rules, loc[2:])}" if is_room(loc) else loc for loc in locs if not is_step(loc)]
        for locs in pos["guests"]
    ]
    pos["round"] += 1
    pos["hugo"] = HUGO_START[rules]
    pos["first_player"] = order[0]
    pos["place_queue"] = queue
    pos["roll"] = None
    if queue:
        pos["phase"] = "place"
        pos["to_move"] = queue[0]
    else:
        pos["phase"] = "roll"
        pos["to_move"] = order[0]
    raise Over  # not the game's end: stops the turn from passing on


def _next_turn(pos: Pos) -> None:
    pos["phase"] = "roll"
    pos["roll"] = None
    pos["to_move"] = (pos["to_move"] + 1) % pos["players"]


def _hugo_moves(pos: Pos) -> None:
    rules = pos["rules"]
    speed = CLOCK_SPEED[pos["clock"]] if rules == "hugo" else (2 if pos["players"] >= 7 else 3)
    for _ in range(speed):
        pos["hugo"] = hugo_path_next(rules, pos["hugo"])
        if is_gallery(pos["hugo"]):
            if _capture(pos, pos["hugo"]):
                _check_46(pos)
            if rules == "hugo" and pos["hugo"] == "G0":
                pos["clock"] = CLOCK[CLOCK.index(pos["clock"]) + 1]
                if pos["clock"] == "5:00":
                    _finish(pos, pos["scores"])
        if rules == "midnight-party" and _round_over(pos):
            _end_round(pos)


def _guest_move(pos: Pos, source: str, target: str) -> None:
    rules = pos["rules"]
    seat = pos["to_move"]
    mine = pos["guests"][seat]
    mine.remove(source)
    mine.append(target)
    if is_gallery(target):
        if target == pos["hugo"]:
            _capture(pos, target)
    else:
        holder = next((s for s, locs in enumerate(pos["guests"]) if s != seat and target in locs), None)
        if holder is not None:
            door = f"G{room_door(rules, target[2:])}"
            locs = pos["guests"][holder]
            locs.remove(target)
            locs.append(door)
            if door == pos["hugo"]:
                _capture(pos, door)
        if rules == "hugo":
            shield = room_shield(rules, target[2:])
            if shield == "red":
                pos["scores"][seat] += 1
            elif shield == "green":
                pos["scores"][seat] = max(0, pos["scores"][seat] - 3)
    _check_46(pos)
    if rules == "midnight-party" and _round_over(pos):
        _end_round(pos)


def apply(position: Pos, action: Act) -> Pos:
    """The position after ``action``, which must be one of :func:`legal` (not checked)."""
    pos = copy.deepcopy(position)
    try:
        if "place" in action:
            pos["guests"][pos["to_move"]].append(action["place"])
            pos["place_queue"] = pos["place_queue"][1:]
            if pos["place_queue"]:
                pos["to_move"] = pos["place_queue"][0]
            else:
                pos["phase"] = "roll"
                pos["to_move"] = pos["first_player"]
        elif "roll" in action:
            if action["roll"] == "hugo":
                _hugo_moves(pos)
                _next_turn(pos)
            elif pos["rules"] == "midnight-party" and gallery_count(pos, pos["to_move"]) == 0:
                _next_turn(pos)
            else:
                pos["phase"] = "move"
                pos["roll"] = action["roll"]
        elif "pass" in action:
            _next_turn(pos)
        else:
            _guest_move(pos, action["from"], action["to"])
            _next_turn(pos)
    except Over:
        pass
    return normalise(pos)


def perft(pos: Pos, depth: int) -> int:
    """The number of distinct action sequences of length ``depth`` (die outcomes count as actions)."""
    if depth == 0:
        return 1
    actions = legal(pos)
    if depth == 1:
        return len(actions)
    return sum(perft(apply(pos, a), depth - 1) for a in actions)
