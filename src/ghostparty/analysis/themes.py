"""What a puzzle's answer does, in words: its themes and a one-line reason in English and German.

Each theme is read off the position and the rules core's own events, never guessed:

* ``hides`` — the answer moves a guest into a room (RULES.md §4.2), where Hugo never
  captures it (§5.2);
* ``lucky-room`` — the room is green: it takes 3 off the score in ``hugo`` (§4.5) and
  counts −3 at the round's end in ``midnight-party`` (§8.5);
* ``expels`` — the answer enters a room held by another player's guest, which goes to the
  door square (§4.3; ``hugo`` only, §8.2 forbids it in ``midnight-party``);
* ``escapes-hugo`` — the moved guest stood where Hugo could capture it before its owner's
  next turn (§5.1–§5.3, §5.2; exact odds by :func:`~ghostparty.rules.odds.capture_odds`)
  and stands out of his reach after the move;
* ``stays-hidden`` — the answer takes no guest out of a room, where the next best action
  brings one out onto the gallery: in ``hugo`` a number must be used (§3.1), and a guest
  in a room is never captured (§5.2);
* ``leaves-cellar`` — the moved guest comes up from the cellar steps (§4.1);
* ``ends-round`` — the move ends a ``midnight-party`` round (§8.4);
* ``saves-points`` — every alternative costs the mover at least :data:`SAVES` more
  spooky points in captures (§6.1, §6.2; :func:`cost`): a guest captured at once (§4.4),
  or left where Hugo may capture it before the mover's next turn (its chance times the
  value of the highest free step);
* ``passes`` — passing beats moving the last guest on the gallery (§8.3);
* ``placement`` — a guest placed before play (§2.2) or between rounds (§8.6.3).
"""

from __future__ import annotations

from collections.abc import Sequence

from ghostparty.rules import MOVE, PLACE, Action, Move, Pass, Place, Position, apply, legal_actions
from ghostparty.rules.events import Captured, Event, GuestExpelled, RoundEnded
from ghostparty.rules.odds import capture_odds

#: Every theme, in the order a reason names them.
THEMES = (
    "placement",
    "passes",
    "expels",
    "hides",
    "lucky-room",
    "escapes-hugo",
    "stays-hidden",
    "leaves-cellar",
    "ends-round",
    "saves-points",
)
#: Expected spooky points the best alternative must risk beyond the answer for ``saves-points``.
SAVES = 1.0

#: Room names as the game's English texts give them (web/static/i18n/en.json).
ROOMS_EN = {
    "library": "library",
    "fireplace": "fireplace room",
    "chapel": "chapel",
    "tower": "tower",
    "armory": "armory",
    "portrait-hall": "portrait hall",
    "ballroom": "ballroom",
    "banquet-hall": "banquet hall",
    "bedchamber": "bedchamber",
    "abandoned-room": "abandoned room",
    "music-room": "music room",
}
#: Where a guest hides, in German: the rooms as the game's German texts name them
#: (web/static/i18n/de.json), with preposition and article.
ROOMS_DE = {
    "library": "in der Bibliothek",
    "fireplace": "im Kaminzimmer",
    "chapel": "in der Kapelle",
    "tower": "im Turmzimmer",
    "armory": "in der Waffenkammer",
    "portrait-hall": "in der Ahnengalerie",
    "ballroom": "im Tanzsaal",
    "banquet-hall": "im Bankettsaal",
    "bedchamber": "im Schlafgemach",
    "abandoned-room": "im verlassenen Raum",
    "music-room": "im Musikzimmer",
}


def risk(position: Position, seat: int) -> float:
    """The spooky points ``seat``'s guests on the gallery are expected to cost before its
    next turn: each guest's capture chance (:func:`capture_odds`) times the value of the
    highest step that holds no guest (§6.1), where a capture would put it."""
    board = position.board
    taken = {loc for locs in position.guests for loc in locs if board.is_step(loc)}
    free = [board.step_value[loc] for loc in board.step_locations if loc not in taken]
    cost = max(free) if free else board.overflow
    return sum(odds.chance for odds in capture_odds(position, seat)) * cost


def cost(position: Position, action: Action) -> float:
    """The spooky points ``action`` costs its mover in captures: those it makes at once (a
    guest ending on Hugo's square, §4.4; expelled onto it, §4.3) and the expected ones of
    :func:`risk` after it; 0 once the game or the round is over."""
    seat = position.to_move
    events: list[Event] = []
    after = apply(position, action, events)
    now = sum(event.points * event.seats.count(seat) for event in events if isinstance(event, Captured))
    if after.is_over or any(isinstance(event, RoundEnded) for event in events):
        return float(now)
    return now + risk(after, seat)


