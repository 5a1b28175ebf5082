"""``ghostparty.analysis`` and ``ghostparty analyze``: the guest tracker on handcrafted and
random games, capture odds, seat statistics, position odds, the heat-map files, the
command line, and determinism per seed."""

from __future__ import annotations

import json
from pathlib import Path
from random import Random
from typing import Any

import pytest
from click.testing import CliRunner

from ghostparty.analysis import (
    GuestTracker,
    Settings,
    TrackingError,
    analyze_position,
    heatmap_paths,
    save_heatmap,
    simulate,
)
from ghostparty.analysis.ring import ring_layout
from ghostparty.analysis.tracker import WAITING
from ghostparty.bots import make_bot
from ghostparty.cli import analyze as analyze_module
from ghostparty.cli.main import cli
from ghostparty.rules import (
    GUESTS_PER_PLAYER,
    HUGO_BOARD,
    MIDNIGHT_PARTY_BOARD,
    OVER,
    Event,
    Move,
    Place,
    Position,
    Roll,
    apply,
    legal_actions,
    position_from_dict,
    ruleset,
    sample_roll,
    start_position,
)
from ghostparty.rules.events import Captured, GuestMoved, RoundEnded

from .positions import ballroom_placement, hugo_position

# -- helpers ---------------------------------------------------------------------------------


class Driver:
    """Applies actions to a position and feeds a tracker, checking it after every action."""

    def __init__(self, position: Position) -> None:
        self.position = position
        self.tracker = GuestTracker(position)
        self.events: list[Event] = []

    def do(self, action: Move | Roll | Place) -> list[Event]:
        events: list[Event] = []
        self.position = apply(self.position, action, events)
        self.tracker.feed(events)
        self.tracker.check(self.position)
        self.events += events
        return events

    def where(self, seat: int, number: int) -> str:
        loc = self.tracker.guests[seat][number].location
        return "waiting" if loc == WAITING else self.position.board.name(loc)


# -- the tracker, by hand ----------------------------------------------------------------------


def test_tracker_follows_capture_expulsion_room_to_room_and_cellar_exit() -> None:
    game = Driver(position_from_dict(hugo_position()))
    t = game.tracker
    # Numbered in each seat's sorted order: gallery ascending, rooms in board order, steps.
    assert [game.where(0, n) for n in range(6)] == ["G11", "G11", "G20", "G30", "R:library", "R:tower"]
    assert [game.where(1, n) for n in range(6)] == ["G9", "G12", "G25", "G26", "R:armory", "C9"]

    # Capture: Hugo (speed 3 at 24:00) sweeps G11 (both of seat 0 onto C10), G12 (onto C8), G13.
    game.do(Roll("hugo"))
    assert game.where(0, 0) == game.where(0, 1) == "C10"
    assert game.where(1, 1) == "C8"
    assert t.guests[0][0].ledger(1).capture_points == 10 and t.guests[0][1].ledger(1).captures == 1
    assert t.guests[1][1].ledger(1).capture_points == 8

    # Expulsion onto Hugo's square: seat 1 enters the tower (door 13) with an exact 5; seat 0's
    # guest there is put on G13, where Hugo stands, and captured onto C7.
    game.do(Roll(5))
    game.do(Move("G9", "R:tower"))
    assert game.where(1, 0) == "R:tower"
    assert game.where(0, 5) == "C7"
    assert t.guests[0][5].ledger(1).capture_points == 7

    # Room to room: seat 0's library guest (door 2) goes on into the fireplace (door 3).
    game.do(Roll(4))
    game.do(Move("R:library", "R:fireplace"))
    assert game.where(0, 4) == "R:fireplace"

    # Leaving the cellar: seat 1's highest step is C9 (its guest number 5), which leaves first.
    game.do(Roll(2))
    game.do(Move("C9", "G1"))
    assert game.where(1, 5) == "G1"
    assert game.where(1, 1) == "C8"

    # Two guests of seat 0 share C10: the lower number leaves first, deterministically.
    game.do(Roll(1))
    game.do(Move("C10", "G0"))
    assert game.where(0, 0) == "G0" and game.where(0, 1) == "C10"

    captured = sum(len(e.seats) for e in game.events if isinstance(e, Captured))
    assert captured == sum(ledger.captures for g in t.all_guests() for ledger in g.ledgers.values()) == 4
    assert game.position.scores == (10 + 10 + 10 + 7, 10 + 8)


