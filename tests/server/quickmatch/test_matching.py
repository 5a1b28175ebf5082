"""Forming quick-match tables from the queue (pure: a queue and a time in, tables out)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghostparty.server.quickmatch.matching import (
    PREFER_SECONDS,
    RANGE_MAX,
    RANGE_START,
    RELIABLE_SHARE,
    Waiting,
    counts,
    propose,
    rating_range,
)

T0 = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


def waiting(
    name: str,
    at: float = 0,
    players: int | None = 2,
    *,
    rules: str = "hugo",
    rated: bool = False,
    rating: int | None = None,
    bots_after: int | None = None,
    player_id: int | None = None,
) -> Waiting:
    return Waiting(name, rules, players, rated, bots_after, T0 + timedelta(seconds=at), player_id, rating)


def tables(queue: list[Waiting], at: float = 0) -> list[tuple[list[str], int]]:
    return [([m.ticket for m in g.members], g.bots) for g in propose(queue, T0 + timedelta(seconds=at))]


@pytest.mark.parametrize("size", range(2, 9))
def test_a_table_forms_when_enough_players_wait(size: int) -> None:
    queue = [waiting(f"p{i}", i, size) for i in range(size - 1)]
    assert tables(queue, 10) == []
    queue.append(waiting("last", size, size))
    assert tables(queue, 10) == [([*(f"p{i}" for i in range(size - 1)), "last"], 0)]


def test_first_come_first_served_and_settings_kept_apart() -> None:
    queue = [
        waiting("a", 0, 3),
        waiting("b", 1, 2),
        waiting("c", 2, 3, rules="midnight-party"),
        waiting("d", 3, 3),
        waiting("e", 4, 2),
        waiting("f", 5, 3),
        waiting("g", 6, 3),
    ]
    assert tables(queue, 10) == [(["a", "d", "f"], 0), (["b", "e"], 0)]


def test_any_number_takes_the_largest_table_it_can_fill_now() -> None:
    assert tables([waiting("a", 0, None), waiting("b", 1, None)], 5) == [(["a", "b"], 0)]
    queue = [waiting("a", 0, None), waiting("b", 1, 3), waiting("c", 2, None), waiting("d", 3, 4)]
    assert tables(queue, 5) == [(["a", "b", "c"], 0)]  # 4 can't fill (b wants 3)
    queue = [waiting("a", 0, None), waiting("d", 1, 4), waiting("c", 2, None), waiting("e", 3, 4)]
    assert tables(queue, 5) == [(["a", "d", "c", "e"], 0)]


def test_bots_fill_the_empty_seats_once_the_first_has_waited_long_enough() -> None:
    queue = [waiting("a", 0, 4, bots_after=30), waiting("b", 10, 4, bots_after=None)]
    assert tables(queue, 29) == []
    assert tables(queue, 30) == [(["a", "b"], 2)]
    assert tables([waiting("a", 0, None, bots_after=0)], 0) == [(["a"], 3)]
    assert tables([waiting("a", 0, 3, bots_after=None)], 10_000) == []


def test_rated_players_meet_within_ranges_that_widen_as_they_wait() -> None:
    ann = waiting("ann", 0, 2, rated=True, rating=1500, player_id=1)
    bob = waiting("bob", 0, 2, rated=True, rating=1800, player_id=2)
    cid = waiting("cid", 0, 2, rated=True, rating=1500, player_id=3)
    now = T0 + timedelta(seconds=0)
    assert rating_range(ann, now) == (1500 - RANGE_START, 1500 + RANGE_START)
    assert tables([ann, bob], 0) == []  # 300 apart
    assert tables([ann, bob], 15) == [(["ann", "bob"], 0)]  # both widened to 300
    assert tables([ann, bob, cid], 0) == [(["ann", "cid"], 0)]  # the close one at once
    assert rating_range(ann, T0 + timedelta(hours=1)) == (1500 - RANGE_MAX, 1500 + RANGE_MAX)
    guest = waiting("guest", 0, 2)
    assert tables([ann, guest], 100) == []  # rated and unrated queues never mix


def test_one_account_is_never_seated_against_itself() -> None:
    queue = [waiting("tab1", 0, 2, player_id=7), waiting("tab2", 1, 2, player_id=7)]
    assert tables(queue, 10) == []


def test_counts_per_setting() -> None:
    queue = [waiting("a", 0, 2), waiting("b", 1, 2), waiting("c", 2, None, rated=True, rating=1500)]
    assert counts(queue) == [("hugo", None, True, 1), ("hugo", 2, False, 2)]


entries = st.builds(
    waiting,
    name=st.uuids().map(str),
    at=st.integers(0, 100),
    players=st.one_of(st.none(), st.integers(2, 8)),
    rules=st.sampled_from(["hugo", "midnight-party"]),
    rated=st.booleans(),
    rating=st.integers(1000, 2000),
    bots_after=st.one_of(st.none(), st.integers(0, 60)),
    player_id=st.one_of(st.none(), st.integers(1, 5)),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(entries, max_size=30), st.integers(0, 200))
def test_every_table_formed_is_one_the_players_asked_for(queue: list[Waiting], at: int) -> None:
    seated: set[str] = set()
    for group in propose(queue, T0 + timedelta(seconds=at)):
        names = [m.ticket for m in group.members]
        assert not seated & set(names) and len(set(names)) == len(names)  # each once
        seated |= set(names)
        assert 2 <= group.size <= 8
        for member in group.members:
            assert member.rules == group.rules and member.rated == group.rated
            assert member.players in (None, group.size) or (member.players is None and group.size <= 4)
        ids = [m.player_id for m in group.members if m.player_id is not None]
        assert len(ids) == len(set(ids))
        if group.bots:
            anchor = group.members[0]
            assert anchor.bots_after is not None
            assert max(at - (anchor.joined - T0).total_seconds(), 0) >= anchor.bots_after


def test_two_players_one_of_whom_blocked_the_other_never_sit_together() -> None:
    from dataclasses import replace

    ann = replace(waiting("ann", 0, 2, player_id=1), avoid=frozenset({2}))  # Ann blocked Bob
    bob = waiting("bob", 1, 2, player_id=2)  # Bob doesn't know: the block is one-sided
    assert tables([ann, bob], 10) == []
    assert tables([bob, ann], 10) == []
    cy = waiting("cy", 2, 2, player_id=3)
    assert tables([ann, bob, cy], 10) == [(["ann", "cy"], 0)]
    # nor with bots filling in: Bob's table gets a bot rather than Ann
    late = replace(bob, bots_after=0)
    assert tables([ann, late], 10) == [(["bob"], 1)]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(entries, max_size=30),
    st.lists(st.tuples(st.integers(1, 5), st.integers(1, 5)), max_size=6),
    st.integers(0, 200),
)
def test_no_table_formed_holds_a_player_and_someone_they_blocked(
    queue: list[Waiting], blocks: list[tuple[int, int]], at: int
) -> None:
    from dataclasses import replace

    blocked = {(a, b) for a, b in blocks if a != b}
    # only the blocker's entry knows (the store tells both; the pure rule must not need it)
    marked = [
        replace(e, avoid=frozenset(b for a, b in blocked if a == e.player_id)) if e.player_id else e for e in queue
    ]
    for group in propose(marked, T0 + timedelta(seconds=at)):
        ids = {m.player_id for m in group.members}
        assert not any(a in ids and b in ids for a, b in blocked), (group, blocked)


def _finishing(name: str, at: float, share: float | None) -> Waiting:
    return replace(waiting(name, at), finishes=share)


def test_players_who_finish_their_games_sit_together_first() -> None:
    """For PREFER_SECONDS an anchor takes its own kind first, longest waiting first."""
    queue = [
        _finishing("steady", 0, 0.97),
        _finishing("quitter", 1, 0.5),
        _finishing("newcomer", 2, None),
        _finishing("flaky", 3, 0.6),
    ]
    assert tables(queue, 5) == [(["steady", "newcomer"], 0), (["quitter", "flaky"], 0)]
    # once the anchor has waited PREFER_SECONDS, first come, first served again
    assert tables(queue, PREFER_SECONDS + 1) == [(["steady", "quitter"], 0), (["newcomer", "flaky"], 0)]


def test_nobody_waits_longer_for_the_preference() -> None:
    """Too few of one's own kind: the others fill the table at once."""
    assert tables([_finishing("steady", 0, 1.0), _finishing("quitter", 1, 0.2)], 2) == [(["steady", "quitter"], 0)]
    assert RELIABLE_SHARE == 0.9
    edge = [_finishing("a", 0, RELIABLE_SHARE), _finishing("b", 1, 0.89), _finishing("c", 2, 1.0)]
    assert tables(edge, 1) == [(["a", "c"], 0)]  # exactly the share counts as finishing
