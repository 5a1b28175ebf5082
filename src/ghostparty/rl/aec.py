"""The PettingZoo AEC environment: every seat an agent, both rule sets, 2–8 players.

>>> from ghostparty.rl import aec
>>> env = aec.env(rules="midnight-party", players=3)
>>> env.reset(seed=1)
>>> env.agent_selection, env.observation_space("player_0")["observation"].shape
('player_0', (610,))

Agents are ``player_0`` … ``player_{n-1}`` (seat order, clockwise). Each observation is
a dict: ``"observation"``, the position as the agent's seat sees it
(:mod:`ghostparty.rl.observation`), and ``"action_mask"``, 1 at the id of each action
the agent may take now (:mod:`ghostparty.rl.actions`; all 0 when it is not its turn).
Rewards are the game's result, given when it ends (:mod:`ghostparty.rl.rewards`).

The die: by default (``chance="env"``) the environment rolls it from its seed
(``reset(seed=…)``) whenever a seat must roll, so the agents only ever place and move.
With ``chance="agent"`` an extra agent, ``chance``, takes every roll: its mask marks
the five outcomes (ids 0–4) and :meth:`GhostPartyEnv.chance_outcomes` gives their
probabilities (RULES.md §1.4) — what a search needs to expand chance nodes; its reward
is always 0, and it observes the position as the seat about to roll.

An action that the mask does not mark raises :class:`~ghostparty.rules.IllegalAction`;
wrap the environment in PettingZoo's ``TerminateIllegalWrapper`` to end the game
with a penalty instead.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

import gymnasium
import numpy as np
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from ghostparty.rl.actions import N_ACTIONS, ActionIdError, action_from_id, legal_ids
from ghostparty.rl.observation import SIZE, bounds, encode
from ghostparty.rl.rewards import check_reward, final_rewards
from ghostparty.rl.text import position_text
from ghostparty.rules import OVER, ROLL, Action, IllegalAction, Position, apply, ruleset, start_position
from ghostparty.rules.actions import DIE, DIE_FACES

Chance = Literal["env", "agent"]
CHANCE_AGENT = "chance"
Observation = dict[str, np.ndarray[Any, Any]]


def observation_space() -> gymnasium.spaces.Dict:
    """The observation space shared by the AEC and the Gymnasium environments."""
    low, high = bounds()
    return gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(low, high, (SIZE,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (N_ACTIONS,), np.int8),
        }
    )


class GhostPartyEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type hints
    """A game of ``rules`` between ``players`` agents (PettingZoo AEC API).

    ``reward``: ``"win"`` or ``"points"`` (:mod:`ghostparty.rl.rewards`); ``chance``:
    ``"env"`` or ``"agent"`` (see the module docstring); ``first_player``: the seat
    that places first and moves first (RULES.md §2.2).
    """

    metadata: ClassVar[dict[str, Any]] = {"name": "ghostparty_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        rules: str = "hugo",
        players: int = 2,
        *,
        reward: str = "win",
        chance: Chance = "env",
        first_player: int = 0,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.ruleset = ruleset(rules)
        start_position(self.ruleset, players, first_player)  # checks players and first_player
        if chance not in ("env", "agent"):
            raise ValueError(f"unknown chance mode {chance!r}: expected 'env' or 'agent'")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"unknown render_mode {render_mode!r}: expected None or 'ansi'")
        self.players = players
        self.reward = check_reward(reward)
        self.chance: Chance = chance
        self.first_player = first_player
        self.render_mode = render_mode
        self.seats = [f"player_{seat}" for seat in range(players)]
        self.possible_agents = self.seats + ([CHANCE_AGENT] if chance == "agent" else [])
        self.observation_spaces = {agent: observation_space() for agent in self.possible_agents}
        self.action_spaces = {agent: gymnasium.spaces.Discrete(N_ACTIONS) for agent in self.possible_agents}
        self.np_random: np.random.Generator | None = None
        self._position = start_position(self.ruleset, players, first_player)
        self._legal: dict[int, Action] = {}

    # -- PettingZoo's API ------------------------------------------------------------

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``seed`` seeds the die; without one the die goes on where it was
        (unseeded the first time). ``options`` are not used."""
        if seed is not None or self.np_random is None:
            self.np_random, _ = seeding.np_random(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._set_position(start_position(self.ruleset, self.players, self.first_player))

    def observe(self, agent: str) -> Observation:
        position = self._position
        observer = position.to_move if agent == CHANCE_AGENT else self.seats.index(agent)
        mask = self._mask() if agent == self.agent_selection else np.zeros(N_ACTIONS, dtype=np.int8)
        return {"observation": encode(position, observer), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        chosen = self._legal.get(as_id(action))
        if chosen is None:
            raise IllegalAction(self._why_illegal(agent, action))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._set_position(apply(self._position, chosen))
        if self._position.phase == OVER:
            for seat, value in enumerate(final_rewards(self._position, self.reward)):
                self.rewards[self.seats[seat]] = value
            self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The position as text (``render_mode="ansi"``); ``None`` without a render mode."""
        return position_text(self._position) if self.render_mode == "ansi" else None

    def close(self) -> None:
        """Nothing to release."""

    # -- beyond PettingZoo's API -------------------------------------------------------

    @property
    def position(self) -> Position:
        """The current position (an immutable value: bots and searches may read it)."""
        return self._position

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``[(action id, probability), …]`` of the die when a seat must roll, else ``[]``.

        Ids 0–3 (1, 2, 4, 5) have 1/6 each, id 4 (HUGO) 1/3 (RULES.md §1.4).
        """
        if self._position.phase != ROLL:
            return []
        return [(i, float(p)) for i, (_, p) in enumerate(DIE)]

    def _set_position(self, position: Position) -> None:
        if self.chance == "env":
            assert self.np_random is not None
            while position.phase == ROLL:  # RULES.md §3.1: the die, from the seed
                position = apply(position, DIE_FACES[int(self.np_random.integers(6))])
        self._position = position
        self._legal = legal_ids(position)
        if position.phase == OVER:
            self.agent_selection = self.seats[position.to_move]
        elif position.phase == ROLL:
            self.agent_selection = CHANCE_AGENT
        else:
            self.agent_selection = self.seats[position.to_move]

    def _mask(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        mask = np.zeros(N_ACTIONS, dtype=np.int8)
        mask[list(self._legal)] = 1
        return mask

    def _why_illegal(self, agent: str, action: object) -> str:
        id = as_id(action)
        named = repr(action)
        if id >= 0:
            try:
                named = f"{id} ({action_from_id(self.ruleset.board, id)!r})"
            except ActionIdError:
                named = str(id)
        legal = sorted(self._legal)
        return (
            f"action {named} is not legal for {agent} now ({self._position.describe()}): "
            f"expected one of the ids its action_mask marks, {legal[:12]}{' …' if len(legal) > 12 else ''}"
        )

    def __str__(self) -> str:
        return str(self.metadata["name"])


def as_id(action: object) -> int:
    """``action`` as an action id if it is an integer (numpy's too, not a bool), else -1."""
    if isinstance(action, int | np.integer) and not isinstance(action, bool):
        return int(action)
    return -1


def env(**kwargs: Any) -> OrderEnforcingWrapper:
    """A :class:`GhostPartyEnv` in PettingZoo's ``OrderEnforcingWrapper`` (the usual way
    PettingZoo hands out environments); keyword arguments as for the class."""
    return OrderEnforcingWrapper(GhostPartyEnv(**kwargs))


raw_env = GhostPartyEnv
