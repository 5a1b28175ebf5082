"""Hand-built positions (FORMAT.md dicts) where the right decision follows from RULES.md.

Each builder states why its answer is right; the tests check ``legal_actions`` first, so
that a position is the one its docstring describes.
"""

from __future__ import annotations

from tests.rules.builders import Pos, hugo_pos, mp_pos

# Six players have two guests each (RULES.md §1.5): few legal moves, easy to reason about.
# Seats 1-5 of the six-player positions: the gallery guests stand far from the action.
SIX_OTHERS = [
    ["G1", "G11"],
    ["G12", "R:chapel"],
    ["R:library", "R:fireplace"],
    ["R:tower", "R:armory"],
    ["R:portrait-hall", "R:bedchamber"],
]


def only_safe_room() -> Pos:
    """Clock 4:00 (Hugo's speed 7, §5.3), Hugo on G5 right behind seat 0's guest on G6.

    Seat 0 rolled 4. G6→G10 leaves the guest 5 squares ahead of Hugo: a single HUGO
    before seat 0's next turn catches it. G6→R:chapel (door 8: reached with step 2,
    entered with step 3 ≤ 4, free and neutral, §4.2.5) hides it for good. Every other
    move leaves it one square ahead of Hugo. The chapel is the only safe choice.
    """
    return hugo_pos(
        [
            ["G6", "R:library", "R:fireplace", "R:tower", "R:portrait-hall", "R:bedchamber"],
            ["G30", "G31", "G32", "R:armory", "R:ballroom", "R:banquet-hall"],
        ],
        clock="4:00",
        hugo="G5",
        roll=4,
    )


ONLY_SAFE_ROOM_LEGAL = {
    ("G6", "G10"),
    ("G6", "R:chapel"),
    ("R:library", "G5"),  # the fireplace on the way is seat 0's own (§4.2.3)
    ("R:fireplace", "G6"),
    ("R:tower", "G16"),
    ("R:portrait-hall", "G25"),
    ("R:bedchamber", "G38"),
}


def green_room() -> Pos:
    """Six players; seat 0 rolled 2 with guests on G5 and G30, Hugo on G35.

    G30→R:banquet-hall (door 31: step 1, entered with step 2 = the whole roll, §4.2.4)
    takes 3 off seat 0's score at once (§4.5) and hides the guest. G30→G32 and G5→G7
    are plain gallery moves that change no score (the guests stay 37 and 10 squares
    ahead of Hugo). The green room is strictly better.
    """
    return hugo_pos([["G5", "G30"], *SIX_OTHERS], hugo="G35", roll=2)


GREEN_ROOM_LEGAL = {("G5", "G7"), ("G30", "G32"), ("G30", "R:banquet-hall")}


def capture_to_avoid() -> Pos:
    """Six players; seat 0 rolled 2 with guests on G18 and G24, Hugo on G20.

    G18→G20 ends on Hugo's square: captured at once onto C10, +10 points (§4.4, §6).
    G24→G26 is a plain move (the ballroom's door is reached with the last step). Taking
    10 points now can never beat a move that takes none.
    """
    return hugo_pos([["G18", "G24"], *SIX_OTHERS], hugo="G20", roll=2)


CAPTURE_TO_AVOID_LEGAL = {("G18", "G20"), ("G24", "G26")}


def expel_onto_hugo() -> Pos:
    """Seat 0 rolled 2; Hugo stands on G22, the portrait hall's door; seat 1 is inside.

    G21→R:portrait-hall passes Hugo (allowed, §4.4) and enters with the exact roll,
    expelling seat 1's guest onto G22, where it is captured at once: seat 1 scores 10
    (§4.3, §6.2). No other move changes a score, and the expelling guest is hidden too.
    """
    return hugo_pos(
        [
            ["G12", "G21", "R:library", "R:fireplace", "R:banquet-hall", "R:bedchamber"],
            ["G5", "G6", "R:chapel", "R:armory", "R:portrait-hall", "R:ballroom"],
        ],
        hugo="G22",
        roll=2,
    )


EXPEL_ONTO_HUGO_LEGAL = {
    ("G12", "G14"),
    ("G12", "R:tower"),
    ("G21", "G23"),
    ("G21", "R:portrait-hall"),
    ("R:library", "G3"),
    ("R:fireplace", "G4"),
    ("R:banquet-hall", "G32"),
    ("R:bedchamber", "G36"),
}


def mp_pass() -> Pos:
    """Midnight Party; seat 0 rolled 1 with a single guest on the gallery, on G19.

    Its only move, G19→G20, ends on Hugo's square: captured onto C9 (C10 is taken),
    9 points at the round's end (§6, §8.5). Passing is allowed with exactly one gallery
    guest (§8.3) and keeps it 39 squares ahead of Hugo. Pass.
    """
    return mp_pos(
        [
            ["G19", "R:library", "R:fireplace", "R:tower", "R:bedchamber", "C10"],
            ["G5", "G6", "R:chapel", "R:armory", "R:portrait-hall", "R:ballroom"],
        ],
        hugo="G20",
        roll=1,
    )
