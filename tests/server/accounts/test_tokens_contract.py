"""What every store of API tokens promises (:class:`~ghostparty.server.accounts.tokens_store.TokenStore`),
held against each one: :class:`MemoryStore`'s, and the one :class:`SqlStores` makes on a
SQLite file and on PostgreSQL (the ``any_store`` fixture)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from tests.fixtures.stores import new_player
from tests.server.tables.test_store_contract import race

if TYPE_CHECKING:
    from tests.fixtures.stores import Domains

T0 = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
READ = ("read",)


def player(keeper: Domains, name: str) -> int:
    return new_player(keeper, name, T0)


def test_a_new_token_is_listed_newest_first_without_its_secret(keeper: Domains) -> None:
    ann = player(keeper, "Ann")
    first = keeper.tokens.create(ann, "h1", "laptop", READ, T0, None, 10)
    second = keeper.tokens.create(
        ann, "h2", "bot", ("read", "play"), T0 + timedelta(minutes=1), T0 + timedelta(days=1), 10
    )
    assert first is not None and second is not None and first.id != second.id
    assert keeper.tokens.of_player(ann) == [second, first]
    assert (second.name, second.scopes, second.expires, second.last_used) == (
        "bot",
        ("read", "play"),
        T0 + timedelta(days=1),
        None,
    )
    assert keeper.tokens.of_player(player(keeper, "Bob")) == []


def test_a_player_holds_at_most_so_many_and_expired_ones_make_room(keeper: Domains) -> None:
    ann = player(keeper, "Ann")
    short = keeper.tokens.create(ann, "h1", "short", READ, T0, T0 + timedelta(hours=1), 2)
    assert short is not None
    assert keeper.tokens.create(ann, "h2", "long", READ, T0, None, 2) is not None
    assert keeper.tokens.create(ann, "h3", "third", READ, T0, None, 2) is None
    later = T0 + timedelta(hours=1)  # the short one has expired: deleted to make room
    third = keeper.tokens.create(ann, "h3", "third", READ, later, None, 2)
    assert third is not None
    assert [token.name for token in keeper.tokens.of_player(ann)] == ["third", "long"]


def test_racing_creations_never_pass_the_most(keeper: Domains) -> None:
    ann = player(keeper, "Ann")
    made = race(6, lambda i: keeper.tokens.create(ann, f"h{i}", f"t{i}", READ, T0, None, 3))
    assert sum(token is not None for token in made) == 3
    assert len(keeper.tokens.of_player(ann)) == 3


def test_a_token_is_found_by_its_hash_with_its_owner_until_it_expires(keeper: Domains) -> None:
    ann = player(keeper, "Ann")
    made = keeper.tokens.create(ann, "hash-1", "laptop", READ, T0, T0 + timedelta(hours=2), 10)
    assert made is not None
    found = keeper.tokens.look_up("hash-1", T0 + timedelta(hours=1))
    assert found is not None
    info, owner, stored = found
    assert info == made and stored == "hash-1"
    assert (owner.id, owner.name, owner.kind, owner.password_hash) == (ann, "Ann", "user", None)
    assert keeper.tokens.look_up("hash-1", T0 + timedelta(hours=2)) is None  # expired
    assert keeper.tokens.look_up("hash-2", T0) is None


def test_a_token_is_revoked_only_by_its_owner_and_once(keeper: Domains) -> None:
    ann, bob = player(keeper, "Ann"), player(keeper, "Bob")
    made = keeper.tokens.create(ann, "h1", "laptop", READ, T0, None, 10)
    assert made is not None
    assert not keeper.tokens.revoke(bob, made.id)
    assert keeper.tokens.look_up("h1", T0) is not None
    assert keeper.tokens.revoke(ann, made.id)
    assert not keeper.tokens.revoke(ann, made.id)
    assert keeper.tokens.look_up("h1", T0) is None and keeper.tokens.of_player(ann) == []


def test_a_use_is_noted(keeper: Domains) -> None:
    ann = player(keeper, "Ann")
    made = keeper.tokens.create(ann, "h1", "laptop", READ, T0, None, 10)
    assert made is not None
    keeper.tokens.touch(made.id, T0 + timedelta(minutes=5))
    (listed,) = keeper.tokens.of_player(ann)
    assert listed.last_used == T0 + timedelta(minutes=5)
    found = keeper.tokens.look_up("h1", T0 + timedelta(minutes=6))
    assert found is not None and found[0].last_used == T0 + timedelta(minutes=5)
