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
players with the fewest repeats, and a repair pass then swaps each player still sitting
with someone they met for a player of the nearest table where the swap lowers the
repeats (so a few players float to a neighbouring table rather than meet again).
Without any avoided pair both give the plain chunks of the order: ``[0, 1, 2, 3],
[4, 5, 6, 7], …``.

>>> group(4, 2, [{1}, {0}, set(), set()])
[[0, 2], [1, 3]]
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

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
    if found is not None:
        return [found[start : start + size] for start in range(0, n, size)]
    order = _greedy(n, size, avoid)
    tables = [order[start : start + size] for start in range(0, n, size)]
    _repair(tables, avoid, limit)
    tables.sort(key=min)  # each still opened by the best player left
    for table in tables:
        table.sort()
    return tables


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


def _repair(tables: list[list[int]], avoid: Sequence[Collection[int]], limit: int) -> None:
    """Swap players who meet someone again with players of the nearest tables, in place,
    while a swap lowers the repeats (at most ``limit`` seats looked at)."""

    def cost(player: int, table: list[int], without: int) -> int:
        return sum(1 for m in table if m not in (without, player) and player in avoid[m])

    steps, improved = 0, True
    while improved:
        improved = False
        for t, table in enumerate(tables):
            for s in range(len(table)):
                if cost(table[s], table, table[s]):
                    found, steps = _swap(tables, t, s, cost, steps)
                    improved |= found
                if steps > limit:
                    return


def _swap(
    tables: list[list[int]], t: int, s: int, cost: Callable[[int, list[int], int], int], steps: int
) -> tuple[bool, int]:
    """Swap seat ``s`` of table ``t`` with a seat of the nearest table where that lowers
    the repeats; whether it did, and the steps counted."""
    table, p = tables[t], tables[t][s]
    for d in range(1, len(tables)):
        for u in (t - d, t + d):
            if not 0 <= u < len(tables):
                continue
            other = tables[u]
            for r, q in enumerate(other):
                steps += 1
                if cost(q, table, p) + cost(p, other, q) < cost(p, table, p) + cost(q, other, q):
                    table[s], other[r] = q, p
                    return True, steps
    return False, steps