def test_tracker_follows_midnight_party_round_change() -> None:
    data = {
        "format": "hugo-position/1",
        "rules": "midnight-party",
        "players": 2,
        "first_player": 0,
        "round": 1,
        "phase": "roll",
        "to_move": 0,
        "roll": None,
        "clock": None,
        "hugo": "G5",
        "scores": [0, 0],
        "round_scores": [],
        "guests": [
            ["G6", "R:library", "R:chapel", "R:tower", "C10", "C8"],
            ["R:fireplace", "R:abandoned-room", "R:armory", "C9", "C7", "C6"],
        ],
        "place_queue": [],
        "winners": [],
    }
    game = Driver(position_from_dict(data))
    t = game.tracker
    # Hugo captures the last gallery guest onto C5: round 1 ends (§8.4) and round 2 begins.
    events = game.do(Roll("hugo"))
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.scores == (10 + 8 + 5, 1 + 1 + 9 + 7 + 6)
    assert t.round == 2
    assert game.position.phase == "place" and game.position.place_queue == (0, 1, 0, 1, 1, 0)
    # Rooms emptied onto their doors; cellar guests wait.
    assert [game.where(0, n) for n in range(6)] == ["waiting", "G2", "G7", "G14", "waiting", "waiting"]
    assert [game.where(1, n) for n in range(6)] == ["G3", "G11", "G18", "waiting", "waiting", "waiting"]
    # The round's points are booked to the guests that earned them.
    assert [g.ledger(1).points for g in t.guests[0]] == [5, 0, 0, 0, 10, 8]
    assert [g.ledger(1).points for g in t.guests[1]] == [0, 1, 1, 9, 7, 6]
    # Placing back: the guest from the highest-valued step first (§8.6.3).
    for square in ("G20", "G21", "G22", "G23", "G24", "G25"):
        game.do(Place(square))
    assert [game.where(0, n) for n in (4, 5, 0)] == ["G20", "G22", "G25"]
    assert [game.where(1, n) for n in (3, 4, 5)] == ["G21", "G23", "G24"]
    assert t.guests[0][0].placements == [(2, 25)]
    assert t.guests[0][0].start is None  # not placed at the start of the game under watch
    assert str(game.position.phase) == "roll"


def test_tracker_rejects_events_that_do_not_fit() -> None:
    tracker = GuestTracker(position_from_dict(hugo_position()))
    with pytest.raises(TrackingError, match="seat 0 has no tracked guest on G5"):
        tracker.observe(GuestMoved(0, "G5", "G6", ("G6",)))
    with pytest.raises(TrackingError, match="2 guests of seat 1 captured, 1 tracked there"):
        tracker.observe(Captured("G12", (1, 1), "C10", 10))


# -- the tracker on random games -------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "players"), [("hugo", 2), ("hugo", 5), ("midnight-party", 3), ("midnight-party", 8)])
def test_tracker_agrees_with_every_position_and_score_in_random_games(rules: str, players: int) -> None:
    bots = [make_bot("random")] * players
    for game in range(12):
        rng = Random(f"{rules}{players}{game}")
        position = start_position(ruleset(rules), players)
        tracker = GuestTracker(position)
        captured = 0
        while position.phase != OVER:
            events: list[Event] = []
            action = sample_roll(rng) if position.phase == "roll" else bots[position.to_move].choose(position, rng)
            position = apply(position, action, events)
            tracker.feed(events)  # raises TrackingError when a round's or the game's points disagree
            tracker.check(position)
            captured += sum(len(e.seats) for e in events if isinstance(e, Captured))
        guests = tracker.all_guests()
        assert len(guests) == players * GUESTS_PER_PLAYER[players]
        assert all(g.start is not None for g in guests)
        assert captured == sum(ledger.captures for g in guests for ledger in g.ledgers.values())
        for seat in range(players):
            booked = sum(g.total().points for g in tracker.guests[seat])
            if rules == "hugo":
                assert booked == position.scores[seat] - 10
            else:
                assert booked == position.scores[seat]
                assert sum(g.ledger(1).points for g in tracker.guests[seat]) == position.round_scores[0][seat]


