"""Properties of the pairing over random fields, results and events (hypothesis)."""

from __future__ import annotations

import contextlib
from fractions import Fraction
from itertools import combinations
from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from ghostparty.tournaments import Arena, ArenaConfig, Swiss, SwissConfig, TournamentError
from ghostparty.tournaments.grouping import group, repeats
from ghostparty.tournaments.points import table_points, table_total


def partitions(players: list[int], size: int) -> list[list[list[int]]]:
    """Every split of ``players`` into tables of ``size`` (brute force, small fields)."""
    if not players:
        return [[]]
    first, rest = players[0], players[1:]
    found = []
    for others in combinations(rest, size - 1):
        left = [p for p in rest if p not in others]
        found += [[[first, *others], *tail] for tail in partitions(left, size)]
    return found


@st.composite
def avoid_graphs(draw: st.DrawFn) -> tuple[int, int, list[set[int]]]:
    size = draw(st.sampled_from([2, 3, 4]))
    n = size * draw(st.integers(1, 9 // size + (1 if size == 4 else 0)))
    avoid: list[set[int]] = [set() for _ in range(n)]
    for a, b in draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=2 * n)):
        if a != b:
            avoid[a].add(b)
            avoid[b].add(a)
    return n, size, avoid


@settings(max_examples=300)
@given(avoid_graphs())
def test_grouping_avoids_every_pair_whenever_some_grouping_does(case: tuple[int, int, list[set[int]]]) -> None:
    n, size, avoid = case
    tables = group(n, size, avoid)
    assert sorted(p for t in tables for p in t) == list(range(n))
    assert all(len(t) == size for t in tables)
    best = min(repeats(split, avoid) for split in partitions(list(range(n)), size))
    assert (repeats(tables, avoid) == 0) == (best == 0)
    assert [t[0] for t in tables] == sorted(t[0] for t in tables)  # each opened by the best left
    assert tables[0][0] == 0


@st.composite
def swiss_runs(draw: st.DrawFn) -> tuple[int, int, int, int]:
    size = draw(st.sampled_from([2, 3, 4]))
    players = draw(st.integers(size, 24))
    return size, players, draw(st.integers(1, 6)), draw(st.integers(0, 2**32))


@settings(max_examples=120)
@given(swiss_runs())
def test_swiss_rounds_seat_everyone_once_with_fair_byes_leaders_together_and_points_conserved(
    run: tuple[int, int, int, int],
) -> None:
    size, players, rounds, seed = run
    rng = Random(seed)
    state = Swiss(SwissConfig(size, rounds))
    for i in range(players):
        state.join(f"p{i}", rng.randrange(1000, 2000))
    handed_out = Fraction(0)
    for _ in range(rounds):
        before = [s.player for s in state.standings()]
        played = state.pair_round(rng)
        seated = [p for t in played.tables for p in t.seats]
        assert sorted(seated + list(played.byes)) == sorted(state.players)  # nobody twice, nobody missing
        assert all(len(t.seats) == size for t in played.tables)
        assert len(played.byes) == players % size
        byes = [p.byes for p in state.players.values()]
        assert max(byes) - min(byes) <= 1  # nobody a second bye while another has none
        order = [p for p in before if p not in played.byes]
        firsts = [min(order.index(p) for p in t.seats) for t in played.tables]
        assert firsts == sorted(firsts) and firsts[0] == 0  # the leader at table 1, then the next
        for number, table in enumerate(played.tables, 1):
            places = [rng.randint(1, size) for _ in range(size)]
            left = {p: 1 for p in table.seats if rng.random() < 0.1}
            state.record(played.number, number, places, left)
            handed_out += table_total(size) - sum(
                points for p, points in zip(table.seats, table_points(places, ()), strict=True) if p in left
            )
        handed_out += len(played.byes) * state.config.bye
        assert sum(p.points for p in state.players.values()) == handed_out
    assert state.finished()


@settings(max_examples=60)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 2**32))
def test_swiss_repeats_no_table_mate_while_a_grouping_without_repeats_exists(size: int, seed: int) -> None:
    rng = Random(seed)
    players = size * 2 + rng.randrange(size)  # two tables and perhaps byes: small enough to check by brute force
    state = Swiss(SwissConfig(size, 4))
    for i in range(players):
        state.join(f"p{i}", rng.randrange(1000, 2000))
    for _ in range(4):
        played = state.pair_round(rng)
        seated = sorted(p for t in played.tables for p in t.seats)
        index = {p: i for i, p in enumerate(seated)}
        # the table-mates before this round
        avoid = [{index[m] for m in state.players[p].mates if m in index} for p in seated]
        ours = [[index[p] for p in t.seats] for t in played.tables]
        possible = min(repeats(split, avoid) for split in partitions(list(range(len(seated))), size))
        assert possible > 0 or repeats(ours, avoid) == 0
        for number in range(1, len(played.tables) + 1):
            state.record(played.number, number, rng.sample(range(1, size + 1), size))


events = st.lists(
    st.tuples(st.sampled_from(["join", "leave", "pair", "finish", "bot"]), st.integers(0, 11), st.integers(0, 90)),
    max_size=80,
)


@settings(max_examples=150)
@given(st.sampled_from([2, 3, 4]), events, st.integers(0, 2**32))
def test_arena_events_never_seat_anyone_twice_and_points_add_up(
    size: int, steps: list[tuple[str, int, int]], seed: int
) -> None:
    rng = Random(seed)
    state = Arena(ArenaConfig(size, 0.0, 3000.0, bot_wait=120.0))
    now = 0.0
    for kind, who, dt in steps:
        now += dt
        player = f"p{who}"
        if kind in ("join", "bot"):
            with contextlib.suppress(TournamentError):  # twice, or after the end: refused, as tested elsewhere
                state.join(f"bot{who}" if kind == "bot" else player, 1500 + who, now, bot=kind == "bot")
        elif kind == "leave" and player in state.players:
            state.leave(player, now)
        elif kind == "pair":
            tables = state.pairing(now, rng)
            everyone = [p for t in tables for p in t]
            assert len(everyone) == len(set(everyone))
            assert all(len(t) == size and not all(state.players[p].bot for p in t) for t in tables)
            assert all(state.players[p].free for p in everyone)
            people = [p for t in tables for p in t if not any(state.players[q].bot for q in t)]
            if len(people) <= 8:  # no one's last opponents again while some grouping avoids them all
                index = {p: i for i, p in enumerate(people)}
                avoid = [{index[o] for o in state.players[p].last_opponents if o in index} for p in people]
                ours = [[index[p] for p in t] for t in tables if t[0] in index]
                possible = min(repeats(split, avoid) for split in partitions(list(range(len(people))), size))
                assert possible > 0 or repeats(ours, avoid) == 0
            for table in tables:
                state.start_game(f"g{len(state.games)}", table, now)
        elif kind == "finish" and state.running():
            game = state.running()[who % len(state.running())]
            places = [rng.randint(1, size) for _ in range(size)]
            state.finish_game(game.id, places, now, {game.seats[0]: 3} if who % 5 == 0 else None)
        seated = [p for g in state.running() for p in g.seats]
        assert len(seated) == len(set(seated))
        assert all(state.players[p].game == g.id for g in state.running() for p in g.seats)
    total = sum((sum(g.points or ()) for g in state.games.values()), Fraction(0))
    assert sum(p.points for p in state.players.values()) == total
    assert sum(p.games for p in state.players.values()) == size * (len(state.games) - len(state.running()))
