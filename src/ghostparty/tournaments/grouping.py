"""Split players, best first, into tables of one size: leaders together, avoiding pairs.

Both tournament kinds seat players through :func:`group`. The players come as indices
``0 … n-1`` in order of preference (standing, then rating); ``avoid[i]`` holds the indices
``i`` should not share a table with (Swiss: everyone met before; arena: last game's
opponents). The result is the first grouping, in that order, with no avoided pair:

- each table is opened by the best player not yet seated (so table 1 holds the leader);
- each further seat takes the next player in order who has met none of those seated;
- when that fails, it backtracks (depth first, most recent choice first), so in small
  fields it finds a grouping with no repeat whenever one exists.

The search is bounded (:data:`WORK_PER_SEAT` steps per player); past the bound a greedy
pass seats, at each place, the one of the next :data:`WINDOW_TABLES` tables' worth of
players with the fewest repeats. Without any avoided pair both give the plain chunks of
the order: ``[0, 1, 2, 3], [4, 5, 6, 7], …``.

>>> group(4, 2, [{1}, {0}, set(), set()])
[[0, 2], [1, 3]]
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

#: Search steps allowed per player before the greedy pass takes over.
WORK_PER_SEAT = 40
#: Search steps always allowed (small fields are searched exhaustively within it).
WORK_FLOOR = 200_000
#: The greedy pass looks this many tables' worth of players ahead for a seat.
WINDOW_TABLES = 4


def group(n: int, size: int, avoid: Sequence[Collection[int]], work: int | None = None) -> list[list[int]]:
    """Tables of ``size`` over players ``0 … n-1`` (``n`` a multiple of ``size``), best first.

    ``work`` bounds the backtracking search (default ``max(WORK_FLOOR, WORK_PER_SEAT * n)``).
    """
    if size < 1 or n % size:
        raise ValueError(f"cannot split {n} players into tables of {size}")
    limit = max(WORK_FLOOR, WORK_PER_SEAT * n) if work is None else work
    found = _search(n, size, avoid, limit)
    if found is None:
        found = _greedy(n, size, avoid)
    return [found[start : start + size] for start in range(0, n, size)]


def repeats(tables: Sequence[Sequence[int]], avoid: Sequence[Collection[int]]) -> int:
    """How many avoided pairs sit together in ``tables``."""
    return sum(1 for t in tables for a, i in enumerate(t) for j in t[a + 1 :] if j in avoid[i])


def _search(n: int, size: int, avoid: Sequence[Collection[int]], limit: int) -> list[int] | None:
    """Players in seat order, table after table, with no avoided pair; ``None`` if none was
    found within ``limit`` steps (or none exists)."""
    seated = bytearray(n)
    chosen: list[int] = []
    lowest = 0  # the first player not seated
    resume = 0  # where the current seat's candidates start (after a backtrack)
    steps = 0
    while len(chosen) < n:
        seat = len(chosen) % size
        pick = -1
        if seat == 0:
            if resume <= lowest:
                pick = lowest
        else:
            table = chosen[len(chosen) - seat :]
            j = max(resume, chosen[-1] + 1)
            while j < n:
                steps += 1
                if not seated[j] and not any(j in avoid[m] for m in table):
                    pick = j
                    break
                j += 1
        steps += 1
        if steps > limit:
            return None
        if pick >= 0:
            chosen.append(pick)
            seated[pick] = 1
            while lowest < n and seated[lowest]:
                lowest += 1
            resume = 0
            continue
        if not chosen:
            return None
        back = chosen.pop()
        seated[back] = 0
        lowest = min(lowest, back)
        resume = back + 1
    return chosen


def _greedy(n: int, size: int, avoid: Sequence[Collection[int]]) -> list[int]:
    """Players in seat order: each table opened by the best unseated player, each further
    seat the nearest of the next few unseated players with the fewest avoided pairs."""
    free = list(range(n))  # unseated players, in order; seated ones are removed
    window = WINDOW_TABLES * size
    chosen: list[int] = []
    while free:
        table = [free.pop(0)]
        for _ in range(size - 1):
            best, best_cost = 0, size
            for k, j in enumerate(free[:window]):
                cost = sum(1 for m in table if j in avoid[m])
                if cost < best_cost:
                    best, best_cost = k, cost
                    if cost == 0:
                        break
            table.append(free.pop(best))
        chosen += table
    return chosen
