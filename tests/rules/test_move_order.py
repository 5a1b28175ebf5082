"""Snapshots of the documented order of legal actions (``movegen`` docstring).

* roll: 1, 2, 4, 5, HUGO;
* place: empty gallery squares ascending;
* move: by source in board order (gallery ascending, rooms in board order, the step),
  for each source the plain gallery move first, then the rooms in the order the path
  reaches their doors; the pass last.

Seeded bots, RL action indices and golden files rely on it, so the exact lists are pinned.
"""

from __future__ import annotations

from ghostparty import Game

from .builders import hugo_pos, moves, mp_pos


def mv(a: str, b: str) -> dict[str, str]:
    return {"from": a, "to": b}


def test_roll_order() -> None:
    g = Game.from_position(hugo_pos([["G1"] * 6, ["G2"] * 6]))
    assert g.legal_actions() == [{"roll": 1}, {"roll": 2}, {"roll": 4}, {"roll": 5}, {"roll": "hugo"}]


def test_place_order() -> None:
    g = Game("midnight-party", players=2, first_player=1)
    for square in ("G39", "G0", "G17"):
        g.apply({"place": square})
    assert g.legal_actions() == [{"place": f"G{i}"} for i in range(1, 39) if i != 17]


def test_move_order_sources_in_board_order() -> None:
    """Sources G1, G39, then rooms library, portrait-hall, then the step C9 - whatever the input order.

    Roll 5, Hugo on G20, seat 0 holds the library: from G1 the library (step 2) is blocked and the
    fireplace (step 3) open; from G39 and C9 the path is G0..G4, the fireplace at step 5.
    """
    pos = hugo_pos([["C8", "R:portrait-hall", "G39", "R:library", "G1", "C9"], ["G30"] * 6], roll=5)
    assert moves(pos) == [
        mv("G1", "G6"),
        mv("G1", "R:fireplace"),
        mv("G39", "G4"),
        mv("G39", "R:fireplace"),
        mv("R:library", "G6"),
        mv("R:library", "R:fireplace"),
        mv("R:portrait-hall", "G26"),
        mv("C9", "G4"),
        mv("C9", "R:fireplace"),
    ]


def test_move_order_rooms_in_path_order() -> None:
    """Per source: the gallery square, then each room as its door is reached (standing on one: first)."""
    pos = hugo_pos([["G35", "G30", "G12", "G0", "G30", "G30"], ["G21"] * 6], roll=5)
    assert moves(pos) == [
        mv("G0", "G5"),
        mv("G0", "R:library"),
        mv("G0", "R:fireplace"),
        mv("G12", "G17"),
        mv("G12", "R:tower"),
        mv("G30", "G35"),
        mv("G35", "G0"),
        mv("G35", "R:bedchamber"),
    ]


def test_move_order_path_order_is_not_board_order() -> None:
    """Rooms come in the order the path reaches them, not in board order or by exactness."""
    pos = mp_pos([["G36", "G33", "G30", "G30", "G30", "G30"], ["G21"] * 6], roll=5)
    # MP board: G33 stands on the bedchamber door (step 1), passes the music-room door G36 (step 4)
    # G36 stands on the music-room door (step 1); G37 G38 G39 G0 G1: no other door
    assert moves(pos) == [
        mv("G30", "G35"),  # G31..G35: the bedchamber door G33 at step 3 -> bedchamber at step 4
        mv("G30", "R:bedchamber"),
        mv("G33", "G38"),
        mv("G33", "R:bedchamber"),
        mv("G33", "R:music-room"),
        mv("G36", "G1"),
        mv("G36", "R:music-room"),
    ]


def test_pass_comes_last() -> None:
    pos = mp_pos([["G5", "R:library", "R:tower", "C10", "C9", "C8"], ["G31"] * 6], roll=4)
    assert moves(pos) == [mv("G5", "G9"), mv("G5", "R:chapel"), {"pass": True}]
