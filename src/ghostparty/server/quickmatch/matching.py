"""Quick-match: which waiting players make a table (pure; no store, no clock of its own).

Everyone waiting asked for a rule set, a number of players (or any, meaning 2 to 4),
rated or not, and how long they will wait before bots fill the empty seats (or never).
:func:`propose` forms tables first come, first served: the longest-waiting player
anchors a table and is joined by the next-longest-waiting compatible players — same
rule set, same rated-ness, a number of players both accept, neither having blocked
the other (:attr:`Waiting.avoid`, either way), a bot account only with bots and people
who allow bots (:attr:`Waiting.bot`, :attr:`Waiting.allow_bots`), and for rated tables a rating within
both players' ranges, which widen as they wait (:func:`rating_range`). "Any" prefers the largest table it can fill now. Once the anchor
has waited its ``bots_after``, the table is formed with whoever is compatible and bots
in the other seats.

Players who finish their games sit together first: for its first :data:`PREFER_SECONDS`
of waiting, an anchor takes the compatible players of its own kind — who finished at
least :data:`RELIABLE_SHARE` of their games, or have played fewer than
:data:`RELIABLE_AFTER` (a newcomer is trusted), versus the others — before the rest, each
kind longest waiting first. Nobody waits longer for it: when too few of one's own kind
wait, the others fill the table as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

#: What "any number of players" means.
ANY_SIZES = (4, 3, 2)
#: A rated player's range of opponents' ratings: this many points either side at first …
RANGE_START = 150
#: … widened by this many points a second of waiting …
RANGE_GROWTH = 10
#: … up to this.
RANGE_MAX = 800
#: Players who finished at least this share of their games sit together first …
RELIABLE_SHARE = 0.9
#: … counted from this many games on (before, a player counts as finishing them) …
RELIABLE_AFTER = 10
#: … for this many seconds of the anchor's waiting.
PREFER_SECONDS = 30


@dataclass(frozen=True, slots=True)
class Waiting:
    """One player in the queue."""

    ticket: str
    rules: str
    players: int | None
    rated: bool
    bots_after: int | None
    joined: datetime
    player_id: int | None = None
    #: The shown rating (rated queue only).
    rating: int | None = None
    #: Accounts this player must not sit with: blocked by them, or who blocked them.
    avoid: frozenset[int] = frozenset()
    #: The share of their games they finished (not left to a bot), 0 to 1; ``None`` for
    #: guests and players of fewer than :data:`RELIABLE_AFTER` games.
    finishes: float | None = None
    #: A bot account (the Bot API): it sits only with bots and people who allow bots.
    bot: bool = False
    #: A person who accepts bot accounts at their table (the Play-now form's checkbox).
    allow_bots: bool = False

    @property
    def reliable(self) -> bool:
        return self.finishes is None or self.finishes >= RELIABLE_SHARE


@dataclass(frozen=True, slots=True)
class Group:
    """A table to form: who sits (longest waiting first) and how many bots join them."""

    rules: str
    rated: bool
    members: tuple[Waiting, ...]
    bots: int

    @property
    def size(self) -> int:
        return len(self.members) + self.bots


def waited(entry: Waiting, now: datetime) -> float:
    return max((now - entry.joined).total_seconds(), 0.0)


def rating_range(entry: Waiting, now: datetime) -> tuple[int, int] | None:
    """The ratings ``entry`` accepts as opponents now (``None``: unrated, any)."""
    if not entry.rated or entry.rating is None:
        return None
    width = min(RANGE_START + RANGE_GROWTH * waited(entry, now), RANGE_MAX)
    return round(entry.rating - width), round(entry.rating + width)


def _accepts(entry: Waiting, other: Waiting, now: datetime) -> bool:
    limits = rating_range(entry, now)
    return limits is None or other.rating is None or limits[0] <= other.rating <= limits[1]


def _compatible(anchor: Waiting, other: Waiting, now: datetime) -> bool:
    return (
        other.rules == anchor.rules
        and other.rated == anchor.rated
        and (other.player_id is None or other.player_id != anchor.player_id)
        and (other.player_id is None or other.player_id not in anchor.avoid)
        and (anchor.player_id is None or anchor.player_id not in other.avoid)
        and _accepts(anchor, other, now)
        and _accepts(other, anchor, now)
        and _bots_welcome(anchor, other)
        and _bots_welcome(other, anchor)
    )


def _bots_welcome(entry: Waiting, other: Waiting) -> bool:
    """Whether ``entry`` may sit with ``other`` as far as bot accounts go: a bot account
    sits only with bots and with people who allow bots."""
    return not other.bot or entry.bot or entry.allow_bots


def _sizes(entry: Waiting) -> tuple[int, ...]:
    return (entry.players,) if entry.players is not None else ANY_SIZES


def propose(queue: Sequence[Waiting], now: datetime) -> list[Group]:
    """The tables to form from ``queue`` now (each player in one at most)."""
    waiting = sorted(queue, key=lambda e: (e.joined, e.ticket))
    taken: set[str] = set()
    groups = []
    for anchor in waiting:
        if anchor.ticket in taken:
            continue
        others = [e for e in waiting if e.ticket not in taken and e is not anchor and _compatible(anchor, e, now)]
        if waited(anchor, now) < PREFER_SECONDS:  # its own kind first (stable: longest waiting first)
            others.sort(key=lambda e: e.reliable != anchor.reliable)
        group = _fill(anchor, others, now)
        if group is not None:
            groups.append(group)
            taken.update(member.ticket for member in group.members)
    return groups


def _fill(anchor: Waiting, others: Sequence[Waiting], now: datetime) -> Group | None:
    for size in _sizes(anchor):
        members = _gather(anchor, others, size, now)
        if len(members) == size:
            return Group(anchor.rules, anchor.rated, tuple(members), 0)
    if anchor.bots_after is None or waited(anchor, now) < anchor.bots_after:
        return None
    # bots fill the seats nobody came for: as many people as will fit, the rest bots
    size = _sizes(anchor)[0]
    members = _gather(anchor, others, size, now)
    return Group(anchor.rules, anchor.rated, tuple(members), size - len(members))


def _gather(anchor: Waiting, others: Sequence[Waiting], size: int, now: datetime) -> list[Waiting]:
    """The anchor and, longest waiting first, up to ``size - 1`` others who accept a table
    of ``size`` and each other."""
    members = [anchor]
    for other in others:
        if len(members) == size:
            break
        if size in _sizes(other) and all(_compatible(m, other, now) for m in members[1:]):
            members.append(other)
    return members


def counts(queue: Sequence[Waiting]) -> list[tuple[str, int | None, bool, int]]:
    """How many wait per (rules, players, rated), for the lobby."""
    found: dict[tuple[str, int | None, bool], int] = {}
    for entry in queue:
        key = (entry.rules, entry.players, entry.rated)
        found[key] = found.get(key, 0) + 1
    return sorted(((*key, n) for key, n in found.items()), key=lambda r: (r[0], r[1] or 0, r[2]))
