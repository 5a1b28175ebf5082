"""What every store of push promises (:class:`~ghostparty.server.push.store.PushStore`),
held against each one: :class:`MemoryStore`'s, and the one :class:`SqlStores` makes on a
SQLite file and on PostgreSQL (the ``keeper`` fixture)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from ghostparty.server.push.store import Choices, DueMove, Subscription
from ghostparty.server.tables.store import Store
from tests.fixtures.stores import new_player
from tests.server.mail.test_email_contract import turn_based

if TYPE_CHECKING:
    from tests.fixtures.stores import Domains

T0 = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)


def device(player_id: int, name: str, when: datetime = T0) -> Subscription:
    return Subscription(0, player_id, f"https://push.example/{name}", f"key-{name}", f"auth-{name}", when)


def endpoints(keeper: Domains, player_id: int) -> list[str]:
    return [sub.endpoint.rsplit("/", 1)[1] for sub in keeper.push.subscriptions(player_id)]


def test_devices_are_kept_oldest_first_and_the_oldest_make_way(keeper: Domains) -> None:
    ann, bob = new_player(keeper, "Ann", T0), new_player(keeper, "Bob", T0)
    for n in range(4):
        keeper.push.subscribe(device(ann, f"a{n}", T0 + n * HOUR), most=3)
    assert endpoints(keeper, ann) == ["a1", "a2", "a3"]
    keeper.push.subscribe(replace(device(bob, "a2", T0 + 9 * HOUR), auth="new"), most=3)  # the device changed hands
    assert endpoints(keeper, ann) == ["a1", "a3"] and endpoints(keeper, bob) == ["a2"]
    [kept] = keeper.push.subscriptions(bob)
    assert (kept.auth, kept.last_success) == ("new", None)
    keeper.push.succeeded(kept.id, T0 + 10 * HOUR)
    assert keeper.push.subscriptions(bob)[0].last_success == T0 + 10 * HOUR


def test_only_the_owner_or_the_auth_secret_ends_a_subscription(keeper: Domains) -> None:
    ann, bob = new_player(keeper, "Ann", T0), new_player(keeper, "Bob", T0)
    keeper.push.subscribe(device(ann, "a"), most=5)
    endpoint = "https://push.example/a"
    assert not keeper.push.unsubscribe(endpoint, bob)
    assert not keeper.push.unsubscribe(endpoint, None, "auth-wrong")
    assert not keeper.push.unsubscribe(endpoint)
    assert keeper.push.unsubscribe(endpoint, None, "auth-a")
    keeper.push.subscribe(device(ann, "a"), most=5)
    assert keeper.push.unsubscribe(endpoint, ann) and not keeper.push.unsubscribe(endpoint, ann)
    keeper.push.subscribe(device(ann, "b"), most=5)
    keeper.push.drop("https://push.example/b")
    assert keeper.push.subscriptions(ann) == []


def test_choices_and_the_key_are_kept(keeper: Domains) -> None:
    ann = new_player(keeper, "Ann", T0)
    assert keeper.push.choices(ann) is None
    keeper.push.choose(ann, ["invitation", "move"], "de")
    assert keeper.push.choices(ann) == Choices(frozenset({"move", "invitation"}), "de")
    assert keeper.push.vapid_key("first", T0) == "first"
    assert keeper.push.vapid_key("second", T0) == "first"


def test_your_move_is_due_once_per_change_of_the_game(any_store: Store, keeper: Domains) -> None:
    ann, bob, cy = (new_player(keeper, name, T0) for name in ("Ann", "Bob", "Cy"))
    for who in (ann, bob):
        keeper.push.subscribe(device(who, f"d{who}"), most=5)
    keeper.push.choose(ann, ["move"], "en")
    keeper.push.choose(bob, ["invitation"], "en")  # doesn't want it
    keeper.push.choose(cy, ["move"], "en")  # no device
    for table_id, who in (("ann", ann), ("bob", bob), ("cy", cy)):
        assert any_store.create(turn_based(table_id, who))
    assert any_store.create(turn_based("recent", ann, updated=T0 + 2 * HOUR))
    assert keeper.push.due_moves(T0 + HOUR) == [DueMove("ann", ann, T0)]
    assert keeper.push.mark_pushed("ann", ann, T0, T0 + HOUR)
    assert not keeper.push.mark_pushed("ann", ann, T0, T0 + HOUR)  # another instance's
    assert keeper.push.due_moves(T0 + 3 * HOUR) == [DueMove("recent", ann, T0 + 2 * HOUR)]


def test_a_deleted_account_leaves_no_push(any_store: Store, keeper: Domains) -> None:
    ann, bob = new_player(keeper, "Ann", T0), new_player(keeper, "Bob", T0)
    keeper.push.subscribe(device(ann, "a"), most=5)
    keeper.push.subscribe(device(bob, "b"), most=5)
    keeper.push.choose(ann, ["move"], "en")
    assert any_store.create(turn_based("t1", ann))
    assert keeper.push.mark_pushed("t1", ann, T0, T0)
    keeper.accounts.delete_player(ann)
    assert keeper.push.subscriptions(ann) == [] and keeper.push.choices(ann) is None
    assert endpoints(keeper, bob) == ["b"]
    keeper.push.subscribe(device(bob, "a"), most=5)  # the endpoint is free again
    assert endpoints(keeper, bob) == ["b", "a"]
