"""A puzzle's themes, each on a hand-built position, citing the RULES.md section that makes it."""

from __future__ import annotations

from typing import Any

import pytest

from ghostparty.analysis.themes import SAVES, cost, reason, risk, themes
from ghostparty.rules import Move, Pass, Place, Position, legal_actions, position_from_dict

from .positions import hugo_position


def position(**changes: Any) -> Position:
    """``hugo`` 2 players, clock 24:00 (Hugo's speed 3, §5.3), Hugo on G10, seat 0 rolled 2."""
    base = {
        "phase": "move",
        "roll": 2,
        "guests": [
            ["G7", "G30", "R:tower", "R:library", "R:fireplace", "R:bedchamber"],
            ["G33", "G34", "G36", "G37", "G38", "R:portrait-hall"],
        ],
    }
    return position_from_dict(hugo_position(**{**base, **changes}))


def others(at: Position, answer: Any) -> list[Any]:
    return [action for action in legal_actions(at) if action != answer]


def found(at: Position, answer: Any) -> list[str]:
    assert answer in legal_actions(at)
    return themes(at, answer, others(at, answer))


def test_entering_a_room_hides_the_guest() -> None:
    # §4.2: G7 reaches the chapel's door (G8) with step 1 and enters with step 2 ≤ 2 (§4.2.5).
    at = position()
    assert "hides" in found(at, Move("G7", "R:chapel"))
    assert "hides" not in found(at, Move("G7", "G9"))


def test_a_green_room_is_a_lucky_room_in_both_rule_sets() -> None:
    # §4.2.4: a green room needs the exact roll; §4.5: it takes 3 off the score.
    at = position(guests=[["G25", "G30", "R:tower", "R:library", "R:fireplace", "R:bedchamber"], position_guests_1()])
    assert found(at, Move("G25", "R:ballroom"))[:2] == ["hides", "lucky-room"]
    assert (
        "lucky room takes 3 points off"
        in reason(at, Move("G25", "R:ballroom"), ["hides", "lucky-room"], 0.6, (Move("G30", "G32"), 0.4))["en"]
    )
    assert "lucky-room" not in found(at, Move("G30", "G32"))


def position_guests_1() -> list[str]:
    return ["G33", "G34", "G36", "G37", "G38", "R:portrait-hall"]


def test_entering_an_occupied_room_with_the_exact_roll_expels() -> None:
    # §4.3: the occupant goes to the door square; §4.2.4: only with the exact roll.
    at = position(
        guests=[
            ["G7", "G30", "R:tower", "R:library", "R:fireplace", "R:bedchamber"],
            ["G33", "G34", "G36", "G37", "G38", "R:chapel"],
        ]
    )
    assert found(at, Move("G7", "R:chapel"))[:2] == ["expels", "hides"]


def test_midnight_party_never_expels() -> None:
    # §8.2: an occupied room cannot be entered at all.
    at = position(
        rules="midnight-party",
        clock=None,
        scores=[0, 0],
        guests=[
            ["G5", "G30", "R:tower", "R:library", "R:fireplace", "R:bedchamber"],
            ["G33", "G34", "G36", "G37", "G38", "R:chapel"],
        ],
    )
    assert Move("G5", "R:chapel") not in legal_actions(at)
    assert all("expels" not in found(at, action) for action in legal_actions(at))


def test_moving_out_of_hugos_reach_escapes_him() -> None:
    # §5.1, §5.3: at 24:00 Hugo moves 3, so from G10 seat 1's HUGO roll reaches G11 … G13 (§5.2);
    # after a 2 from G12 the guest stands on G14, out of his reach before seat 0's next turn.
    at = position(guests=[["G12", "G30", "R:tower", "R:library", "R:fireplace", "R:bedchamber"], position_guests_1()])
    assert "escapes-hugo" in found(at, Move("G12", "G14"))
    assert "escapes-hugo" not in found(at, Move("G30", "G32"))  # G30 was never in reach


