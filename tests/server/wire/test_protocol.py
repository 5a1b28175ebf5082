"""Updates are built once per version and encoded once; the odds only when wanted."""

from __future__ import annotations

import json
from dataclasses import replace
from random import Random
from typing import Any

import pytest

from ghostparty.rules import Game, Roll, legal_actions
from ghostparty.server.common.model import PLAYING, Seat, Table
from ghostparty.server.wire import protocol
from ghostparty.server.wire.protocol import Frame, update_frame


def _playing() -> tuple[Table, Game]:
    game = Game("hugo", 2, first_player=0)
    while game.state.phase == "place":
        game.push(legal_actions(game.state)[0])
    table = Table(
        id="t1",
        rules="hugo",
        players=2,
        seats=(Seat(0, "human", name="Ann"), Seat(1, "human", name="Bob")),
        seed=1,
        status=PLAYING,
        version=9,
        first_player=0,
        to_move=game.state.to_move,
    )
    return table, game


def test_three_texts_one_update() -> None:
    table, game = _playing()
    frame = update_frame(table, {0}, game.state, None)
    everyone, plain = json.loads(frame.everyone), json.loads(frame.plain)
    assert everyone["legal"] == [] and everyone["odds"] == []
    assert plain["legal"] == [{"roll": True}] and plain["odds"] == []
    mover = json.loads(frame.mover)
    assert mover["legal"] == plain["legal"] and mover["odds"] and mover["odds"][0]["location"].startswith("G")
    assert {k: v for k, v in mover.items() if k != "odds"} == {k: v for k, v in plain.items() if k != "odds"}
    assert frame.text_for((1,)) is frame.everyone
    assert frame.text_for((0, 1), odds=False) is frame.plain
    assert frame.text_for((0,)) is frame.mover


def test_the_odds_are_computed_only_for_a_client_that_shows_them(monkeypatch: pytest.MonkeyPatch) -> None:
    table, game = _playing()
    calls: list[object] = []
    real = protocol.capture_odds
    protocol._odds.cache_clear()

    def counting(position: Any, seat: Any = None) -> Any:
        calls.append(position)
        return real(position, seat)

    monkeypatch.setattr(protocol, "capture_odds", counting)
    frame = update_frame(table, (), game.state, None)
    frame.text_for((0,), odds=False)
    frame.text_for((1,))
    assert calls == []
    frame.text_for((0,))
    frame.text_for((0,))
    assert len(calls) == 1


def test_a_frame_crosses_processes_as_bytes_unchanged() -> None:
    table, game = _playing()
    for frame in (
        update_frame(table, {0, 1}, game.state, {"index": 3, "seat": 0, "action": {"roll": 4}, "lines": ["ü"]}),
        update_frame(replace(table, status="over", to_move=None), (), game.state, None),
    ):
        again = Frame.from_bytes(frame.to_bytes())
        assert (again.table_id, again.version, again.to_move) == (frame.table_id, frame.version, frame.to_move)
        assert (again.everyone, again.plain, again.mover) == (frame.everyone, frame.plain, frame.mover)


def test_the_moves_effects_go_only_to_a_client_that_shows_them() -> None:
    table, game = _playing()
    game.push(Roll(5))  # a move to choose next
    table = replace(table, to_move=game.state.to_move)
    frame = update_frame(table, (), game.state, None)
    plain, mover = json.loads(frame.plain), json.loads(frame.mover)
    assert plain["legal"] and plain["effects"] == []  # a program that shows no odds: nothing computed
    assert len(mover["effects"]) == len(mover["legal"]) == len(plain["legal"])
    assert mover["effects"] == protocol.effects_for(table, game.state, (table.to_move,))


def test_a_frame_sent_before_its_odds_were_asked_for_leaves_them_to_the_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    """Across a whole game (every phase, the mover away or not): the sender computes no
    odds for the wire, and the reader's mover text is the sender's, to the byte."""
    calls: list[object] = []
    real = protocol.capture_odds

    def counting(position: Any, seat: Any = None) -> Any:
        calls.append(position)
        return real(position, seat)

    monkeypatch.setattr(protocol, "capture_odds", counting)
    rng = Random(5)
    game = Game("hugo", 3, first_player=1)
    seats = (Seat(0, "human", name="Ann"), Seat(1, "human", name="Bob", away=True), Seat(2, "bot", bot="random"))
    table = Table(id="t2", rules="hugo", players=3, seats=seats, seed=1, status=PLAYING, first_player=1)
    kinds: set[str] = set()
    while True:
        over = game.state.phase == "over"
        shown = replace(table, version=len(game.history), to_move=None if over else game.state.to_move)
        if over:
            shown = replace(shown, status="over", winners=(0,))
        protocol._odds.cache_clear()
        protocol._effects.cache_clear()
        sender = update_frame(shown, {0, 2}, game.state, None)
        calls.clear()
        wire = sender.to_bytes()
        assert calls == []  # nothing computed for the wire
        reader = Frame.from_bytes(wire)
        assert (reader.everyone, reader.plain) == (sender.everyone, sender.plain)
        assert reader.mover == sender.mover  # the reader worked out what the sender would have
        assert Frame.from_bytes(sender.to_bytes()).mover == sender.mover  # and once known, it travels
        kinds.add(f"{game.state.phase} {'plain' if sender.plain is sender.everyone else 'legal'}")
        if over:
            break
        game.push(rng.choice(legal_actions(game.state)))
    assert {"roll legal", "move legal", "roll plain", "move plain"} <= kinds  # Bob away: no legal for him


@pytest.mark.parametrize(
    "wire",
    [b"9 0 3 0 ? t\nabc", b"9 0 3 0 + t\nabc", b"9 0 3 0 = t\nabcd", b"9 0 9 0 ? t\nabc", b"9 0 3 0 * t\nabc"],
)
def test_a_frame_whose_header_and_body_disagree_is_refused(wire: bytes) -> None:
    if wire == b"9 0 3 0 ? t\nabc":
        assert Frame.from_bytes(wire).everyone == "abc"
        return
    with pytest.raises(ValueError):
        Frame.from_bytes(wire)
