"""The game for OpenSpiel: ``python_ghostparty``, registered when this module is imported.

>>> import pyspiel
>>> import ghostparty.rl.openspiel
>>> game = pyspiel.load_game("python_ghostparty(rules=midnight-party,players=3)")
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(3, 3106, 5)

Parameters ``rules`` (``"hugo"``, ``"midnight-party"``) and ``players`` (2–8). Actions
are the ids of :mod:`ghostparty.rl.actions`; every die roll is an explicit chance node
(``current_player() == pyspiel.PlayerId.CHANCE``) whose outcomes are ids 0–4, the
faces 1, 2, 4, 5 with probability 1/6 each and HUGO with 1/3 (RULES.md §1.4), so that
OpenSpiel's algorithms (MCTS, expectiminimax, random simulation) run on it unchanged.
Returns are each seat's share of the win (:mod:`ghostparty.rl.rewards`, ``"win"``), a
constant-sum game: the shares add up to 1. Observation tensors are the observation of
:mod:`ghostparty.rl.observation` from the given player's seat.

The game has no hard bound on its length (the die could avoid HUGO forever); OpenSpiel
asks for one, and :data:`MAX_GAME_LENGTH` is far beyond any game seen (docs/RL.md).
Needs ``open-spiel`` (``pip install open-spiel``); importing this module without it
raises :class:`ModuleNotFoundError` naming the package.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ghostparty.rl.actions import N_ACTIONS, action_from_id, legal_ids
from ghostparty.rl.observation import SIZE, encode, fields
from ghostparty.rl.rewards import final_rewards
from ghostparty.rl.text import position_text
from ghostparty.rules import OVER, ROLL, Position, apply, position_from_dict, position_to_dict, ruleset, start_position
from ghostparty.rules.actions import DIE

try:
    import pyspiel
except ModuleNotFoundError:  # pragma: no cover - depends on the install
    raise ModuleNotFoundError(
        "ghostparty.rl.openspiel needs OpenSpiel: pip install open-spiel (pyspiel is not installed)", name="pyspiel"
    ) from None

SHORT_NAME = "python_ghostparty"
#: OpenSpiel's bound on the number of actions in a game, chance outcomes included.
MAX_GAME_LENGTH = 10_000
_DEFAULTS: dict[str, Any] = {"rules": "hugo", "players": 2}
_CHANCE = [(i, float(p)) for i, (_, p) in enumerate(DIE)]

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Ghost Party: Hugo - Das Schlossgespenst / Midnight Party",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class GhostPartyGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type hints
    """The game for one rule set and number of players (``params``: ``rules``, ``players``)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        self.ruleset = ruleset(str(params["rules"]))
        self.players = int(params["players"])
        start_position(self.ruleset, self.players)  # checks players
        info = pyspiel.GameInfo(
            num_distinct_actions=N_ACTIONS,
            max_chance_outcomes=len(DIE),
            num_players=self.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> GhostPartyState:
        return GhostPartyState(self, start_position(self.ruleset, self.players))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params!r}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return Observer(perfect_recall)


class GhostPartyState(pyspiel.State):  # type: ignore[misc]
    """A position of the game, with OpenSpiel's history."""

    def __init__(self, game: GhostPartyGame, position: Position | None = None) -> None:
        super().__init__(game)
        self._held = _Held(start_position(game.ruleset, game.players) if position is None else position)

    @property
    def position(self) -> Position:
        """The current position (an immutable value)."""
        return self._held.position

    @position.setter
    def position(self, position: Position) -> None:
        self._held = _Held(position)

    def current_player(self) -> int:
        phase = self.position.phase
        if phase == OVER:
            return int(pyspiel.PlayerId.TERMINAL)
        if phase == ROLL:
            return int(pyspiel.PlayerId.CHANCE)
        return self.position.to_move

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(legal_ids(self.position))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(_CHANCE) if self.position.phase == ROLL else []

    def _apply_action(self, action: int) -> None:
        self.position = apply(self.position, action_from_id(self.position.ruleset.board, int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        return repr(action_from_id(self.position.ruleset.board, int(action)))

    def is_terminal(self) -> bool:
        return self.position.phase == OVER

    def returns(self) -> list[float]:
        if self.position.phase != OVER:
            return [0.0] * self.position.players
        return list(final_rewards(self.position, "win"))

    def __str__(self) -> str:
        return position_text(self.position)


class _Held:
    """Holds a position for a state's ``__dict__``, which OpenSpiel deep-copies on every
    ``clone()``: a position is immutable, so clones share it (a deep copy would also copy
    the rule set, which compares by identity, and take milliseconds); pickled, it is
    FORMAT.md's dict, read back onto the one rule set object."""

    __slots__ = ("position",)

    def __init__(self, position: Position) -> None:
        self.position = position

    def __deepcopy__(self, memo: dict[int, object]) -> _Held:
        return self

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        return _held_from_dict, (position_to_dict(self.position),)


def _held_from_dict(data: dict[str, Any]) -> _Held:
    return _Held(position_from_dict(data))


class Observer:
    """OpenSpiel's observer: the observation tensor with its fields as named views."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(SIZE, dtype=np.float32)
        self.dict = fields(self.tensor)

    def set_from(self, state: GhostPartyState, player: int) -> None:
        self.tensor[:] = encode(state.position, player)

    def string_from(self, state: GhostPartyState, player: int) -> str:
        text = position_text(state.position)
        if self.perfect_recall:  # the whole history: every action and chance outcome
            return f"{state.history()}\n{text}"
        return text


pyspiel.register_game(GAME_TYPE, GhostPartyGame)
