"""What every store of accounts and of the quick-match queue promises, held against each
one: :class:`MemoryStore`'s, and those :class:`SqlStores` makes on a SQLite file and on
PostgreSQL beside the tables' store (the ``any_store`` fixture)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

import pytest
from argon2 import PasswordHasher
from starlette.testclient import TestClient

from ghostparty.server.accounts.passwords import Hashing
from ghostparty.server.accounts.service import Accounts
from ghostparty.server.accounts.store import FORMER_PLAYER, RULE_SETS
from ghostparty.server.app import create_app
from ghostparty.server.common.errors import ServiceError
from ghostparty.server.common.model import OVER, PLAYING, GameResult, Seat, SeatResult, Status, Table
from ghostparty.server.common.names import name_key
from ghostparty.server.common.ratings import BOT_LEVELS, NEW
from ghostparty.server.quickmatch.matching import Waiting
from ghostparty.server.stores import MemoryStore, SqlStores
from ghostparty.server.tables.store import SqlTables, Store
from tests.fixtures.stores import new_player
from tests.server.tables.test_store_contract import race

if TYPE_CHECKING:
    from tests.fixtures.stores import Domains

T0 = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
CHEAP = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)


def player(keeper: Domains, name: str) -> int:
    return new_player(keeper, name, T0)


def game(store: Store, table_id: str, *player_ids: int | None, status: Status = PLAYING) -> Table:
    """A two-seat table of people (``None``: a guest) that holds token ``t<seat>`` each."""
    seats = tuple(Seat(i, "human", name=f"p{i}", token_hash=f"t{i}", player_id=pid) for i, pid in enumerate(player_ids))
    made = Table(table_id, "hugo", len(seats), seats, seed=1, status=status, created=T0, updated=T0)
    assert store.create(made)
    return made


def finish(store: Store, table: Table, places: tuple[int, ...], *, rated: bool = True, left: int | None = None) -> None:
    seats = tuple(
        SeatResult(s.seat, s.player_id, points=p * 3, place=p, won=p == 1, left=s.seat == left)
        for s, p in zip(table.seats, places, strict=True)
    )
    result = GameResult(table.rules, rated, seats, T0 + timedelta(hours=1))
    assert store.save(replace(table, status=OVER, version=table.version + 1), table.version, result=result)


# where accounts are


def test_each_domains_sql_store_is_on_the_tables_database(any_store: Store) -> None:
    if not isinstance(any_store, SqlTables):
        pytest.skip("a memory store has no database for its domains to share")
    stores = SqlStores.on(any_store)
    domains = (stores.accounts, stores.queue, stores.tokens, stores.bots, stores.friends, stores.moderation)
    assert all(domain.engine is any_store.engine for domain in (*domains, stores.email, stores.tournaments))
    assert stores.reviews.engine is stores.database.engine is any_store.engine


def test_a_server_on_a_memory_store_offers_no_accounts() -> None:
    with TestClient(create_app(store=MemoryStore(), bot_delay=0.0)) as client:
        response = client.post("/api/account/register", json={"name": "Ann", "password": "a long passphrase 7"})
        assert response.status_code == 501
        assert response.json()["error"]["code"] == "no_accounts"


# players


def test_names_that_read_alike_are_one_account(keeper: Domains) -> None:
    first = keeper.accounts.create_player("Ann_1", name_key("Ann_1"), "h1", T0)
    assert first is not None
    for alike in ("ann-l", "ANNL", "Ann_l"):
        assert keeper.accounts.create_player(alike, name_key(alike), "h2", T0) is None
    assert keeper.accounts.player_by_key(name_key("annl")) == first
    other = keeper.accounts.create_player("Bob", name_key("Bob"), "h3", T0)
    assert other is not None and other.id != first.id
    assert (other.name, other.kind, other.password_hash, other.created) == ("Bob", "user", "h3", T0)


def test_racing_registrations_of_one_name_make_one_account(keeper: Domains) -> None:
    made = race(6, lambda i: keeper.accounts.create_player(f"Zoe{'_' * i}", name_key("Zoe"), f"h{i}", T0))
    assert sum(found is not None for found in made) == 1


def test_the_store_keeps_the_hash_it_is_given_and_accounts_give_it_a_hash(keeper: Domains) -> None:
    accounts = Accounts(keeper.accounts, hashing=Hashing(CHEAP, threads=1))
    password = "correct horse battery staple"
    made, _ = asyncio.run(accounts.register("Ann", password, "127.0.0.1"))
    stored = keeper.accounts.player_by_key(name_key("Ann"))
    assert stored is not None and stored.password_hash is not None
    assert password not in stored.password_hash
    assert stored.password_hash.startswith("$argon2id$")
    assert CHEAP.verify(stored.password_hash, password)
    assert asyncio.run(accounts.login("ann", password, "127.0.0.1"))[0].id == made.id
    with pytest.raises(ServiceError) as wrong:
        asyncio.run(accounts.login("Ann", password + "!", "127.0.0.1"))
    assert wrong.value.code == "bad_login"
    with pytest.raises(ServiceError) as taken:
        asyncio.run(accounts.register("ANN", password, "127.0.0.2"))
    assert taken.value.code == "name_taken"
    keeper.accounts.set_password(made.id, "$argon2id$other")
    assert keeper.accounts.player_by_key("ann") == replace(made, password_hash="$argon2id$other")


def test_a_bot_level_is_one_player_made_on_first_use(keeper: Domains) -> None:
    person = player(keeper, "greedy-bot")  # a person may not take the name, but the store keys bots apart
    first = keeper.accounts.bot_player("greedy", T0)
    assert first != person
    assert keeper.accounts.bot_player("greedy", T0 + timedelta(days=1)) == first
    assert keeper.accounts.bot_player("mcts", T0) not in (first, person)
    bot = keeper.accounts.player_by_key("bot:greedy")
    assert bot is not None and (bot.id, bot.name, bot.kind, bot.password_hash) == (first, "greedy-bot", "bot", None)


def test_a_new_player_is_rated_as_new_in_every_rule_set(keeper: Domains) -> None:
    ann = player(keeper, "Ann")
    for rules in RULE_SETS:
        assert keeper.accounts.rating_and_games(ann, rules) == (NEW, 0)
    assert keeper.accounts.rating(ann + 1000, "hugo") == NEW


# sessions


def test_a_session_opens_until_it_expires_or_ends(keeper: Domains) -> None:
    ann, bob = player(keeper, "Ann"), player(keeper, "Bob")
    end = T0 + timedelta(days=30)
    keeper.accounts.create_session("s1", ann, T0, end)
    keeper.accounts.create_session("s2", ann, T0, end)
    keeper.accounts.create_session("s3", bob, T0, end)
    found = keeper.accounts.session_player("s1", end - timedelta(seconds=1))
    assert found is not None and found.id == ann
    assert keeper.accounts.session_player("s1", end) is None
    assert keeper.accounts.session_player("nope", T0) is None
    keeper.accounts.end_session("s1")
    assert keeper.accounts.session_player("s1", T0) is None
    keeper.accounts.end_sessions(ann)
    assert keeper.accounts.session_player("s2", T0) is None
    bobs = keeper.accounts.session_player("s3", T0)
    assert bobs is not None and bobs.id == bob


def test_the_open_data_opt_out_is_kept_per_player(keeper: Domains) -> None:
    ann, bob = player(keeper, "Ann"), player(keeper, "Bob")
    assert not keeper.accounts.open_data_opt_out(ann)
    keeper.accounts.set_open_data_opt_out(ann, True)
    assert keeper.accounts.open_data_opt_out(ann) and not keeper.accounts.open_data_opt_out(bob)
    keeper.accounts.set_open_data_opt_out(ann, False)
    assert not keeper.accounts.open_data_opt_out(ann)


def test_the_language_is_kept_per_player_and_forgotten_with_the_account(keeper: Domains) -> None:
    ann, bob = player(keeper, "Ann"), player(keeper, "Bob")
    assert keeper.accounts.language(ann) is None
    keeper.accounts.set_language(ann, "pl")
    keeper.accounts.set_language(bob, "de")
    keeper.accounts.set_language(bob, "fr")
    assert (keeper.accounts.language(ann), keeper.accounts.language(bob)) == ("pl", "fr")
    keeper.accounts.set_language(ann, None)
    assert keeper.accounts.language(ann) is None
    keeper.accounts.delete_player(bob)
    assert keeper.accounts.language(bob) is None


# seats, results and ratings


def test_a_guest_seat_becomes_the_players_only_with_its_token_at_a_table_under_way(
    any_store: Store, keeper: Domains
) -> None:
    ann = keeper.accounts.create_player("Ann", "ann", "h", T0)
    assert ann is not None
    game(any_store, "live", None, None)
    game(any_store, "done", None, None, status=OVER)
    held = [("live", 0, "t0"), ("live", 1, "wrong"), ("done", 0, "t0"), ("gone", 0, "t0")]
    assert keeper.accounts.link_seats(ann, held) == [("live", 0)]
    table = any_store.load("live")
    assert table is not None
    assert [(s.player_id, s.name) for s in table[0].seats] == [(ann.id, "Ann"), (None, "p1")]
    assert table[0].version == 0  # the seats change alone
    bob = keeper.accounts.create_player("Bob", "bob", "h", T0)
    assert bob is not None
    assert keeper.accounts.link_seats(bob, [("live", 0, "t0")]) == []  # an account holds it now
    assert keeper.accounts.link_seats(ann, [("live", 0, "t0")]) == []
    again = any_store.load("live")
    assert again is not None and again[0].seats[0].player_id == ann.id


def test_a_rated_game_moves_its_players_ratings_once(any_store: Store, keeper: Domains) -> None:
    ann, bob = player(keeper, "Ann"), player(keeper, "Bob")
    finish(any_store, game(any_store, "g1", ann, bob), (1, 2))
    won, lost = keeper.accounts.rating_and_games(ann, "hugo"), keeper.accounts.rating_and_games(bob, "hugo")
    assert won[1] == lost[1] == 1
    assert won[0].mu > NEW.mu > lost[0].mu
    assert keeper.accounts.rating_and_games(ann, "midnight-party") == (NEW, 0)
    finish(any_store, game(any_store, "g2", ann, bob), (2, 1), rated=False)
    assert keeper.accounts.rating_and_games(ann, "hugo") == won
    profile = keeper.accounts.profile("ann", own=False)
    assert profile is not None
    (hugo,) = profile.stats
    assert (hugo.rules, hugo.games, hugo.rated_games, hugo.wins, hugo.mean_points) == ("hugo", 2, 1, 1, 4.5)
    assert hugo.rating == won[0]
    assert [(table_id, rating) for table_id, _, rating in hugo.history] == [("g1", won[0])]
    assert [(g["table_id"], g["won"], g["rated"]) for g in profile.games] == [("g2", False, False), ("g1", True, True)]


def test_reliability_counts_the_games_left_to_a_bot(any_store: Store, keeper: Domains) -> None:
    ann, bob = player(keeper, "Ann"), player(keeper, "Bob")
    finish(any_store, game(any_store, "g1", ann, bob), (1, 2), rated=False, left=0)
    finish(any_store, game(any_store, "g2", ann, bob), (1, 2), rated=False)
    found = keeper.accounts.reliability([ann, bob, 999])
    assert {k: (v.games, v.finished) for k, v in found.items()} == {ann: (2, 1), bob: (2, 2), 999: (0, 0)}
    by_key = keeper.accounts.reliability_by_key(["ann", "bob", "nobody"])
    assert {k: (name, r.games, r.finished) for k, (name, r) in by_key.items()} == {
        "ann": ("Ann", 2, 1),
        "bob": ("Bob", 2, 2),
    }


def test_the_leaderboard_ranks_players_with_enough_games_and_every_bot_level(any_store: Store, keeper: Domains) -> None:
    ann, bob, cy = player(keeper, "Ann"), player(keeper, "Bob"), player(keeper, "Cy")
    finish(any_store, game(any_store, "g1", ann, bob), (1, 2))
    board = keeper.accounts.leaderboard("hugo", 1)
    people = [(pid, name, games) for pid, name, kind, _, games in board if kind == "user"]
    assert people == [(ann, "Ann", 1), (bob, "Bob", 1)]
    assert [name for _, name, kind, _, _ in board if kind == "bot"] == sorted(
        (f"{level}-bot" for level in BOT_LEVELS),
        key=lambda n: next(-r.mu for _, name, _, r, _ in board if name == n),
    )
    assert [r.mu for *_, r, _ in board] == sorted((r.mu for *_, r, _ in board), reverse=True)
    assert cy in [pid for pid, *_ in keeper.accounts.leaderboard("hugo", 0)]


def test_a_deleted_account_leaves_its_seats_and_results_without_it(any_store: Store, keeper: Domains) -> None:
    ann, bob = player(keeper, "Ann"), player(keeper, "Bob")
    finish(any_store, game(any_store, "g1", ann, bob), (1, 2))
    game(any_store, "g2", ann, None)
    game(any_store, "g3", bob, None)
    keeper.accounts.create_session("s1", ann, T0, T0 + timedelta(days=1))
    assert sorted(keeper.accounts.delete_player(ann)) == ["g1", "g2"]
    assert keeper.accounts.player_by_key("ann") is None
    assert keeper.accounts.session_player("s1", T0) is None
    for table_id in ("g1", "g2"):
        found = any_store.load(table_id)
        assert found is not None
        assert (found[0].seats[0].player_id, found[0].seats[0].name) == (None, FORMER_PLAYER)
    assert keeper.accounts.reliability([ann])[ann].games == 0
    assert keeper.accounts.reliability([bob])[bob].games == 1  # the game stays Bob's
    assert keeper.accounts.create_player("Ann", "ann", "h", T0) is not None  # the name is free again


# the queue


def waiting(ticket: str, joined: datetime, player_id: int | None = None, **changes: object) -> Waiting:
    entry = Waiting(ticket, "hugo", 2, False, 30, joined, player_id=player_id)
    return replace(entry, **changes)  # type: ignore[arg-type]


def test_the_queue_lists_the_waiting_first_come_first(keeper: Domains) -> None:
    queue = keeper.queue
    queue.add("b", "Bob", waiting("b", T0 + timedelta(seconds=2)))
    queue.add("a", "Ann", waiting("a", T0 + timedelta(seconds=1)))
    queue.add("c", "Cy", waiting("c", T0 + timedelta(seconds=3), rated=True, rating=1600, allow_bots=True))
    found = queue.waiting(T0, T0)
    assert [(t.waiting.ticket, t.name, t.table_id) for t in found] == [
        ("a", "Ann", None),
        ("b", "Bob", None),
        ("c", "Cy", None),
    ]
    assert found[2].waiting == waiting("c", T0 + timedelta(seconds=3), rated=True, rating=1600, allow_bots=True)
    assert queue.count_waiting() == 3
    assert sorted(w.ticket for w in queue.all_waiting()) == ["a", "b", "c"]


def test_a_ticket_keeps_what_a_queue_row_keeps(keeper: Domains) -> None:
    given = waiting("other", T0, player_id=None, avoid=frozenset({4}), finishes=0.5, bot=True)
    keeper.queue.add("mine", "Ann", given)
    found = keeper.queue.look("mine", T0)
    assert found is not None
    assert found.waiting == replace(given, ticket="mine", avoid=frozenset(), finishes=None)


def test_a_players_new_ticket_replaces_their_waiting_one(keeper: Domains) -> None:
    ann = player(keeper, "Ann")
    keeper.queue.add("a1", "Ann", waiting("a1", T0, ann))
    keeper.queue.add("g", "guest", waiting("g", T0))
    keeper.queue.add("a2", "Ann", waiting("a2", T0 + timedelta(seconds=1), ann))
    assert [t.waiting.ticket for t in keeper.queue.waiting(T0, T0)] == ["g", "a2"]
    assert keeper.queue.look("a1", T0) is None
    assert keeper.queue.claim({"a2": ("t1", 0, "k")})
    keeper.queue.add("a3", "Ann", waiting("a3", T0 + timedelta(seconds=2), ann))
    seated = keeper.queue.look("a2", T0)  # a seated ticket stays for its page to read
    assert seated is not None and seated.table_id == "t1"


def test_tickets_are_seated_all_or_none(keeper: Domains) -> None:
    queue = keeper.queue
    for ticket in ("a", "b", "c"):
        queue.add(ticket, ticket.upper(), waiting(ticket, T0))
    assert queue.claim({"a": ("t1", 0, "ka"), "b": ("t1", 1, "kb")})
    assert not queue.claim({"c": ("t2", 0, "kc"), "a": ("t2", 1, "ka2")})  # "a" sits already
    assert not queue.claim({"c": ("t2", 0, "kc"), "x": ("t2", 1, "kx")})  # "x" is unknown
    seated = queue.look("a", T0)
    assert seated is not None and (seated.table_id, seated.seat, seated.token) == ("t1", 0, "ka")
    assert [t.waiting.ticket for t in queue.waiting(T0, T0)] == ["c"]
    assert queue.count_waiting() == 1
    assert not queue.leave("a")  # seated: it stays for its page to read
    assert queue.leave("c") and not queue.leave("c")


def test_of_racing_claims_of_one_ticket_exactly_one_wins(keeper: Domains) -> None:
    keeper.queue.add("a", "Ann", waiting("a", T0))
    won = race(6, lambda i: keeper.queue.claim({"a": (f"t{i}", 0, "k")}))
    assert won.count(True) == 1
    found = keeper.queue.look("a", T0)
    assert found is not None and found.table_id == f"t{won.index(True)}"


def test_a_page_that_stops_asking_leaves_and_a_seated_ticket_is_forgotten_later(keeper: Domains) -> None:
    queue = keeper.queue
    queue.add("old", "Old", waiting("old", T0))
    queue.add("kept", "Kept", waiting("kept", T0))
    queue.add("seated", "Sat", waiting("seated", T0))
    assert queue.claim({"seated": ("t", 0, "k")})
    assert queue.look("kept", T0 + timedelta(seconds=20)) is not None  # its page asked
    later = T0 + timedelta(seconds=10)
    assert [t.waiting.ticket for t in queue.waiting(later, T0)] == ["kept"]
    assert queue.look("old", later) is None
    assert queue.look("seated", T0) is not None  # seen at T0, not before it: kept
    queue.waiting(later, later)
    assert queue.look("seated", later) is None