def themes(position: Position, answer: Action, alternatives: Sequence[Action]) -> list[str]:
    """The themes of ``answer`` in ``position`` against ``alternatives``, best first (the module's text)."""
    if position.phase == PLACE:
        return ["placement"]
    if position.phase != MOVE:
        raise ValueError(f"themes are read at a decision (phase 'move' or 'place'), not phase {position.phase!r}")
    found: set[str] = set()
    seat = position.to_move
    board = position.board
    events: list[Event] = []
    after = apply(position, answer, events)
    ended = any(isinstance(event, RoundEnded) for event in events)
    captured = any(isinstance(event, Captured) and seat in event.seats for event in events)
    if isinstance(answer, Pass):
        found.add("passes")
    if isinstance(answer, Move):
        target = board.location(answer.target)
        source = board.location(answer.source)
        if board.is_room(target):
            found.add("hides")
            if target in board.green:
                found.add("lucky-room")
        if any(isinstance(event, GuestExpelled) and event.seat != seat for event in events):
            found.add("expels")
        if board.is_step(source):
            found.add("leaves-cellar")
        if ended:
            found.add("ends-round")
        elif _escapes(position, after, answer, captured):
            found.add("escapes-hugo")
    if alternatives and _leaves_room(position, alternatives[0]) and not _leaves_room(position, answer):
        found.add("stays-hidden")
    if alternatives and min(cost(position, action) for action in alternatives) >= cost(position, answer) + SAVES:
        found.add("saves-points")
    return [theme for theme in THEMES if theme in found]


def _leaves_room(position: Position, action: Action) -> bool:
    """Whether ``action`` brings a guest out of a room onto the gallery."""
    board = position.board
    return (
        isinstance(action, Move)
        and board.is_room(board.location(action.source))
        and board.is_gallery(board.location(action.target))
    )


def _escapes(position: Position, after: Position, answer: Move, captured: bool) -> bool:
    """The guest stood in Hugo's reach and, not captured by the move, stands out of it."""
    if not position.board.is_gallery(position.board.location(answer.source)) or after.is_over or captured:
        return False
    seat = position.to_move
    return _danger(position, seat, answer.source) > 0 and _danger(after, seat, answer.target) == 0


def _danger(position: Position, seat: int, location: str) -> float:
    return max((odds.chance for odds in capture_odds(position, seat) if odds.location == location), default=0.0)


def describe(action: Action, language: str) -> str:
    """An action as a player reads it: ``"G12 → R:ballroom"``, ``"place on G7"``/``"auf G7 setzen"``."""
    if isinstance(action, Move):
        return f"{action.source} → {action.target}"
    if isinstance(action, Place):
        return f"place on {action.square}" if language == "en" else f"auf {action.square} setzen"
    if isinstance(action, Pass):
        return "pass" if language == "en" else "Aussetzen"
    raise ValueError(f"a puzzle's answer is a move, a pass or a placement, not {action!r}")


def reason(
    position: Position, answer: Action, found: Sequence[str], win: float, runner_up: tuple[Action, float]
) -> dict[str, str]:
    """One line in English and German: the answer, what it does, and the next best's win chance."""
    board = position.board
    room = ""
    if isinstance(answer, Move) and board.is_room(board.location(answer.target)):
        room = answer.target.removeprefix("R:")
    rules = position.ruleset.id
    saved = 0.0
    if "saves-points" in found:
        others = legal_alternatives(position, answer)
        saved = min(cost(position, action) for action in others) - cost(position, answer)
    phrases = {
        "en": {
            "placement": "the best square to place on",
            "passes": "passing beats moving the last guest on the gallery",
            "expels": "expels another player's guest from the room",
            "hides": f"hides the guest in the {ROOMS_EN.get(room, room)}",
            "lucky-room": "the lucky room takes 3 points off"
            if rules == "hugo"
            else "the lucky room counts −3 at the round's end",
            "escapes-hugo": "takes the guest out of Hugo's reach",
            "stays-hidden": "keeps the guests in the rooms hidden",
            "leaves-cellar": "brings a guest up from the cellar",
            "ends-round": "ends the round",
            "saves-points": f"risks {saved:.1f} spooky points less than any other move",
        },
        "de": {
            "placement": "das beste Feld zum Einsetzen",
            "passes": "Aussetzen ist besser, als den letzten Gast auf der Galerie zu ziehen",
            "expels": "wirft einen fremden Gast aus dem Zimmer",
            "hides": f"versteckt den Gast {ROOMS_DE.get(room, f'im Zimmer {room}')}",
            "lucky-room": "das Glückszimmer zieht 3 Punkte ab"
            if rules == "hugo"
            else "das Glückszimmer zählt am Rundenende −3",
            "escapes-hugo": "bringt den Gast außer Hugos Reichweite",
            "stays-hidden": "lässt die Gäste in den Zimmern versteckt",
            "leaves-cellar": "holt einen Gast aus dem Keller",
            "ends-round": "beendet die Runde",
            "saves-points": f"riskiert {saved:.1f} Spukpunkte weniger als jeder andere Zug".replace(".", ","),
        },
    }
    fallback = {"en": "clearly the best move", "de": "klar der beste Zug"}
    other, other_win = runner_up
    lines: dict[str, str] = {}
    for language in ("en", "de"):
        shown = [theme for theme in found if not (theme == "escapes-hugo" and "hides" in found)]
        said = [phrases[language][theme] for theme in shown] or [fallback[language]]
        head = f"{describe(answer, language)}: {', '.join(said)}"
        if language == "en":
            lines[language] = f"{head}; {win:.0%} to win, next best {describe(other, 'en')}: {other_win:.0%}."
        else:
            lines[language] = (
                f"{head}; {100 * win:.0f} % Gewinnchance, zweitbester Zug {describe(other, 'de')}: "
                f"{100 * other_win:.0f} %."
            )
    return lines


def legal_alternatives(position: Position, answer: Action) -> list[Action]:
    """Every legal action of ``position`` but ``answer``."""
    return [action for action in legal_actions(position) if action != answer]
