"""How long tournament pairing takes: one Swiss round and one arena pass over a big field.

The field is ``entrants`` players with seeded random ratings. For Swiss, ``rounds_before``
rounds are paired and given random places first (untimed), so the timed round has score
groups, byes and table-mates to avoid; each timed pass pairs that round on a fresh copy.
For the arena, everyone has played one game already (random places, untimed) and is
free again, so the pass orders by points and avoids each one's last opponents. Times are
process CPU time (the steadier figure on a shared machine) and wall clock, per pass.
"""

from __future__ import annotations

import copy
import statistics
import time
from dataclasses import dataclass
from random import Random

from ghostparty.tournaments import Arena, ArenaConfig, Swiss, SwissConfig
from ghostparty.tournaments.grouping import repeats

#: The field timed: a large tournament's.
ENTRANTS = 5_000
#: Rounds played before the timed Swiss round.
ROUNDS_BEFORE = 4
#: Timed passes per setting.
PASSES = 3


@dataclass(frozen=True)
class PairingTime:
    """One kind of pass timed on one setting, in milliseconds per pass."""

    kind: str
    table_size: int
    entrants: int
    tables: int
    #: Table-mates seated together again (Swiss: anyone met before; arena: last game's).
    repeats: int
    cpu_ms: tuple[float, ...]
    wall_ms: tuple[float, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "table_size": self.table_size,
            "entrants": self.entrants,
            "tables": self.tables,
            "repeats": self.repeats,
            "passes": len(self.cpu_ms),
            "median_cpu_ms": round(statistics.median(self.cpu_ms), 1),
            "max_cpu_ms": round(max(self.cpu_ms), 1),
            "median_wall_ms": round(statistics.median(self.wall_ms), 1),
        }


def swiss_round(
    table_size: int, entrants: int = ENTRANTS, seed: int = 0, rounds_before: int = ROUNDS_BEFORE, passes: int = PASSES
) -> PairingTime:
    """Time pairing round ``rounds_before + 1`` of a Swiss for ``entrants`` players."""
    rng = Random(seed)
    state = Swiss(SwissConfig(table_size, rounds_before + 1))
    for i in range(entrants):
        state.join(f"p{i}", rng.gauss(1500, 250))
    for _ in range(rounds_before):
        played = state.pair_round(rng)
        for number in range(1, len(played.tables) + 1):
            state.record(played.number, number, [rng.randint(1, table_size) for _ in range(table_size)])
    cpu, wall, tables, again = [], [], 0, 0
    for k in range(passes):
        fresh = copy.deepcopy(state)
        met = {p: set(e.mates) for p, e in fresh.players.items()}
        seats = Random(seed * 1000 + k)
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        played = fresh.pair_round(seats)
        cpu.append(1000 * (time.process_time() - start_cpu))
        wall.append(1000 * (time.perf_counter() - start_wall))
        tables = len(played.tables)
        again = sum(1 for t in played.tables for a, p in enumerate(t.seats) for q in t.seats[a + 1 :] if q in met[p])
    return PairingTime("swiss", table_size, entrants, tables, again, tuple(cpu), tuple(wall))


def arena_pass(table_size: int, entrants: int = ENTRANTS, seed: int = 0, passes: int = PASSES) -> PairingTime:
    """Time one arena pairing pass over ``entrants`` free players who each played a game."""
    rng = Random(seed)
    state = Arena(ArenaConfig(table_size, 0.0, 3600.0))
    for i in range(entrants):
        state.join(f"p{i}", rng.gauss(1500, 250), 0.0)
    for k, seats in enumerate(state.pairing(0.0, rng)):
        state.start_game(f"g{k}", seats, 0.0)
        state.finish_game(f"g{k}", [rng.randint(1, table_size) for _ in range(table_size)], 1.0 + k / entrants)
    cpu, wall, tables = [], [], []
    for _ in range(passes):
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        tables = state.pairing(2.0, rng)
        cpu.append(1000 * (time.process_time() - start_cpu))
        wall.append(1000 * (time.perf_counter() - start_wall))
    index = {p: i for i, p in enumerate(state.players)}
    avoid = [{index[o] for o in e.last_opponents} for e in state.players.values()]
    again = repeats([[index[p] for p in t] for t in tables], avoid)
    return PairingTime("arena", table_size, entrants, len(tables), again, tuple(cpu), tuple(wall))
