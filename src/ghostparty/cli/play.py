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
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from random import Random, SystemRandom

import click
from rich.columns import Columns
from rich.console import Console
from rich.text import Text

from ghostparty.bots import Bot, bot_names, make_bot
from ghostparty.cli.board_view import header, render, seat_style, seat_tag
from ghostparty.cli.choices import consequences, parse_choice, square_ranges
from ghostparty.cli.seats import HUMAN, SeatNumber, SeatSpec, seat_labels, seat_plan
from ghostparty.rules import (
    COLOURS,
    MOVE,
    PLACE,
    ROLL,
    RULESETS,
    Action,
    Game,
    Place,
    Position,
    Roll,
    sample_roll,
)
from ghostparty.rules.narrate import describe_action, narrate, seat_name
from ghostparty.rules.rulesets import MAX_PLAYERS, MIN_PLAYERS
from ghostparty.sim.playout import next_action
from ghostparty.sim.seeds import bot_rng

#: The level of bots filling seats when none is named: the default opponent.
DEFAULT_BOT = "greedy"

#: Lines of recent events kept under the board when the screen is redrawn.
LOG_LINES = 8

HELP = """\
Type the number of a choice, or name it:
  a square to place a guest on     12  or  G12
  a move, from and to              G8 G12   G8 chapel   G8 R:chapel   chapel G10   C9 G3
  just where to go                 chapel   (when only one of your guests can get there)
  pass                             (Midnight Party, when you may)
Press Enter to roll the die when it is your turn to roll.
Commands: board (draw the board again), moves (list your choices again),
          undo (take back your last decision; the die keeps its rolls),
          help or ?, quit (leave the game; you can save it)."""


