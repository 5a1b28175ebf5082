"""Reinforcement-learning environments (``pip install "ghostparty[rl]"``).

* :mod:`ghostparty.rl.aec` — PettingZoo AEC environment, every seat an agent;
* :mod:`ghostparty.rl.gym_env` — Gymnasium environment, one seat against bots,
  registered as ``ghostparty/Hugo-v0`` and ``ghostparty/MidnightParty-v0``;
* :mod:`ghostparty.rl.openspiel` — the game for OpenSpiel (``python_ghostparty``), with
  the die as explicit chance nodes, when ``open-spiel`` is installed;
* :mod:`ghostparty.rl.actions` — the fixed action space: every action as an id;
* :mod:`ghostparty.rl.observation` — the observation vector, field by field;
* :mod:`ghostparty.rl.rewards` — the game's result as rewards.

docs/RL.md describes them. Importing this package needs numpy, gymnasium and
pettingzoo; it registers the Gymnasium environments.
"""

from __future__ import annotations

try:
    import gymnasium as _gymnasium
    import numpy as _numpy  # noqa: F401
    import pettingzoo as _pettingzoo  # noqa: F401
except ModuleNotFoundError as error:  # pragma: no cover - depends on the install
    raise ModuleNotFoundError(
        f"ghostparty.rl needs: pip install 'ghostparty[rl]' ({error.name} is not installed)", name=error.name
    ) from None

from ghostparty.rl.actions import N_ACTIONS, action_from_id, action_id, action_mask, legal_ids
from ghostparty.rl.aec import GhostPartyEnv, env, raw_env
from ghostparty.rl.gym_env import GYM_IDS, SeatEnv
from ghostparty.rl.observation import FIELDS, SIZE, encode, fields

for _id, _rules in GYM_IDS.items():
    if _id not in _gymnasium.registry:
        _gymnasium.register(id=_id, entry_point="ghostparty.rl.gym_env:SeatEnv", kwargs={"rules": _rules})

__all__ = [
    "FIELDS",
    "GYM_IDS",
    "N_ACTIONS",
    "SIZE",
    "GhostPartyEnv",
    "SeatEnv",
    "action_from_id",
    "action_id",
    "action_mask",
    "encode",
    "env",
    "fields",
    "legal_ids",
    "raw_env",
]
