"""The Gymnasium environment: one seat against bots from :mod:`ghostparty.bots`.

>>> import gymnasium, ghostparty.rl
>>> env = gymnasium.make("ghostparty/Hugo-v0", players=4, opponents="greedy", seat=2)
>>> observation, info = env.reset(seed=3)
>>> info["seat"], int(observation["action_mask"].sum())  # seat 2 places its first guest
(2, 38)

The learner plays ``seat`` (``None``: a seat drawn from the seed at every reset); the
other seats are played by ``opponents`` — one bot spec for all of them, or one per
other seat in seat order (``"greedy"``, ``"expectimax:depth=2"``, …; see
``ghostparty.bots.make_bot``). Each bot draws from its own random source, seeded with
the die from ``reset(seed=…)``.

Observations, action ids and rewards are those of the AEC environment
(:mod:`ghostparty.rl.aec`). Between two of the learner's decisions the environment
rolls the die and lets the bots play. An action its mask does not mark ends the
episode at once with reward ``illegal_reward`` (-1 by default) and
``info["illegal_action"]`` set — Gymnasium has no action masks of its own, so agents
that sample without the mask must be able to go on.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any

import gymnasium
import numpy as np

from ghostparty.bots import Bot, make_bot
from ghostparty.rl.actions import N_ACTIONS, legal_ids
from ghostparty.rl.aec import Observation, as_id, observation_space
from ghostparty.rl.observation import encode
from ghostparty.rl.rewards import check_reward, final_rewards
from ghostparty.rl.text import position_text
from ghostparty.rules import OVER, ROLL, Action, Position, apply, ruleset, start_position
from ghostparty.rules.actions import DIE_FACES

#: The registered environment ids and their rule sets.
GYM_IDS = {"ghostparty/Hugo-v0": "hugo", "ghostparty/MidnightParty-v0": "midnight-party"}


class SeatEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One seat of a game of ``rules`` with ``players`` players, the others bots."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 - as gymnasium declares it

    def __init__(
        self,
        rules: str = "hugo",
        players: int = 2,
        opponents: str | Sequence[str] = "random",
        *,
        seat: int | None = None,
        reward: str = "win",
        illegal_reward: float = -1.0,
        first_player: int = 0,
        render_mode: str | None = None,
    ) -> None:
        self.ruleset = ruleset(rules)
        start_position(self.ruleset, players, first_player)  # checks players and first_player
        specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != players - 1:
            raise ValueError(f"opponents: expected one bot spec or {players - 1}, got {len(specs)}: {specs!r}")
        for spec in specs:
            make_bot(spec)  # an unknown name or option fails here, not at the first reset
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat must be None or a seat 0 to {players - 1}, got {seat!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"unknown render_mode {render_mode!r}: expected None or 'ansi'")
        self.players = players
        self.opponents = specs
        self.fixed_seat = seat
        self.reward = check_reward(reward)
        self.illegal_reward = float(illegal_reward)
        self.first_player = first_player
        self.render_mode = render_mode
        self.observation_space = observation_space()
        self.action_space = gymnasium.spaces.Discrete(N_ACTIONS)
        self.seat = 0 if seat is None else seat
        self._position = start_position(self.ruleset, players, first_player)
        self._bots: dict[int, tuple[Bot, Random]] = {}
        self._legal: dict[int, Action] = {}
        self._done = True

    @property
    def position(self) -> Position:
        """The current position."""
        return self._position

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new game, played up to the learner's first decision. ``options`` are not used."""
        super().reset(seed=seed)
        rng = self.np_random
        self.seat = int(rng.integers(self.players)) if self.fixed_seat is None else self.fixed_seat
        others = [seat for seat in range(self.players) if seat != self.seat]
        self._bots = {
            seat: (make_bot(spec), Random(int(rng.integers(2**63))))
            for seat, spec in zip(others, self.opponents, strict=True)
        }
        self._done = False
        self._position = self._play_bots(start_position(self.ruleset, self.players, self.first_player))
        return self._observe(), {"seat": self.seat}

    def step(self, action: int | np.int64) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("the episode is over: call reset() before step()")
        chosen = self._legal.get(as_id(action))
        if chosen is None:
            self._done = True
            return self._observe(), self.illegal_reward, True, False, {"seat": self.seat, "illegal_action": True}
        self._position = self._play_bots(apply(self._position, chosen))
        info: dict[str, Any] = {"seat": self.seat}
        reward = 0.0
        if self._position.phase == OVER:
            self._done = True
            reward = final_rewards(self._position, self.reward)[self.seat]
            info |= {"scores": list(self._position.scores), "winners": list(self._position.winners)}
        return self._observe(), reward, self._done, False, info

    def render(self) -> str | None:
        """The position as text (``render_mode="ansi"``)."""
        return position_text(self._position) if self.render_mode == "ansi" else None

    def _play_bots(self, position: Position) -> Position:
        """Roll and let the bots play until the learner must decide or the game is over."""
        rng = self.np_random
        while position.phase != OVER:
            if position.phase == ROLL:
                position = apply(position, DIE_FACES[int(rng.integers(6))])
            elif position.to_move == self.seat:
                break
            else:
                bot, bot_rng = self._bots[position.to_move]
                position = apply(position, bot.choose(position, bot_rng))
        self._legal = legal_ids(position) if position.phase != OVER else {}
        return position

    def _observe(self) -> Observation:
        mask = np.zeros(N_ACTIONS, dtype=np.int8)
        if not self._done:
            mask[list(self._legal)] = 1
        return {"observation": encode(self._position, self.seat), "action_mask": mask}
