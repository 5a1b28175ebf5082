"""A game of ``ghostparty play`` under way: :class:`Session` asks the people at the
terminal for their choices (numbered lists, or squares and rooms typed), lets the bots
choose, rolls the game's seeded die, tells the events in words and draws the board
(:mod:`ghostparty.cli.board_view`); :func:`result_lines` says how it ended.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from random import Random

from rich.columns import Columns
from rich.console import Console
from rich.text import Text

from ghostparty.bots import Bot, make_bot
from ghostparty.cli.board_view import header, render, seat_style, seat_tag
from ghostparty.cli.choices import consequences, parse_choice, square_ranges
from ghostparty.cli.seats import HUMAN, seat_labels
from ghostparty.rules import (
    COLOURS,
    MOVE,
    PLACE,
    ROLL,
    Action,
    Game,
    Place,
    Position,
    Roll,
    sample_roll,
)
from ghostparty.rules.narrate import describe_action, narrate, seat_name
from ghostparty.sim.playout import next_action
from ghostparty.sim.seeds import bot_rng

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
