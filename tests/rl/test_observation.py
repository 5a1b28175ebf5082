"""The observation: fixed shape, within its bounds, and the position read back from it."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("numpy", reason="the rl extra is not installed: pip install -e '.[rl]'")
pytest.importorskip("gymnasium", reason="the rl extra is not installed: pip install -e '.[rl]'")

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ghostparty.rl.actions import slot_locations
from ghostparty.rl.aec import observation_space
from ghostparty.rl.observation import FIELDS, SIZE, encode, fields, view
from ghostparty.rules import HUGO_RULES, MIDNIGHT_PARTY, Position, start_position

from .games import positions

PHASES = ["place", "roll", "move", "over"]


def read_back(vector: Any, position: Position, observer: int) -> dict[str, Any]:
    """What the documented fields say about the position, in absolute seats and locations."""
    f = fields(vector)
    players = int(f["in_game"].sum())
    board = position.ruleset.board
    loc_of = slot_locations(board)

    def seat(rel: int) -> int:
        return (rel + observer) % players

    def seats(row: Any) -> tuple[int, ...]:
        return tuple(sorted(seat(int(r)) for r in np.flatnonzero(row)))

    guests: list[tuple[int, ...]] = [()] * players
    for rel in range(players):
        locs = [loc_of[int(s)] for s in np.flatnonzero(f["guests"][rel]) for _ in range(int(f["guests"][rel][s]))]
        guests[seat(rel)] = tuple(sorted(locs))
    (to_move,) = seats(f["to_move"])
    (first,) = seats(f["first_player"])
    (phase,) = np.flatnonzero(f["phase"])
    rolled = np.flatnonzero(f["roll"])
    clock = np.flatnonzero(f["clock"])
    (round_,) = np.flatnonzero(f["round"])
    (hugo,) = np.flatnonzero(f["hugo"])
    return {
        "players": players,
        "rules": ["hugo", "midnight-party"][int(np.flatnonzero(f["rules"])[0])],
        "guests": tuple(guests),
        "to_place": tuple(int(f["to_place"][(s - observer) % players]) for s in range(players)),
        "hugo": loc_of[int(hugo)],
        "scores": tuple(int(f["scores"][(s - observer) % players]) for s in range(players)),
        "to_move": to_move,
        "first_player": first,
        "winners": seats(f["winners"]),
        "phase": PHASES[int(phase)],
        "roll": [1, 2, 4, 5][int(rolled[0])] if len(rolled) else None,
        "clock": int(clock[0]) if len(clock) else None,
        "round": int(round_) + 1,
        "hugo_speed": float(f["hugo_speed"][0]),
        "empty_rows": float(f["guests"][players:].sum() + f["scores"][players:].__abs__().sum()),
    }


def expected(position: Position) -> dict[str, Any]:
    return {
        "players": position.players,
        "rules": position.ruleset.id,
        "guests": position.guests,
        "to_place": tuple(position.place_queue.count(s) for s in range(position.players)),
        "hugo": position.hugo,
        "scores": position.scores,
        "to_move": position.to_move,
        "first_player": position.first_player,
        "winners": position.winners,
        "phase": position.phase,
        "roll": position.roll,
        "clock": position.clock,
        "round": position.round,
        "hugo_speed": float(position.hugo_speed),
        "empty_rows": 0.0,
    }


def test_the_fields_fill_the_vector_in_order() -> None:
    assert SIZE == 610
    assert sum(int(np.prod(shape)) for _, shape in FIELDS) == SIZE
    vector = np.arange(SIZE, dtype=np.float32)
    flat = np.concatenate([v.ravel() for v in fields(vector).values()])
    assert (flat == vector).all()  # contiguous, no gap, no overlap
    view(vector, "scores")[3] = -1.0  # views write through
    assert -1.0 in vector


def test_a_start_position_as_documented() -> None:
    position = start_position(HUGO_RULES, 3, first_player=1)
    f = fields(encode(position, observer=2))
    assert f["guests"].sum() == 0
    assert list(f["to_place"][:4]) == [5, 5, 5, 0]
    assert f["hugo"][60] == 1  # START
    assert list(f["scores"][:4]) == [10, 10, 10, 0]
    assert list(f["in_game"][:4]) == [1, 1, 1, 0]
    assert list(f["to_move"][:3]) == [0, 0, 1]  # seat 1 sits two seats after the observer, seat 2
    assert list(f["phase"]) == [1, 0, 0, 0]
    assert list(f["clock"]) == [1, 0, 0, 0, 0, 0, 0]
    assert list(f["rules"]) == [1, 0]
    assert f["hugo_speed"][0] == 3
    mp = fields(encode(start_position(MIDNIGHT_PARTY, 8), observer=0))
    assert mp["hugo"][51] == 1  # step 10
    assert mp["clock"].sum() == 0 and list(mp["rules"]) == [0, 1]
    assert mp["hugo_speed"][0] == 2  # §5.1: speed 2 with 7 or 8 players
    with pytest.raises(ValueError, match=r"observer must be a seat 0 to 2, got 3"):
        encode(position, 3)


@settings(max_examples=10)
@given(
    rules=st.sampled_from(["hugo", "midnight-party"]),
    players=st.integers(min_value=2, max_value=8),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    first=st.integers(min_value=0, max_value=7),
)
def test_the_observation_matches_the_position(rules: str, players: int, seed: int, first: int) -> None:
    """Every position of a random game, seen from every seat in turn, reads back as itself."""
    space = observation_space()["observation"]
    for i, position in enumerate(positions(rules, players, seed, first)):
        observer = i % players
        vector = encode(position, observer)
        assert vector.shape == (SIZE,) and vector.dtype == np.float32
        assert space.contains(vector)
        assert read_back(vector, position, observer) == expected(position)
