"""The engine benchmark: random games through the typed API and the JSON interface.

Both interfaces play the same kind of game: every decision uniform among the legal
actions, every die roll from the real die (RULES.md §1.4).
"""

from __future__ import annotations

import platform
import time
from collections.abc import Callable
from dataclasses import dataclass
from random import Random

from ghostparty.rules import OVER, ROLL, Action, Game, Ruleset, apply, legal_actions, sample_roll, start_position
from ghostparty.rules.actions import DIE_FACES
from ghostparty.rules.notation import action_to_dict

INTERFACES = ("fast", "json")


def play_fast(ruleset: Ruleset, players: int, rng: Random) -> int:
    """Play one random game on :class:`Position` values; return its number of actions."""
    position = start_position(ruleset, players)
    count = 0
    while position.phase != OVER:
        action: Action
        if position.phase == ROLL:
            action = sample_roll(rng)
        else:
            actions = legal_actions(position)
            action = actions[int(rng.random() * len(actions))]
        position = apply(position, action)
        count += 1
    return count


_ROLL_DICTS = tuple(action_to_dict(face) for face in DIE_FACES)


def play_json(ruleset: Ruleset, players: int, rng: Random) -> int:
    """Play one random game through FORMAT.md's dict interface only; return its length."""
    game = Game(ruleset, players)
    count = 0
    while True:
        phase = game.position()["phase"]
        if phase == "over":
            return count
        if phase == "roll":
            game.apply(dict(_ROLL_DICTS[int(rng.random() * 6)]))
        else:
            actions = game.legal_actions()
            game.apply(actions[int(rng.random() * len(actions))])
        count += 1


PLAYERS: dict[str, Callable[[Ruleset, int, Random], int]] = {"fast": play_fast, "json": play_json}


@dataclass(frozen=True)
class BenchResult:
    rules: str
    players: int
    interface: str
    games: int
    actions: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    @property
    def microseconds_per_action(self) -> float:
        return self.seconds / self.actions * 1e6

    @property
    def actions_per_game(self) -> float:
        return self.actions / self.games


def bench(ruleset: Ruleset, players: int, interface: str, games: int, seed: int = 0) -> BenchResult:
    """Time ``games`` random games on one core."""
    play = PLAYERS[interface]
    rng = Random(seed)
    actions = 0
    started = time.perf_counter()
    for _ in range(games):
        actions += play(ruleset, players, rng)
    seconds = time.perf_counter() - started
    return BenchResult(ruleset.id, players, interface, games, actions, seconds)


def machine() -> str:
    """A one-line description of this machine and Python, for the benchmark's report."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as info:
            for line in info:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}; {platform.python_implementation()} {platform.python_version()} on {platform.system()}"
