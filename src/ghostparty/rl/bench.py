"""How fast the environments step: whole random games, on one core.

    python -m ghostparty.rl.bench [--games 200] [--seconds 0] [--repeat 3]

Every decision is uniform among the actions the mask marks (drawn with numpy, as a
learner would); the die is the environment's. For each environment and setting it
prints games/s, agent steps/s and the CPU time per step (``time.process_time``, the
measure that does not depend on what else the machine runs), beside the typed
engine's own random games (``ghostparty.sim.bench.play_fast``) for the overhead of
observations and masks. Each row is measured ``--repeat`` times (the same games) and
the run with the least CPU time per step is shown: on a shared machine the others are
slowed by whatever else runs.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass
from random import Random

import numpy as np

from ghostparty.rl.aec import GhostPartyEnv
from ghostparty.rl.gym_env import SeatEnv
from ghostparty.rules import ruleset
from ghostparty.sim.bench import play_fast

SETTINGS = (("hugo", 2), ("hugo", 4), ("midnight-party", 4))


@dataclass(frozen=True)
class Result:
    name: str
    rules: str
    players: int
    games: int
    steps: int
    seconds: float
    cpu: float

    def row(self) -> str:
        return (
            f"{self.name:10} {self.rules:15} {self.players:2}p  {self.games / self.seconds:8,.0f} games/s"
            f"  {self.steps / self.seconds:9,.0f} steps/s  {self.cpu / self.steps * 1e6:6.1f} µs CPU/step"
            f"  {self.steps / self.games:5.0f} steps/game"
        )


def aec_game(env: GhostPartyEnv, seed: int, rng: np.random.Generator) -> int:
    """One random game through PettingZoo's AEC calls; the number of agent steps."""
    env.reset(seed=seed)
    steps = 0
    for _ in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        steps += 1
    return steps


def gym_game(env: SeatEnv, seed: int, rng: np.random.Generator) -> int:
    """One random episode of the Gymnasium environment against random bots."""
    observation, _ = env.reset(seed=seed)
    steps, done = 0, False
    while not done:
        observation, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        steps += 1
    return steps


def measure(name: str, rules: str, players: int, games: int, seconds: float) -> Result:
    """Play ``games`` games (or for ``seconds``, if more than 0) and time them."""
    play: Callable[[int], int]
    rng = np.random.default_rng(0)
    if name == "aec":
        aec = GhostPartyEnv(rules, players)
        play = lambda seed: aec_game(aec, seed, rng)  # noqa: E731
    elif name == "gym":
        gym = SeatEnv(rules, players, "random")
        play = lambda seed: gym_game(gym, seed, rng)  # noqa: E731
    else:
        rs = ruleset(rules)
        play = lambda seed: play_fast(rs, players, Random(seed))  # noqa: E731
    played = steps = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while played < games or time.perf_counter() - wall < seconds:
        steps += play(played)
        played += 1
    return Result(name, rules, players, played, steps, time.perf_counter() - wall, time.process_time() - cpu)


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Random games through the RL environments: games/s, steps/s, CPU/step."
    )
    parser.add_argument("--games", type=int, default=200, help="games per row (default 200)")
    parser.add_argument("--seconds", type=float, default=0.0, help="or play each row for this long at least")
    parser.add_argument("--repeat", type=int, default=3, help="measure each row this often, keep the least CPU time")
    args = parser.parse_args()
    print("engine: the typed engine's random games (every action, die rolls included, is a step)")
    print("aec: PettingZoo, every seat an agent; gym: one seat against random bots (its own decisions are the steps)")
    for rules, players in SETTINGS:
        for name in ("engine", "aec", "gym"):
            runs = [measure(name, rules, players, args.games, args.seconds) for _ in range(max(1, args.repeat))]
            print(min(runs, key=lambda run: run.cpu / run.steps).row(), flush=True)


if __name__ == "__main__":
    main()