# -- capture odds and seats --------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["hugo", "midnight-party"])
def test_squares_after_the_arrow_are_more_dangerous_under_random_play(rules: str) -> None:
    simulation = simulate(Settings(rules=rules, players=4, games=80, seed=3))
    stats = simulation.squares()
    assert len(stats) == 40
    assert sum(s.samples for s in stats) == 80 * 16
    for s in stats:
        assert 0.0 <= s.capture_probability <= 1.0
        assert 0.0 <= s.ci_low <= s.capture_probability <= s.ci_high <= 1.0
        assert s.mean_capture_points >= 0
    early = sum(stats[sq].capture_probability for sq in range(1, 11)) / 10
    late = sum(stats[sq].capture_probability for sq in range(30, 40)) / 10
    assert early > late + 0.1, (early, late)
    assert {s.door_of for s in stats if s.door_of} == {room.id for room in ruleset(rules).board.rooms}


def test_seats_split_shared_wins_and_add_up() -> None:
    simulation = simulate(Settings(rules="hugo", players=3, games=60, seed=1, placement="bot"))
    seats = simulation.seats()
    assert len(seats) == 3
    assert sum(s.wins for s in seats) == pytest.approx(60)
    assert sum(s.win_rate for s in seats) == pytest.approx(1)
    for s in seats:
        assert 0 <= s.ci_low <= s.win_rate <= s.ci_high <= 1
    assert simulation.tally.ends and sum(simulation.tally.ends.values()) == 60


def test_midnight_party_horizons() -> None:
    round1 = simulate(Settings(rules="midnight-party", players=2, games=15, seed=2, horizon="round"))
    whole = simulate(Settings(rules="midnight-party", players=2, games=15, seed=2, horizon="game"))
    a, b = round1.tally.squares, whole.tally.squares
    assert a.samples == b.samples
    assert all(x <= y for x, y in zip(a.captured, b.captured, strict=True))
    assert sum(a.captures) < sum(b.captures)


def test_wilson_interval() -> None:
    from ghostparty.sim.stats import wilson_interval as wilson

    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)


def test_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        simulate(Settings(bot="nobody"))
    with pytest.raises(ValueError, match="placement"):
        simulate(Settings(placement="corner"))


# -- determinism -------------------------------------------------------------------------------------


def test_same_seed_same_numbers_whatever_the_processes() -> None:
    settings = Settings(rules="hugo", players=4, games=40, seed=11)
    one = simulate(settings, jobs=1)
    two = simulate(settings, jobs=2)
    assert one.tally == two.tally
    assert one.squares() == two.squares() and one.seats() == two.seats()
    other = simulate(Settings(rules="hugo", players=4, games=40, seed=12), jobs=1)
    assert other.tally != one.tally


# -- positions ----------------------------------------------------------------------------------------


def test_position_odds_one_entry_per_legal_move() -> None:
    position = position_from_dict(hugo_position(phase="move", roll=4, to_move=1))
    result = analyze_position(position, games=30, seed=5)
    (outcome,) = result.outcomes
    assert outcome.roll is None
    assert sorted(map(repr, (m.action for m in outcome.moves))) == sorted(map(repr, legal_actions(position)))
    for m in outcome.moves:
        assert m.games == 30
        assert 0.0 <= m.ci_low <= m.win_probability <= m.ci_high <= 1.0
        assert m.mean_final_score == pytest.approx(position.scores[1] + m.mean_points)
    wins = [m.win_probability for m in outcome.moves]
    assert wins == sorted(wins, reverse=True)
    again = analyze_position(position, games=30, seed=5, jobs=2)
    assert again.outcomes == result.outcomes


