"""``ghostparty play``: a whole game in the terminal, people and bots at one table.

The command settles who sits where (options, or questions when stdin is a terminal),
then a :class:`Session` runs the game: people choose from numbered lists (or type squares
and rooms), bots choose by themselves, the die rolls from the game's seeded random
source, and after each action the events are told in words and the board is drawn
(:mod:`ghostparty.cli.board_view`). Leaving early — ``quit``, end of input, Ctrl-C —
is clean and offers to save the game record, which ``ghostparty replay`` reads.

What a person's input means and what a move would do are pure functions in
:mod:`ghostparty.cli.choices`; seats are settled by :mod:`ghostparty.cli.seats`;
everything that reads or writes the terminal is in :class:`Session` and the command.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from random import SystemRandom

import click
from rich.console import Console
from rich.text import Text

from ghostparty.bots import bot_names
from ghostparty.cli.board_view import seat_tag
from ghostparty.cli.play_session import Quit, Session, result_lines
from ghostparty.cli.seats import SeatNumber, SeatSpec, seat_plan
from ghostparty.rules import (
    RULESETS,
    Game,
)
from ghostparty.rules.narrate import seat_name
from ghostparty.rules.rulesets import MAX_PLAYERS, MIN_PLAYERS

#: The level of bots filling seats when none is named: the default opponent.
DEFAULT_BOT = "greedy"


def default_save_name() -> str:
    return datetime.now().strftime("ghostparty-%Y%m%d-%H%M%S.json")


def save_record(game: Game, path: Path) -> None:
    """Write the game record as JSON (``ghostparty replay`` reads it)."""
    with path.open("w", encoding="utf-8") as file:
        json.dump(game.record().to_dict(), file, indent=1)
        file.write("\n")


def offer_save(game: Game, console: Console, save: Path | None, interactive: bool) -> None:
    """Save to ``save``; without it, ask a person at a terminal, or say how to save."""
    if save is not None:
        try:
            save_record(game, save)
        except OSError as error:
            raise click.ClickException(f"cannot save the game to {save}: {error.strerror or error}") from None
        # soft_wrap: the terminal wraps a long path, so that it is copied whole
        console.print(
            f"Saved the game record to {save} (see it again with: ghostparty replay {save})",
            markup=False,
            soft_wrap=True,
        )
        return
    if not interactive:
        console.print("The game record was not saved; next time add --save FILE to keep it.")
        return
    try:
        while click.confirm("Save the game record?", default=True):
            name = click.prompt("File name", default=default_save_name())
            try:
                save_record(game, Path(name))
            except OSError as error:
                console.print(f"cannot save to {name}: {error.strerror or error}", markup=False, style="red")
                continue
            console.print(
                f"Saved to {name} (see it again with: ghostparty replay {name})", markup=False, soft_wrap=True
            )
            return
    except click.Abort:
        console.print()
    console.print("Not saved.")


# -- the command -------------------------------------------------------------------------------


def stdin_is_interactive() -> bool:
    """True when a person types at a terminal (then missing options are asked)."""
    return sys.stdin.isatty()


@dataclass(frozen=True)
class Setup:
    rules: str
    plan: list[str]


def settle(
    rules: str | None,
    players: int | None,
    humans: int | None,
    specs: Sequence[tuple[int, str]],
    bot: str | None,
    ask: bool,
) -> Setup:
    """Fill in what the options leave open: asked when ``ask``, else the defaults
    (hugo; 4 players, or as many as ``--seat`` names; 1 person, 0 with ``--seat``; greedy bots)."""
    if rules is None:
        rules = "hugo"
        if ask:
            rules = click.prompt("Rule set", type=click.Choice(sorted(RULESETS)), default="hugo")
    if players is None:
        players = max(MIN_PLAYERS, *(seat + 1 for seat, _ in specs)) if specs else 4
        if ask:
            players = click.prompt("Players (2-8)", type=click.IntRange(MIN_PLAYERS, MAX_PLAYERS), default=players)
    if humans is None:
        humans = 0 if specs else 1
        if ask and not specs:
            humans = click.prompt(f"People at the table (0-{players})", type=click.IntRange(0, players), default=1)
    if bot is None:
        bot = DEFAULT_BOT
        if ask and humans + len(specs) < players:
            bot = click.prompt("Bot level", type=click.Choice(bot_names()), default=DEFAULT_BOT)
    return Setup(rules, seat_plan(players, humans, specs, bot))


@click.command()
@click.option(
    "--rules",
    type=click.Choice(sorted(RULESETS)),
    help="hugo (clock, spooky trail, expelling) or midnight-party (three rounds).  [default: hugo]",
)
@click.option(
    "--players", type=click.IntRange(MIN_PLAYERS, MAX_PLAYERS), help="Number of players, 2 to 8.  [default: 4]"
)
@click.option(
    "--humans",
    type=click.IntRange(0, MAX_PLAYERS),
    help="Seats 0 to N-1 are played by people at this terminal, the others by bots.  [default: 1, or 0 with --seat]",
)
@click.option(
    "--seat",
    "specs",
    multiple=True,
    type=SeatSpec(),
    help=f"Who plays one seat: SEAT is 0-7 or a colour, WHO is human or a bot level ({', '.join(bot_names())}). "
    "Repeatable; overrides --humans. Example: --seat 0=human --seat blue=random.",
)
@click.option(
    "--bot",
    type=click.Choice(bot_names()),
    help="Level of the bots in the seats no person plays.  [default: greedy]",
)
@click.option(
    "--first-player",
    type=SeatNumber(),
    default=0,
    show_default=True,
    help="Seat (0-7 or colour) that places first and starts.",
)
@click.option(
    "--seed",
    type=int,
    help="Seeds the die and the bots: the same seed and the same input give the same game.  [default: random, printed]",
)
@click.option(
    "--save",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the game record (JSON, for ghostparty replay) to this file at the end or on leaving, without asking.",
)
@click.option(
    "--delay",
    type=click.FloatRange(min=0),
    help="Seconds to pause after each bot action.  [default: 0.5 in a terminal, else 0]",
)
@click.option(
    "--board/--no-board",
    "board",
    default=True,
    help="Draw the board after each action; with --no-board the game is told in words, "
    "the board drawn at the end and when a person types board.  [default: --board]",
)
@click.option(
    "--clear/--no-clear",
    default=None,
    help="Redraw the board in place (clear the screen) instead of scrolling.  [default: clear in a terminal]",
)
def play(
    rules: str | None,
    players: int | None,
    humans: int | None,
    specs: tuple[tuple[int, str], ...],
    bot: str | None,
    first_player: int,
    seed: int | None,
    save: Path | None,
    delay: float | None,
    board: bool,
    clear: bool | None,
) -> None:
    """Play a whole game in the terminal, against bots or friends at one keyboard.

    People choose from a numbered list, or type a square (G12) or a move (G8 chapel);
    Enter rolls the die; type ? at the prompt for help, quit to leave. Options left
    out are asked when stdin is a terminal.

    \b
    Examples:
      ghostparty play                                    asks what it needs
      ghostparty play --rules hugo --players 3 --humans 1 --seed 3
      ghostparty play --rules midnight-party --seat 0=human --seat 1=human --seat 2=random
      ghostparty play --humans 0 --players 4 --seed 1 --save game.json   bots only
    """
    ask = stdin_is_interactive()
    setup = settle(rules, players, humans, specs, bot, ask)
    if first_player >= len(setup.plan):
        raise click.UsageError(
            f"--first-player {seat_name(first_player)} (seat {first_player}): there are only {len(setup.plan)} players"
        )
    console = Console(highlight=False)
    if not console.is_terminal:
        console.width = 100
    if seed is None:
        seed = SystemRandom().randrange(1_000_000)
    game = Game(setup.rules, len(setup.plan), first_player=first_player, seed=seed)
    table = Session(
        game,
        setup.plan,
        console,
        interactive=ask,
        delay=delay if delay is not None else (0.5 if console.is_terminal else 0.0),
        clear=board and (clear if clear is not None else console.is_terminal),
        board=board,
    )
    introduce(table, seed)
    try:
        table.run()
    except Quit as leave:
        console.print(f"Left the game ({leave.why}) after {len(game.history)} actions.")
        offer_save(game, console, save, ask)
        sys.exit(130 if leave.why == "interrupted" else 0)
    for line in result_lines(game.state, table.labels):
        console.print(line)
    offer_save(game, console, save, ask)


def introduce(table: Session, seed: int) -> None:
    """Who plays, and the seed that plays the same game again (kept in the log)."""
    position = table.game.state
    text = Text(f"{position.ruleset.name}, {position.players} players: ", style="bold")
    for seat in range(position.players):
        text.append(", " if seat else "")
        text.append_text(seat_tag(seat, table.labels[seat]))
    text.append(f". Seed {seed}.")
    table.log.append(text)
    table.console.print(text)