class Quit(Exception):
    """The person left the game: ``quit``, end of input or Ctrl-C (``why`` says which)."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


# -- the table: the game loop and the terminal ----------------------------------------------


@dataclass
class Session:
    """A game in progress at a terminal: the seats, the bots' random sources, the screen."""

    game: Game
    plan: list[str]
    console: Console
    interactive: bool
    delay: float = 0.0
    clear: bool = False
    #: Draw the board after each action; without, only before the end and on request.
    board: bool = True
    bots: dict[int, tuple[Bot, Random]] = field(default_factory=dict)
    #: Rolls taken back by ``undo``, rolled again in the same order (the die keeps its rolls).
    tape: list[Roll] = field(default_factory=list)
    log: deque[Text] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    dirty: bool = True

    def __post_init__(self) -> None:
        seed = self.game.seed or 0
        for seat, who in enumerate(self.plan):
            if who != HUMAN:
                self.bots[seat] = (make_bot(who), bot_rng(seed, seat))
        self.labels = seat_labels(self.plan)

    # -- output

    def say(self, line: str) -> None:
        """Tell one line of what happened, in the seats' colours."""
        text = Text("• " + line)
        for seat in range(self.game.state.players):
            text.highlight_regex(rf"\b{COLOURS[seat]}\b", seat_style(seat))
        self.log.append(text)
        if not self.clear:
            self.console.print(text)

    def draw(self, force: bool = False) -> None:
        """Draw the board (after clearing the screen and with the recent events, in clear
        mode); without :attr:`board`, only when ``force``d."""
        if not (self.board or force):
            return
        if self.clear:
            self.console.clear()
        else:
            self.console.print()
        self.console.print(render(self.game.state, self.labels, self.console.width))
        if self.clear and self.log:
            for line in self.log:
                self.console.print(line)
        self.dirty = False

    # -- the game loop

    def run(self) -> None:
        """Play until the game is over; raises :class:`Quit` if a person leaves."""
        try:
            while not self.game.is_over:
                self.step()
        except KeyboardInterrupt:
            self.console.print()
            raise Quit("interrupted") from None
        if self.dirty:
            self.draw(force=True)

    def step(self) -> None:
        """One action: a roll, a placement or a move, by a person or a bot."""
        position = self.game.state
        seat = position.to_move
        if self.plan[seat] == HUMAN:
            action = self.ask(seat)
            if action is None:  # undone: start again from the new position
                return
        else:
            action = self.bot_action(seat, position)
        self.perform(action, human=self.plan[seat] == HUMAN)

    def bot_action(self, seat: int, position: Position) -> Action:
        """The next action of a bot's seat (:func:`~ghostparty.sim.playout.next_action`):
        its roll, or its decision, with a spinner while it thinks, at a terminal."""
        bot, rng = self.bots[seat]
        if position.phase == ROLL or not self.console.is_terminal:
            return next_action(position, bot, rng, self.next_roll)
        with self.console.status(f"{seat_name(seat)} ({self.plan[seat]}) is thinking…", spinner="dots"):
            return next_action(position, bot, rng, self.next_roll)

    def next_roll(self) -> Roll:
        """The die's next outcome: a roll taken back by ``undo``, else from the game's source."""
        if self.tape:
            return self.tape.pop(0)
        return sample_roll(self.game.rng)

    def perform(self, action: Action, human: bool) -> None:
        """Apply an action, tell what happened and draw the board — but not after a
        number is rolled: the move that follows is drawn."""
        events = self.game.push(action)
        for line in narrate(events) or [describe_action(action)]:
            self.say(line)
        self.dirty = True
        if type(action) is Roll and self.game.state.phase == MOVE:
            return
        self.draw()
        if not human and self.delay:
            time.sleep(self.delay)

    # -- a person's turn

    def read(self, prompt: Text) -> str:
        """One line from the person; end of input leaves the game."""
        try:
            line = self.console.input(prompt)
        except EOFError:
            self.console.print()
            raise Quit("end of input") from None
        if not self.interactive:  # show scripted input as if it had been typed
            self.console.print(line, markup=False, highlight=False)
        return line.strip()

    def ask(self, seat: int) -> Action | None:
        """The action the person in ``seat`` chooses; ``None`` after an undo."""
        if self.dirty and self.board:
            self.draw()
        elif self.dirty:  # without the board: whose turn, the clock or round, Hugo
            self.console.print(header(self.game.state))
            self.dirty = False
        position = self.game.state
        actions = self.game.actions()
        if position.phase != ROLL:
            self.list_choices(position, actions)
        while True:
            line = self.read(self.prompt(position))
            command = line.lower()
            if command in ("q", "quit", "exit"):
                raise Quit("quit")
            if command in ("?", "h", "help"):
                self.console.print(HELP, markup=False, highlight=False)
            elif command in ("b", "board"):
                self.draw(force=True)
                if position.phase != ROLL:
                    self.list_choices(position, actions)
            elif command in ("m", "moves", "list", "l") and position.phase != ROLL:
                self.list_choices(position, actions)
            elif command in ("u", "undo"):
                message = self.undo(seat)
                self.console.print(message, markup=False, highlight=False)
                if message.startswith("took back"):
                    return None
            elif position.phase == ROLL:
                if command in ("", "r", "roll"):
                    return self.next_roll()
                self.console.print("[red]press Enter to roll[/] (or type ? for help)")
            else:
                try:
                    return parse_choice(line, actions, position.board)
                except ValueError as error:
                    self.console.print(Text(str(error), style="red"))

    def prompt(self, position: Position) -> Text:
        text = seat_tag(position.to_move, self.labels[position.to_move])
        if position.phase == ROLL:
            text.append(": press Enter to roll the die (? for help) ")
        elif position.phase == PLACE:
            text.append(": place a guest on which square? (? for help) ")
        else:
            text.append(f": you rolled {position.roll} — move a guest, number or squares (? for help) ")
        return text

    def list_choices(self, position: Position, actions: Sequence[Action]) -> None:
        """The choices: the empty squares when placing, else a numbered list of legal
        actions with what each move would do."""
        if position.phase == PLACE:
            squares = [int(action.square[1:]) for action in actions if type(action) is Place]
            self.console.print(f"Empty squares: {square_ranges(squares)}", markup=False)
            return
        items = []
        for number, action in enumerate(actions, 1):
            item = Text(f"{number:>2}) ", style="bold")
            item.append(describe_action(action))
            for note in consequences(position, action):
                item.append(f"  [{note}]", style="yellow")
            items.append(item)
        self.console.print(Columns(items, padding=(0, 3), column_first=True))

    def undo(self, seat: int) -> str:
        """Take back ``seat``'s last decision and every action after it.

        Rolls taken back are kept and come again in the same order, so undoing never
        changes the dice. Another person's decision in between stops the undo.
        """
        game = self.game
        positions, history = game.positions, game.history
        decisions = [
            index
            for index in range(len(history))
            if positions[index].phase in (PLACE, MOVE) and self.plan[positions[index].to_move] == HUMAN
        ]
        mine = [index for index in decisions if positions[index].to_move == seat]
        if not mine:
            return "nothing to undo yet"
        index = mine[-1]
        if decisions[-1] != index:
            return f"cannot undo: {seat_name(positions[decisions[-1]].to_move)} has decided since your last move"
        self.tape[:0] = [action for action in history[index:] if type(action) is Roll]
        while len(game.history) > index:
            game.undo()
        self.dirty = True
        self.say(f"{seat_name(seat)} takes back {describe_action(history[index])}")
        return f"took back {describe_action(history[index])}"


# -- the end: the result and the record ------------------------------------------------------


def result_lines(position: Position, labels: Sequence[str]) -> list[Text]:
    """The winners and every seat's score, best first."""
    winners = position.winners
    head = Text("Winner: " if len(winners) == 1 else "Winners: ", style="bold")
    for i, seat in enumerate(winners):
        head.append(", " if i else "")
        head.append_text(seat_tag(seat, labels[seat]))
    unit = "spooky points" if position.ruleset.scores_during_play else "points"
    head.append(f" with {position.scores[winners[0]]} {unit} (fewest wins)")
    ranking = Text("Scores: ")
    for i, seat in enumerate(sorted(range(position.players), key=lambda s: (position.scores[s], s))):
        ranking.append(" · " if i else "")
        ranking.append_text(seat_tag(seat))
        ranking.append(f" {position.scores[seat]}")
    return [head, ranking]


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
        console.print(f"Saved the game record to {save} (see it again with: ghostparty replay {save})", markup=False)
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
            console.print(f"Saved to {name} (see it again with: ghostparty replay {name})", markup=False)
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
