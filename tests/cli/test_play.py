"""``ghostparty play`` and its board view: whole games through the command line,
scripted people, leaving and saving, determinism, parsing what people type, drawing."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from rich.console import Console, RenderableType

from ghostparty.bots import bot_names
from ghostparty.cli import play as play_module
from ghostparty.cli.board_view import (
    cellar_table,
    guest_marks,
    render,
    render_text,
    rooms_table,
    scores_table,
    seat_letter,
    seat_style,
)
from ghostparty.cli.choices import consequences, parse_choice, resolve_location, square_ranges
from ghostparty.cli.main import cli
from ghostparty.cli.play import DEFAULT_BOT
from ghostparty.cli.seats import seat_labels, seat_plan
from ghostparty.rules import (
    COLOURS,
    Game,
    GameRecord,
    Move,
    Pass,
    Place,
    Position,
    Roll,
    position_from_dict,
    position_to_dict,
)
from ghostparty.sim.seeds import bot_rng

# -- helpers ---------------------------------------------------------------------------------


def run(*args: str, input: str = "") -> Result:
    """``ghostparty play ARGS`` with ``input`` as stdin (not a terminal: nothing is asked)."""
    return CliRunner().invoke(cli, ["play", *args], input=input, catch_exceptions=False)


def text_of(renderable: RenderableType, width: int = 100) -> str:
    console = Console(record=True, width=width, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text()


def position(**changes: Any) -> Position:
    """A hugo position, red to move with a 4, Hugo on G24, changed by ``changes``."""
    data: dict[str, Any] = {
        "format": "hugo-position/1",
        "rules": "hugo",
        "players": 2,
        "first_player": 0,
        "round": 1,
        "phase": "move",
        "to_move": 0,
        "roll": 4,
        "clock": "24:00",
        "hugo": "G24",
        "scores": [19, 10],
        "round_scores": [],
        "guests": [["G5", "G5", "G14", "G20", "R:armory", "C9"], ["G1", "G2", "G3", "G9", "G25", "R:chapel"]],
        "place_queue": [],
        "winners": [],
    }
    data.update(changes)
    return position_from_dict(data)


def rolls_then_first_choice(placements: int = 40, turns: int = 1500) -> str:
    """Input for one person: squares 0, 1, 2 … to place (taken ones are refused), then
    Enter and ``1`` again and again (a stray line is refused and the next one fits)."""
    return "".join(f"{sq}\n" for sq in range(placements)) + "\n1\n" * turns


def record_of(path: Path) -> tuple[dict[str, Any], GameRecord]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return data, GameRecord.from_dict(data)


def rolls(record: GameRecord) -> list[Roll]:
    return [action for action in record.actions if type(action) is Roll]


def strip(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.splitlines())


# -- whole games -----------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "players"), [("hugo", 3), ("midnight-party", 4), ("hugo", 8)])
def test_bots_play_a_whole_game_and_the_winners_are_named(tmp_path: Path, rules: str, players: int) -> None:
    save = tmp_path / "game.json"
    result = run("--rules", rules, "--players", str(players), "--humans", "0", "--seed", "7", "--save", str(save))
    assert result.exit_code == 0, result.output
    data, record = record_of(save)
    final = record.final()
    assert final.is_over
    assert data["seed"] == 7
    names = ", ".join(f"{seat_letter(s)} {COLOURS[s]} ({DEFAULT_BOT})" for s in final.winners)
    title = "Winner: " if len(final.winners) == 1 else "Winners: "
    assert f"{title}{names} with {final.scores[final.winners[0]]}" in result.output
    assert "game over" in result.output  # the narrated GameOver event
    # the last board drawn is the final position
    assert strip(render_text(final, seat_labels([DEFAULT_BOT] * players))) in strip(result.output)


def test_a_person_can_play_a_whole_game_to_the_end(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = run("--players", "2", "--humans", "1", "--seed", "4", "--save", str(save), input=rolls_then_first_choice())
    assert result.exit_code == 0, result.output
    _, record = record_of(save)
    assert record.final().is_over
    assert "Winner" in result.output
    assert "red places a guest on G0" in result.output  # the first square typed


def test_midnight_party_person_places_again_in_the_next_round(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    # squares 0-39 three times: once per round's placement (taken squares are refused)
    script = "".join("".join(f"{sq}\n" for sq in range(40)) + "\n1\n" * 400 for _ in range(3))
    result = run(
        "--rules",
        "midnight-party",
        "--players",
        "2",
        "--humans",
        "1",
        "--seed",
        "2",
        "--no-board",
        "--save",
        str(save),
        input=script,
    )
    assert result.exit_code == 0, result.output
    _, record = record_of(save)
    final = record.final()
    assert final.is_over and len(final.round_scores) == 3
    assert "round 2 begins" in result.output and "round 3 begins" in result.output


# -- a scripted person: bad input, commands ---------------------------------------------------


def test_bad_input_is_explained_and_the_game_goes_on() -> None:
    script = "abc\n99\nG99\nchapel\n12 13\n12\n?\nboard\n"
    result = run("--players", "2", "--humans", "1", "--seed", "3", input=script)
    out = result.output
    assert result.exit_code == 0
    messages = [
        "'abc' is not a choice, a square or a room; type ? for help",
        "there is no square G99: the gallery has G0 to G39",  # 99 is square 99 in placement
        "there is no square G99: the gallery has G0 to G39",
        "guests are placed on gallery squares, not on R:chapel",
        "to place a guest, type one square",
    ]
    position_in_output = 0
    for message in messages:
        found = out.find(message, position_in_output)
        assert found >= 0, f"{message!r} missing after offset {position_in_output}:\n{out}"
        position_in_output = found + 1
    assert out.count("there is no square G99") == 2
    # after the errors, 12 placed a guest and the game went on to blue and back to red
    assert "red places a guest on G12" in out
    assert out.index("red places a guest on G12") > out.index("to place a guest, type one square")
    assert "blue places a guest on" in out
    assert "Commands: board" in out  # the help
    assert "Left the game (end of input) after 2 actions." in out


def test_bad_moves_are_refused_with_a_reason(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    # place on 10..15, then roll, then try nonsense before choosing 1
    script = "".join(f"{sq}\n" for sq in range(10, 16)) + "\n" + "99\nG7 G1\nG10 C3\npass\n0\nquit\n"
    result = run("--players", "2", "--humans", "1", "--seed", "1", "--save", str(save), input=script)
    out = result.output
    assert result.exit_code == 0, out
    _, record = record_of(save)
    at_quit = record.final()
    if at_quit.phase == "move":  # the roll was a number: the move prompt saw the nonsense
        assert re.search(r"there is no choice 99: choose 1 to \d+", out)
        assert "you have no guest on G7 that can move" in out
        assert "you may not pass now: you must move a guest" in out
        assert "there is no choice 0" in out
    else:  # HUGO: the roll prompt refused every line
        assert "press Enter to roll" in out
    assert "Left the game (quit)" in out


def test_undo_takes_back_a_placement_and_keeps_the_dice(tmp_path: Path) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    base = rolls_then_first_choice(placements=0, turns=60)
    placements = "".join(f"{sq}\n" for sq in range(0, 12, 2))
    run("--players", "2", "--no-board", "--seed", "9", "--save", str(first), input=placements + base + "quit\n")
    # the same, but the first placement is taken back and made on G39 instead
    script = "0\nundo\n39\n" + "".join(f"{sq}\n" for sq in range(2, 12, 2)) + base + "quit\n"
    result = run("--players", "2", "--no-board", "--seed", "9", "--save", str(second), input=script)
    assert "took back place on G0" in result.output
    _, a = record_of(first)
    _, b = record_of(second)
    assert Place("G39") in b.actions and Place("G0") not in b.actions[:1]
    assert b.actions[0] == Place("G39")
    rolls_a, rolls_b = rolls(a), rolls(b)
    assert len(rolls_a) >= 10
    n = min(len(rolls_a), len(rolls_b))
    assert rolls_a[:n] == rolls_b[:n]


def test_undo_after_a_move_rolls_the_same_dice_again(tmp_path: Path) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    placements = "".join(f"{sq}\n" for sq in range(0, 12, 2))
    run("--players", "2", "--no-board", "--seed", "5", "--save", str(first), input=placements + "\n1\n" * 40)
    # after the first move and blue's turn: undo, then play the same move again
    script = placements + "\n1\nundo\n1\n" + "\n1\n" * 40
    result = run("--players", "2", "--no-board", "--seed", "5", "--save", str(second), input=script)
    assert "took back" in result.output
    _, a = record_of(first)
    _, b = record_of(second)
    n = min(len(rolls(a)), len(rolls(b)))
    assert n >= 10
    assert rolls(a)[:n] == rolls(b)[:n]


def test_undo_with_two_people_stops_at_the_other_persons_decision() -> None:
    result = run("--players", "2", "--humans", "2", "--seed", "1", input="5\nundo\n6\nundo\nundo\n")
    out = result.output
    assert "nothing to undo yet" in out  # blue has not decided anything yet
    assert "blue places a guest on G6" in out
    # red may not take back G5: blue has placed since
    assert out.count("cannot undo: blue has decided since your last move") == 2
    assert "took back" not in out


def test_nothing_to_undo_at_the_start() -> None:
    out = run("--players", "2", "--humans", "1", "--seed", "1", input="undo\n").output
    assert "nothing to undo yet" in out


# -- leaving and saving -------------------------------------------------------------------------


def test_the_saved_path_is_printed_on_one_line_however_long(tmp_path: Path) -> None:
    save = tmp_path / ("a-folder-with-a-long-name-" * 4) / "left.json"
    save.parent.mkdir()
    result = run("--players", "2", "--humans", "1", "--seed", "1", "--save", str(save), input="quit\n")
    assert result.exit_code == 0, result.output
    assert f"Saved the game record to {save} (see it again with: ghostparty replay {save})" in result.output


@pytest.mark.parametrize("leave", ["quit\n", ""])  # the quit command, or the end of input
def test_leaving_saves_a_record_that_replays_to_the_board_last_shown(tmp_path: Path, leave: str) -> None:
    save = tmp_path / "left.json"
    script = "12\n20\n33\n" + leave
    result = run("--players", "3", "--humans", "1", "--seed", "11", "--save", str(save), input=script)
    assert result.exit_code == 0
    why = "quit" if leave else "end of input"
    match = re.search(rf"Left the game \({why}\) after (\d+) actions\.", result.output)
    assert match, result.output
    data, record = record_of(save)
    assert len(record.actions) == int(match[1]) == len(data["actions"]) == 9
    final = record.final()
    assert final.phase == "place" and final.to_move == 0
    red = [final.board.name(loc) for loc in final.guests[0]]
    assert red == ["G12", "G20", "G33"]
    assert position_to_dict(final) == data["final"]
    # what the person saw last is what the record replays to
    last_board = strip(render_text(final, ["you", DEFAULT_BOT, DEFAULT_BOT]))
    assert last_board in strip(result.output)
    assert f"Saved the game record to {save}" in result.output
    # and ghostparty replay reads it
    replayed = CliRunner().invoke(cli, ["replay", str(save)])
    assert replayed.exit_code == 0
    assert "red places a guest on G33" in replayed.output


def test_without_the_board_the_game_is_told_in_words() -> None:
    script = "".join(f"{sq}\n" for sq in range(3, 15, 2)) + "\n1\nboard\nquit\n"
    out = run("--players", "2", "--no-board", "--seed", "1", input=script).output
    assert out.count("↑ arrow") == 1  # the gallery drawn once, on request
    assert out.index("↑ arrow") > out.index("press Enter to roll the die (? for help) board")
    assert out.count("▶ R red places a guest") == 6  # the turn line before each prompt
    assert "• red places a guest on G3" in out and "• blue places a guest on" in out


def test_without_save_it_says_how_to_save_next_time() -> None:
    result = run("--players", "2", "--humans", "1", "--seed", "1", input="quit\n")
    assert result.exit_code == 0
    assert "next time add --save FILE" in result.output


def test_saving_to_an_impossible_place_is_an_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["play", "--humans", "0", "--players", "2", "--seed", "1", "--save", str(tmp_path / "no" / "such.json")]
    )
    assert result.exit_code == 1
    assert "cannot save the game to" in result.output


# -- determinism -----------------------------------------------------------------------------------


def test_same_seed_and_input_give_the_same_game() -> None:
    script = rolls_then_first_choice(turns=80)
    args = ("--rules", "midnight-party", "--players", "3", "--humans", "1", "--seed", "42")
    one, two = run(*args, input=script), run(*args, input=script)
    assert one.output == two.output
    other = run("--rules", "midnight-party", "--players", "3", "--humans", "1", "--seed", "43", input=script)
    assert other.output != one.output


def test_bot_random_sources_depend_on_seed_and_seat() -> None:
    a, b, c = bot_rng(1, 0), bot_rng(1, 1), bot_rng(1, 0)
    assert a.random() == c.random()
    assert bot_rng(1, 0).random() != b.random()


# -- options and setup ---------------------------------------------------------------------------------


def test_seats_by_colour_and_first_player() -> None:
    result = run("--players", "3", "--seat", "blue=human", "--first-player", "blue", "--seed", "1", input="7\n")
    out = result.output
    assert f"R red ({DEFAULT_BOT}), B blue (you), T turquoise ({DEFAULT_BOT})" in out
    assert out.index("B blue (you): place a guest") < out.index("blue places a guest on G7")
    assert "red places a guest" not in out.split("blue places a guest on G7")[0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "3", "--seat", "5=human"], "there are only 3 players"),
        (["--seat", "0=nobody"], f"WHO one of {', '.join(['human', *bot_names()])}, e.g. 0=human"),
        (["--seat", "pink=human"], "is not a seat"),
        (["--players", "3", "--humans", "4"], "--humans 4: there are only 3 players"),
        (["--players", "3", "--first-player", "purple"], "--first-player purple (seat 7): there are only 3 players"),
        (["--players", "9"], "9 is not in the range"),
    ],
)
def test_bad_options_are_usage_errors(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["play", *args])
    assert result.exit_code == 2
    assert message in result.output


def test_seat_plan() -> None:
    assert seat_plan(4, 1, [], "random") == ["human", "random", "random", "random"]
    assert seat_plan(3, 0, [(2, "human")], "random") == ["random", "random", "human"]
    assert seat_plan(3, 2, [(0, "random")], "random") == ["random", "human", "random"]
    assert seat_labels(["human", "random"]) == ["you", "random"]
    assert seat_labels(["human", "human", "random"]) == ["human", "human", "random"]


def test_bot_levels_come_from_the_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    from ghostparty.bots import base

    help_text = CliRunner().invoke(cli, ["play", "--help"]).output
    for name in base.bot_names():
        assert name in help_text
    monkeypatch.setitem(base._REGISTRY, "lazy", base._REGISTRY["random"])
    result = run("--players", "2", "--seat", "1=lazy", "--seed", "1", input="quit\n")
    assert result.exit_code == 0 and "B blue (lazy)" in result.output


def test_a_person_at_a_terminal_is_asked_what_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(play_module, "stdin_is_interactive", lambda: True)
    result = run("--seed", "3", "--no-board", input="midnight-party\n3\n0\nrandom\nn\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Rule set" in out and "Players (2-8)" in out and "People at the table" in out and "Bot level" in out
    assert "Midnight Party, 3 players: R red (random), B blue (random), T turquoise (random). Seed 3." in out
    assert "Winner" in out
    assert "Save the game record?" in out and "Not saved." in out


def test_a_person_at_a_terminal_is_offered_to_save(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(play_module, "stdin_is_interactive", lambda: True)
    target = tmp_path / "mine.json"
    result = run(
        "--rules", "hugo", "--players", "2", "--humans", "1", "--seed", "1", input=f"random\nquit\ny\n{target}\n"
    )
    assert result.exit_code == 0, result.output
    assert f"Saved to {target}" in result.output
    _, record = record_of(target)
    assert record.actions == ()


def test_help_explains_the_options() -> None:
    out = CliRunner().invoke(cli, ["play", "--help"]).output
    for option in (
        "--rules",
        "--players",
        "--humans",
        "--seat",
        "--bot",
        "--first-player",
        "--seed",
        "--save",
        "--delay",
    ):
        assert option in out


# -- what a person types ------------------------------------------------------------------------------


def test_moves_by_number_squares_and_rooms() -> None:
    pos = position()
    actions = Game.from_position(pos).actions()
    board = pos.board
    to_chapel = Move("G5", "R:chapel")
    for text in ("G5 chapel", "g5 r:chapel", "G5 → chapel", "G5->R:chapel", "G5, chapel", "chapel", "chap", "2"):
        assert parse_choice(text, actions, board) == to_chapel, text
    assert parse_choice("portrait hall", actions, board) == Move("G20", "R:portrait-hall")
    assert parse_choice("G20 portrait hall", actions, board) == Move("G20", "R:portrait-hall")
    assert parse_choice("armory G20", actions, board) == Move("R:armory", "G20")
    assert parse_choice("c9 lib", actions, board) == Move("C9", "R:library")
    assert parse_choice("G18", actions, board) == Move("G14", "G18")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0", "there is no choice 0: choose 1 to 8"),
        ("99", "there is no choice 99: choose 1 to 8"),
        ("G99", "there is no square G99"),
        ("C1", "there is no cellar step C1: the steps are C3 to C10"),
        ("abc", "'abc' is not a choice, a square or a room"),
        ("b", "could be ballroom or banquet-hall or bedchamber"),
        ("G6 G10", "you have no guest on G6 that can move"),
        ("G5 G10", "G5 → G10 is not a legal move with this roll"),
        ("G7", "none of your guests can go to G7"),
        ("pass", "you may not pass now"),
        ("", "type the number of a choice"),
    ],
)
def test_bad_moves_are_explained(text: str, message: str) -> None:
    pos = position()
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_choice(text, Game.from_position(pos).actions(), pos.board)


def test_a_destination_two_guests_can_reach_asks_which() -> None:
    pos = position(
        roll=1, guests=[["G7", "G20", "G30", "G31", "R:chapel", "C9"], ["G1", "G2", "G3", "G9", "G25", "R:fireplace"]]
    )
    actions = Game.from_position(pos).actions()
    with pytest.raises(ValueError, match="more than one guest can go to G8"):
        parse_choice("G8", actions, pos.board)
    assert parse_choice("chapel G8", actions, pos.board) == Move("R:chapel", "G8")
    assert parse_choice("G7 G8", actions, pos.board) == Move("G7", "G8")


def test_placing_by_square_number_or_name() -> None:
    game = Game("hugo", 2, seed=1)
    game.push(Place("G12"))
    game.push(Place("G13"))
    actions, board = game.actions(), game.state.board
    assert parse_choice("5", actions, board) == Place("G5")
    assert parse_choice("g05", actions, board) == Place("G5")
    with pytest.raises(ValueError, match="G12 is taken"):
        parse_choice("12", actions, board)
    with pytest.raises(ValueError, match="not on C10"):
        parse_choice("C10", actions, board)


def test_passing_in_midnight_party() -> None:
    pos = position(
        rules="midnight-party",
        clock=None,
        roll=2,
        round=2,
        round_scores=[[10, 12]],
        scores=[10, 12],
        guests=[["G7", "R:chapel", "C9", "C8", "C10", "C7"], ["G1", "G2", "G3", "G9", "G25", "R:fireplace"]],
    )
    actions = Game.from_position(pos).actions()
    assert parse_choice("pass", actions, pos.board) == Pass()
    assert parse_choice("G9", actions, pos.board) == Move("G7", "G9")


def test_resolve_location() -> None:
    board = position().board
    assert resolve_location("R:Banquet-Hall", board) == "R:banquet-hall"
    assert resolve_location("ballroom", board) == "R:ballroom"
    assert resolve_location("c10", board) == "C10"
    with pytest.raises(ValueError, match="no cellar step C2"):
        resolve_location("C2", board)  # C2 exists on the midnight-party board only


def test_consequences_of_moves() -> None:
    pos = position()
    assert consequences(pos, Move("G5", "R:chapel")) == ["expels blue"]
    assert consequences(pos, Move("G20", "G24")) == ["caught by Hugo: 10 points"]
    assert consequences(pos, Move("G14", "G18")) == []
    red_room = position(
        hugo="G28", guests=[["G7", "G20", "G30", "G31", "G14", "C9"], ["G1", "G2", "G3", "G9", "G25", "R:fireplace"]]
    )
    assert consequences(red_room, Move("G14", "R:armory")) == ["red room +1"]
    green = position(
        roll=1, guests=[["G7", "G20", "G30", "G31", "R:chapel", "C9"], ["G1", "G2", "G3", "G9", "G25", "R:fireplace"]]
    )
    assert consequences(green, Move("G31", "R:banquet-hall")) == ["green room -3"]


def test_square_ranges() -> None:
    assert square_ranges([0, 1, 2, 5, 7, 8, 39]) == "0–2, 5, 7–8, 39"
    assert square_ranges([]) == ""


# -- the board view -------------------------------------------------------------------------------------


def gallery_cell(text: str, square: int, per_row: int = 10, width: int = 9) -> list[str]:
    """The three lines of one gallery square in :func:`render_text` output."""
    lines = text.splitlines()
    row, column = divmod(square, per_row)
    first = next(i for i, line in enumerate(lines) if line.startswith(" 0 ")) + row * 4
    return [lines[first + k][column * (width + 1) : column * (width + 1) + width].rstrip() for k in range(3)]


def test_gallery_squares_show_number_hugo_doors_and_guests() -> None:
    text = render_text(position())
    assert gallery_cell(text, 24) == ["24 HUGO", "", ""]
    assert gallery_cell(text, 0) == [" 0", "↑ arrow", ""]
    assert gallery_cell(text, 5) == [" 5", "", "R R"]
    assert gallery_cell(text, 8) == [" 8", "chapel", ""]
    assert gallery_cell(text, 22) == ["22", "portrait", ""]
    assert gallery_cell(text, 25) == ["25", "", "B"]
    assert gallery_cell(text, 35) == ["35", "bedchamb…", ""]
    assert gallery_cell(text, 39) == ["39", "", ""]


def test_narrow_consoles_get_a_smaller_gallery() -> None:
    for width, per_row, cell in ((80, 10, 7), (60, 5, 9)):
        text = render_text(position(), width=width)
        assert max(len(line) for line in text.splitlines()) <= width
        assert gallery_cell(text, 24, per_row, cell) == ["24 HUGO", "", ""]
        assert gallery_cell(text, 5, per_row, cell) == [" 5", "", "R R"]
    assert max(len(line) for line in render_text(position(), width=100).splitlines()) <= 100


def test_cellar_shows_captured_guests_on_their_steps_and_hugo() -> None:
    pos = position(
        hugo="C6",
        clock="23:45",
        guests=[["G5", "G5", "G14", "G20", "C10", "C9"], ["G1", "G2", "G3", "G9", "C10", "C8"]],
    )
    text = text_of(cellar_table(pos))
    assert re.search(r"^C10\s+R B\s*$", text, re.M)
    assert re.search(r"^C9\s+R\s*$", text, re.M)
    assert re.search(r"^C8\s+B\s*$", text, re.M)
    assert re.search(r"^C6\s+HUGO\s*$", text, re.M)
    assert re.search(r"^C3\s*$", text, re.M)
    lines = [line.split()[0] for line in text.splitlines() if re.match(r"^(C\d+|START)", line)]
    assert lines == ["C3", "C4", "C5", "C6", "C7", "C8", "C9", "C10", "START"]  # the stairs, top step first
    assert "at the cellar door" not in render_text(pos) and "Hugo on cellar step C6" in render_text(pos)


def test_rooms_show_shields_doors_and_occupants() -> None:
    text = text_of(rooms_table(position()))
    assert re.search(r"^chapel\s+G8\s+B\s*$", text, re.M)
    assert re.search(r"^armory \+1\s+G17\s+R\s*$", text, re.M)
    assert re.search(r"^ballroom -3\s+G26\s+—\s*$", text, re.M)
    assert re.search(r"^banquet hall -3\s+G31\s+—\s*$", text, re.M)
    assert "music room" not in text


def test_scores_show_players_the_turn_and_rounds() -> None:
    text = text_of(scores_table(position(), ["you", "random"]))
    assert re.search(r"▶\s+R red\s+you\s+19", text)
    assert re.search(r"^\s+B blue\s+random\s+10", text, re.M)
    mp = position(rules="midnight-party", clock=None, round=2, round_scores=[[5, -3]], scores=[5, -3], to_move=1)
    text = text_of(scores_table(mp, ["you", "random"]))
    assert re.search(r"R red\s+you\s+\+5\s+·\s+·\s+5", text)
    assert re.search(r"▶\s+B blue\s+random\s+-3\s+·\s+·\s+-3", text)
    assert "R1" in text and "R3" in text and "total" in text


def test_header_shows_clock_speed_turn_and_phase() -> None:
    text = render_text(position(clock="2:00", hugo="G24"))
    assert "clock 2:00 · Hugo moves 5 · Hugo on G24" in text
    assert "▶ R red rolled 4: moves a guest" in text
    mp = render_text(
        position(
            rules="midnight-party",
            clock=None,
            round=3,
            round_scores=[[1, 2], [3, 4]],
            scores=[4, 6],
            phase="roll",
            roll=None,
        )
    )
    assert "Midnight Party   round 3 of 3 · Hugo moves 3" in mp and "▶ R red to roll" in mp
    start = render_text(Game("hugo", 3).state)
    assert "Hugo at the cellar door (START)" in start and "places a guest (15 still to place)" in start


def test_a_finished_game_shows_the_winners() -> None:
    pos = position(phase="over", roll=None, winners=[1], scores=[46, 12])
    text = render_text(pos, ["you", "random"])
    assert "game over — winner: blue" in text
    assert re.search(r"★\s+B blue", text)
    assert "Hugo moves" not in text


def test_guest_marks_fit_their_width() -> None:
    assert guest_marks([0, 0, 1]).plain == "R R B"
    assert guest_marks([0] * 5 + [4] * 4).plain == "RRRRRKKKK"
    assert guest_marks([0] * 6 + [1] * 6).plain == "R6B6"
    assert guest_marks([]).plain == ""


def test_each_seat_has_its_own_colour_and_letter() -> None:
    marks = guest_marks(list(range(8)))
    assert marks.plain == "RBTYKGWP"  # eight spaced letters would not fit a square
    styles = [str(span.style) for span in marks.spans]
    assert styles == [seat_style(seat) for seat in range(8)]
    assert len(set(styles)) == 8
    console = Console(record=True, width=100, file=io.StringIO(), force_terminal=True, color_system="standard")
    console.print(render(position(), ["you", "random"]))
    coloured = console.export_text(styles=True)
    assert "\x1b[1;31mR" in coloured  # red guests in bold red