def test_walking_onto_hugo_is_no_escape() -> None:
    # §4.4: a guest that ends on Hugo's square is captured at once.
    at = position(guests=[["G8", "G30", "R:tower", "R:library", "R:fireplace", "R:bedchamber"], position_guests_1()])
    assert "escapes-hugo" not in found(at, Move("G8", "G10"))
    assert cost(at, Move("G8", "G10")) >= 10  # §6.1, §6.2: onto step 10, 10 spooky points


def test_leaving_the_cellar() -> None:
    # §4.1: a guest on the cellar steps reaches square 0 with step 1.
    at = position(guests=[["G7", "C10", "R:tower", "R:library", "R:fireplace", "R:bedchamber"], position_guests_1()])
    assert "leaves-cellar" in found(at, Move("C10", "G1"))


def test_saving_points_against_every_alternative() -> None:
    # §5.2, §6.1, §6.2: every move but G12 → G14 leaves G12 in Hugo's reach (1/3 of a HUGO
    # roll), which costs the highest free step, 10: 3.3 expected points.
    at = position(guests=[["G12", "G30", "R:tower", "R:library", "R:fireplace", "R:bedchamber"], position_guests_1()])
    answer = Move("G12", "G14")
    assert risk(at, 0) == pytest.approx(10 / 3)
    assert "saves-points" in found(at, answer)
    said = reason(at, answer, found(at, answer), 0.7, (Move("G30", "G32"), 0.4))
    assert "3.3 spooky points" in said["en"] and "3,3 Spukpunkte" in said["de"]
    # With nothing in reach, no move saves anything.
    calm = position()
    assert all(cost(calm, action) < SAVES for action in legal_actions(calm))
    assert "saves-points" not in found(calm, Move("G7", "R:chapel"))


def test_ending_a_midnight_party_round_and_passing() -> None:
    # §8.4: the round ends when no guest stands on the gallery (here also every room is taken);
    # §8.3: with one guest on the gallery the player may pass.
    at = position(
        rules="midnight-party",
        clock=None,
        scores=[0, 0],
        hugo="G20",
        guests=[
            ["G1", "R:fireplace", "R:chapel", "R:abandoned-room", "R:tower", "R:armory"],
            ["R:portrait-hall", "R:ballroom", "R:banquet-hall", "R:bedchamber", "R:music-room", "C10"],
        ],
    )
    assert Pass() in legal_actions(at)
    assert found(at, Move("G1", "R:library")) == ["hides", "ends-round"]
    assert found(at, Pass()) == ["passes"]
    assert reason(at, Pass(), ["passes"], 0.5, (Move("G1", "G3"), 0.3))["de"].startswith("Aussetzen: ")


def test_placement_is_its_own_theme() -> None:
    # §2.2: a guest is placed on any empty gallery square.
    at = position(
        phase="place",
        roll=None,
        hugo="START",
        clock="23:45",
        guests=[["G7"], ["G9"]],
        place_queue=[0, 1, 0, 1, 0, 1, 0, 1, 0, 1],
    )
    assert found(at, Place("G20")) == ["placement"]
    assert reason(at, Place("G20"), ["placement"], 0.55, (Place("G21"), 0.4))["en"].startswith("place on G20: ")


def test_themes_need_a_decision() -> None:
    with pytest.raises(ValueError, match="phase 'move' or 'place'"):
        themes(position(phase="roll", roll=None), Pass(), [])


def test_keeping_the_guests_in_the_rooms() -> None:
    # §3.1: in hugo a number must move a guest; §4.1: a guest in a room steps out onto its door
    # square; §5.2: only guests on the gallery are captured.
    at = position()
    leaving = Move("R:tower", "G14")
    assert leaving in legal_actions(at)
    assert "stays-hidden" in themes(at, Move("G30", "G32"), [leaving, Move("G7", "G9")])
    assert "stays-hidden" not in themes(at, Move("G30", "G32"), [Move("G7", "G9"), leaving])
    assert "stays-hidden" not in themes(at, leaving, [Move("R:library", "G3")])
    said = reason(at, Move("G30", "G32"), ["stays-hidden"], 0.6, (leaving, 0.4))
    assert "keeps the guests in the rooms hidden" in said["en"] and "in den Zimmern versteckt" in said["de"]