def test_position_odds_per_die_outcome_in_phase_roll() -> None:
    position = position_from_dict(hugo_position(to_move=1))
    result = analyze_position(position, games=8, seed=1)
    assert [o.roll.face for o in result.outcomes if o.roll] == [1, 2, 4, 5, "hugo"]
    hugo = result.outcomes[-1]
    assert [m.label for m in hugo.moves] == ["Hugo moves"]
    for outcome in result.outcomes[:-1]:
        assert outcome.roll is not None
        after = apply(position, outcome.roll)
        assert len(outcome.moves) == len(legal_actions(after))
    assert 0.0 <= result.win_probability <= 1.0
    data = result.as_dict()
    assert json.loads(json.dumps(data))["outcomes"][4]["roll"] == "hugo"


def test_position_placement_phase() -> None:
    position = start_position(ruleset("midnight-party"), 2)
    result = analyze_position(position, games=2, seed=0)
    assert len(result.outcomes[0].moves) == 40


# -- the heat-map ------------------------------------------------------------------------------------


def test_layout_puts_red_doors_on_top_green_below_and_the_arrow_left() -> None:
    for board in (HUGO_BOARD, MIDNIGHT_PARTY_BOARD):
        layout = ring_layout(board)
        assert len({(s.x, s.y) for s in layout.slots}) == 40
        assert layout.slots[0].side == "left"
        for room in board.rooms:
            side = layout.slots[room.door].side
            if room.shield == "red":
                assert side == "top", room
            if room.shield == "green":
                assert side == "bottom", room


