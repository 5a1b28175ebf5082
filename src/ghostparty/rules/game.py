"""The mutable :class:`Game`: FORMAT.md's JSON interface and a typed one beside it."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import TYPE_CHECKING, Any

from ghostparty.rules.actions import HUGO, Action, Move, Pass, Place, Roll
from ghostparty.rules.chance import sample_roll
from ghostparty.rules.errors import IllegalAction
from ghostparty.rules.events import Event
from ghostparty.rules.movegen import legal_actions
from ghostparty.rules.notation import action_from_dict, actions_to_dicts, position_from_dict, position_to_dict
from ghostparty.rules.position import OVER, ROLL, Position, start_position
from ghostparty.rules.rulesets import Ruleset, ruleset
from ghostparty.rules.transition import apply

if TYPE_CHECKING:
    from ghostparty.rules.record import GameRecord

_ACTION_TYPES = (Roll, Place, Move, Pass)


class Game:
    """A game in progress: the current position, its history and a seeded die.

    >>> game = Game("hugo", players=2, seed=7)
    >>> game.position()["phase"]
    'place'
    >>> game.apply({"place": "G20"})
    >>> game.position()["place_queue"][:3]
    [1, 0, 1]

    The JSON methods :meth:`from_position`, :meth:`position`, :meth:`legal_actions` and
    :meth:`apply` are FORMAT.md's contract. The typed methods (:attr:`state`,
    :meth:`actions`, :meth:`push`, :meth:`roll`, :meth:`undo`) work on
    :class:`~ghostparty.rules.position.Position` and action values.
    """

    def __init__(
        self,
        rules: str | Ruleset = "hugo",
        players: int = 4,
        *,
        first_player: int = 0,
        seed: int | None = None,
    ) -> None:
        rs = ruleset(rules) if isinstance(rules, str) else rules
        self._init(start_position(rs, players, first_player), seed)

    def _init(self, start: Position, seed: int | None) -> None:
        self.seed = seed
        self.rng = Random(seed)
        self._positions = [start]
        self._actions: list[Action] = []
        # What the last action did; None until asked for (see last_events).
        self._events: list[Event] | None = []

    @classmethod
    def from_position(cls, position: Mapping[str, Any] | Position, *, seed: int | None = None) -> Game:
        """A game that starts from ``position`` (a FORMAT.md dict or a :class:`Position`).

        :raises InvalidPosition: if the dict is malformed or impossible, naming the field.
        """
        start = position if isinstance(position, Position) else position_from_dict(position)
        game = cls.__new__(cls)
        game._init(start, seed)
        return game

    # -- FORMAT.md's JSON interface ---------------------------------------------------

    def position(self) -> dict[str, Any]:
        """The current position as a fresh ``hugo-position/1`` dict."""
        return position_to_dict(self._positions[-1])

    def legal_actions(self) -> list[dict[str, Any]]:
        """Every legal action as an action dict: the five die outcomes in phase ``"roll"``,
        every decision in ``"place"`` and ``"move"``, none in ``"over"``."""
        position = self._positions[-1]
        if position.phase == ROLL:
            return [{"roll": 1}, {"roll": 2}, {"roll": 4}, {"roll": 5}, {"roll": HUGO}]
        return actions_to_dicts(legal_actions(position))

    def apply(self, action: Mapping[str, Any] | Action) -> None:
        """Apply an action dict (or action value); events go to :attr:`last_events`.

        :raises IllegalAction: (or its subclass :class:`InvalidAction` when malformed) if
            the action is not legal now; the game is then unchanged.
        """
        value = action if isinstance(action, _ACTION_TYPES) else action_from_dict(action)
        # The events are worked out only if last_events is read: apply is pure, so
        # applying the action again to the same position tells the same story.
        self._positions.append(apply(self._positions[-1], value))
        self._actions.append(value)
        self._events = None

    @property
    def last_events(self) -> list[Event]:
        """What happened during the last action applied (empty before the first, and after :meth:`undo`)."""
        if self._events is None:
            events: list[Event] = []
            apply(self._positions[-2], self._actions[-1], events)
            self._events = events
        return self._events

    # -- typed interface -----------------------------------------------------------------

    @property
    def state(self) -> Position:
        """The current position."""
        return self._positions[-1]

    @property
    def start(self) -> Position:
        """The position the game started from."""
        return self._positions[0]

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action applied since :attr:`start`, in order."""
        return tuple(self._actions)

    @property
    def positions(self) -> tuple[Position, ...]:
        """:attr:`start` and the position after each action of :attr:`history`."""
        return tuple(self._positions)

    @property
    def is_over(self) -> bool:
        return self._positions[-1].phase == OVER

    @property
    def winners(self) -> tuple[int, ...]:
        return self._positions[-1].winners

    def actions(self) -> list[Action]:
        """The legal actions as values (see :func:`ghostparty.rules.legal_actions`)."""
        return legal_actions(self._positions[-1])

    def push(self, action: Action) -> list[Event]:
        """Apply an action value and return what happened.

        :raises IllegalAction: if it is not legal now; the game is then unchanged.
        """
        if not isinstance(action, _ACTION_TYPES):
            raise IllegalAction(f"not an action: {action!r}")
        events: list[Event] = []
        self._positions.append(apply(self._positions[-1], action, events))
        self._actions.append(action)
        self._events = events
        return events

    def roll(self) -> Roll:
        """Roll the die from this game's random source and apply the result.

        :raises IllegalAction: outside phase ``"roll"``.
        """
        if self._positions[-1].phase != ROLL:
            raise IllegalAction(f"cannot roll now: phase is {self._positions[-1].phase!r}")
        outcome = sample_roll(self.rng)
        self.push(outcome)
        return outcome

    def undo(self) -> Action:
        """Take back the last action and return it.

        :raises IndexError: if no action has been applied.
        """
        if not self._actions:
            raise IndexError("no action to undo")
        self._positions.pop()
        self._events = []
        return self._actions.pop()

    def record(self) -> GameRecord:
        """This game as a :class:`~ghostparty.rules.record.GameRecord`."""
        from ghostparty.rules.record import GameRecord

        return GameRecord(start=self._positions[0], actions=tuple(self._actions), seed=self.seed)

    def __repr__(self) -> str:
        return f"<Game {self._positions[-1].describe()}, {len(self._actions)} actions>"
