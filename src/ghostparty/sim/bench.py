"""The engine benchmark: random games through the typed API, the JSON interface and the
compiled bulk simulator (:mod:`ghostparty.fast`, when numba is installed).

Every interface plays the same kind of game: every decision uniform among the legal
actions, every die roll from the real die (RULES.md §1.4). Times are wall-clock and
process CPU time: on a shared machine the CPU time per action is the steadier figure.

:func:`play_fast` (the rules core's own :func:`ghostparty.rules.playout.random_game`,
compiled with the core when it is built) and :func:`play_json` are written out by hand
rather than built on the one game loop (:func:`ghostparty.sim.playout.playout`): a
benchmark of the engine must not measure a generator, a step object and a bot call per
action. They play the game that loop plays with the random bot and the die drawing from
the same source (a test checks it), so the figures are those of the engine alone.
"""

from __future__ import annotations

import platform
import time
from collections.abc import Callable
from dataclasses import dataclass
from random import Random

from ghostparty.rules import Game, Ruleset, legal_actions, start_position
from ghostparty.rules.actions import DIE_FACES
from ghostparty.rules.notation import action_to_dict
from ghostparty.rules.playout import random_game

#: ``fast`` is the typed API, ``json`` FORMAT.md's interface, ``compiled`` the Numba simulator.
INTERFACES = ("fast", "json", "compiled")


#: One random game on :class:`Position` values; returns its number of actions.
play_fast: Callable[[Ruleset, int, Random], int] = random_game


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
    #: CPU time of every process that played (the compiled interface's workers summed).
    cpu_seconds: float = 0.0
    #: Processes that played.
    jobs: int = 1

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    @property
    def microseconds_per_action(self) -> float:
        return self.seconds / self.actions * 1e6

    @property
    def cpu_games_per_second(self) -> float:
        """Games per CPU second: what one core plays when it is not shared."""
        return self.games / self.cpu_seconds if self.cpu_seconds else float("nan")

    @property
    def cpu_microseconds_per_action(self) -> float:
        return self.cpu_seconds / self.actions * 1e6

    @property
    def actions_per_game(self) -> float:
        return self.actions / self.games


def bench(ruleset: Ruleset, players: int, interface: str, games: int, seed: int = 0, jobs: int = 1) -> BenchResult:
    """Time ``games`` random games: on one core, or (compiled only) over ``jobs`` processes.

    The compiled interface must be ready (see :func:`compile_kernel`): its compile time
    is not part of the result; nor, for the others, is making the rule set's move tables.
    """
    if interface == "compiled":
        from ghostparty.fast.runs import simulate

        run = simulate(ruleset.id, players, games, seed, ("random",), jobs)
        return BenchResult(
            ruleset.id, players, interface, games, int(run.actions.sum()), run.seconds, run.cpu_seconds, run.jobs
        )
    play = PLAYERS[interface]
    legal_actions(start_position(ruleset, players))
    rng = Random(seed)
    actions = 0
    started, cpu = time.perf_counter(), time.process_time()
    for _ in range(games):
        actions += play(ruleset, players, rng)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    return BenchResult(ruleset.id, players, interface, games, actions, seconds, cpu)


def compile_kernel() -> tuple[float, float, bool]:
    """Make the compiled simulator ready: wall and CPU seconds, and whether Numba's cache served it.

    :raises ModuleNotFoundError: without numba (see :data:`ghostparty.fast.INSTALL_HINT`).
    """
    from ghostparty.fast.runs import warm_up

    ready = warm_up()
    return ready.seconds, ready.cpu_seconds, ready.from_cache


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