def test_heatmap_files_are_written(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    simulation = simulate(Settings(rules="midnight-party", players=3, games=6, placement="bot"))
    paths = heatmap_paths(str(tmp_path / "map"), None, None)
    assert [p.name for p in paths] == ["map.png", "map.svg"]
    written = save_heatmap(simulation, paths, min_samples=3)  # some squares hatched, some coloured
    assert written == paths
    png, svg = paths
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    text = svg.read_text(encoding="utf-8")
    assert "<svg" in text and text.rstrip().endswith("</svg>")


def test_heatmap_paths() -> None:
    assert heatmap_paths("a/b.svg", None, None) == [Path("a/b.svg")]
    assert heatmap_paths(None, "x.png", "y.svg") == [Path("x.png"), Path("y.svg")]
    assert heatmap_paths(None, None, None) == []
    with pytest.raises(ValueError, match="suffix"):
        heatmap_paths("map.pdf", None, None)


# -- the command line --------------------------------------------------------------------------------


def invoke(*args: str) -> Any:
    return CliRunner().invoke(cli, ["analyze", *args], catch_exceptions=False)


def test_cli_squares_json() -> None:
    result = invoke("squares", "--games", "10", "--jobs", "1", "--json", "--no-progress", "--seed", "4")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["rules"] == "hugo" and data["games"] == 10 and data["seed"] == 4
    assert len(data["squares"]) == 40
    for s in data["squares"]:  # a square without samples has no probability: null, never NaN
        assert (s["samples"] == 0 and s["capture_probability"] is None) or 0 <= s["capture_probability"] <= 1


def test_cli_squares_table_and_missing_matplotlib(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    result = invoke(
        "squares", "--rules", "midnight-party", "--players", "3", "--games", "5", "--jobs", "1", "--min-samples", "1"
    )
    assert result.exit_code == 0, result.output
    assert "G39" in result.output and "most dangerous" in result.output
    monkeypatch.setattr(analyze_module, "matplotlib_available", lambda: False)
    result = invoke("squares", "--games", "5", "--out", str(tmp_path / "map"))
    assert result.exit_code == 1
    assert "pip install 'ghostparty[analysis]'" in result.output
    result = invoke("squares", "--games", "5", "--out", str(tmp_path / "map.pdf"))
    assert result.exit_code == 2 and "suffix" in result.output


def test_cli_seats() -> None:
    result = invoke("seats", "--players", "3", "--games", "12", "--jobs", "1", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [s["seat"] for s in data["seats"]] == [0, 1, 2]
    assert sum(s["win_rate"] for s in data["seats"]) == pytest.approx(1, abs=1e-4)
    result = invoke("seats", "--games", "5", "--jobs", "1", "--bot", "nobody")
    assert result.exit_code == 2 and "unknown bot 'nobody'" in result.output


def test_cli_position(tmp_path: Path) -> None:
    good = tmp_path / "position.json"
    good.write_text(json.dumps(hugo_position(phase="move", roll=4, to_move=1)), encoding="utf-8")
    result = invoke("position", str(good), "--games-per-move", "5", "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert "→" in result.output and "win" in result.output
    result = invoke("position", str(good), "--games-per-move", "5", "--jobs", "1", "--json")
    data = json.loads(result.output)
    assert len(data["outcomes"][0]["moves"]) == len(
        legal_actions(position_from_dict(hugo_position(phase="move", roll=4, to_move=1)))
    )


def test_cli_position_reads_as_the_analysis_board_does(tmp_path: Path) -> None:
    """``--method review`` and ``deep`` print the analysis board's numbers: one engine."""
    from ghostparty.analysis.explore import explore

    start = hugo_position(phase="move", roll=4, to_move=1)
    good = tmp_path / "position.json"
    good.write_text(json.dumps(start), encoding="utf-8")
    result = invoke("position", str(good), "--method", "review", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == json.loads(json.dumps(explore(position_from_dict(start)).to_dict()))
    result = invoke("position", str(good), "--method", "deep", "--seed", "3")
    assert result.exit_code == 0, result.output
    best = explore(position_from_dict(start), deep=True, seed=3).options[0]
    assert "deep ± 2 se" in result.output and f"{100 * best.deep[0]:.1f}%" in result.output  # type: ignore[index]
    over = tmp_path / "over.json"
    over.write_text(json.dumps(hugo_position(phase="over", scores=[46, 20], winners=[1])), encoding="utf-8")
    result = invoke("position", str(over), "--method", "review")
    assert result.exit_code == 0 and "game is over" in result.output and "1 blue 100.0%" in result.output


def test_cli_position_deep_rolls_out_every_placement(tmp_path: Path) -> None:
    """``--method deep`` on a placement (RULES.md §8.6.3): every square rolled out, the
    analysis board's numbers, the clearly best square first."""
    from rich.console import Console

    from ghostparty.analysis.explore import explore
    from ghostparty.cli.analyze_position import print_exploration

    start = ballroom_placement()
    path = tmp_path / "placement.json"
    path.write_text(json.dumps(start), encoding="utf-8")
    result = invoke("position", str(path), "--method", "deep", "--seed", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    found = explore(position_from_dict(start), deep=True, seed=2)
    assert data == json.loads(json.dumps(found.to_dict()))
    assert data["phase"] == "place" and data["deep"] == {"rollouts": 24, "cut": 6}
    assert len(data["options"]) == len(legal_actions(position_from_dict(start)))
    assert all(option["deep"] is not None for option in data["options"])
    assert data["options"][0]["action"] == {"place": "G25"} and data["options"][0]["best"]
    console = Console(record=True, width=120)
    print_exploration(console, found, 3)
    text = console.export_text()
    assert "deep ± 2 se" in text and "24 rollouts of each placement" in text


def test_cli_position_bad_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(hugo_position(players=9)), encoding="utf-8")
    result = invoke("position", str(bad))
    assert result.exit_code == 1
    assert "invalid position in" in result.output and "players" in result.output
    bad.write_text("{not json", encoding="utf-8")
    result = invoke("position", str(bad))
    assert result.exit_code == 1 and "is not a JSON file" in result.output
    result = invoke("position", str(tmp_path / "missing.json"))
    assert result.exit_code == 1 and "cannot read" in result.output
    over = tmp_path / "over.json"
    over.write_text(json.dumps(hugo_position(phase="over", scores=[46, 20], winners=[1])), encoding="utf-8")
    result = invoke("position", str(over))
    assert result.exit_code == 1 and "game is over" in result.output
