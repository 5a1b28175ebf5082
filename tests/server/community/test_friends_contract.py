"""What every store of follows and invitations promises
(:class:`~ghostparty.server.community.friends_store.FriendStore`), held against each one:
:class:`MemoryStore`'s, and the one :class:`SqlStores` makes on a SQLite file and on
PostgreSQL (the ``any_store`` fixture)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

import pytest

from ghostparty.server.common.model import OPEN, OVER, PLAYING, Seat, Status, Table
from ghostparty.server.community.friends_store import Sitting
from ghostparty.server.tables.store import Store
from tests.fixtures.stores import new_player
from tests.server.tables.test_store_contract import race

if TYPE_CHECKING:
    from tests.fixtures.stores import Domains

T0 = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
LATER = T0 + timedelta(minutes=30)


def player(keeper: Domains, name: str) -> int:
    return new_player(keeper, name, T0)


@pytest.fixture
def tables(any_store: Store) -> Store:
    return any_store


def seated(
    tables: Store, table_id: str, players: dict[int, int], status: Status = OPEN, updated: datetime = T0
) -> Table:
    """A four-seat table whose seats ``players`` (seat -> player id) are held, the others empty."""
    seats = tuple(
        Seat(n, "human", name=f"P{n}", token_hash=f"{n}" * 64, player_id=players[n])
        if n in players
        else Seat(n, "human")
        for n in range(4)
    )
    made = Table(id=table_id, rules="hugo", players=4, seats=seats, seed=1, created=T0, updated=T0)
    assert tables.create(made)
    if status != OPEN or updated != T0:
        assert tables.save(replace(made, status=status, updated=updated, version=1), 0)
    return made


# -- follows ------------------------------------------------------------------------------


def test_follows_are_one_way_listed_by_name_and_undone(keeper: Domains) -> None:
    ann, bob, cid = player(keeper, "Ann"), player(keeper, "Bob"), player(keeper, "Cid")
    assert keeper.friends.follow(ann, cid, T0, 10)
    assert keeper.friends.follow(ann, bob, T0, 10)
    assert keeper.friends.following(ann) == [(bob, "Bob"), (cid, "Cid")]
    assert keeper.friends.follows(ann, bob) and not keeper.friends.follows(bob, ann)
    assert keeper.friends.following(bob) == []
    keeper.friends.unfollow(ann, bob)
    keeper.friends.unfollow(ann, bob)  # again: nothing
    keeper.friends.unfollow(bob, ann)  # never followed: nothing
    assert keeper.friends.following(ann) == [(cid, "Cid")]
    assert not keeper.friends.follows(ann, bob)


def test_following_again_changes_nothing_even_at_the_most(keeper: Domains) -> None:
    ann, bob, cid = player(keeper, "Ann"), player(keeper, "Bob"), player(keeper, "Cid")
    assert keeper.friends.follow(ann, bob, T0, 1)
    assert keeper.friends.follow(ann, bob, LATER, 1)  # again: true, though at the most
    assert not keeper.friends.follow(ann, cid, T0, 1)
    assert keeper.friends.following(ann) == [(bob, "Bob")]
    keeper.friends.unfollow(ann, bob)
    assert keeper.friends.follow(ann, cid, T0, 1)  # room again


def test_racing_follows_of_one_player_keep_one_follow(keeper: Domains) -> None:
    ann, bob = player(keeper, "Ann"), player(keeper, "Bob")
    assert race(6, lambda _: keeper.friends.follow(ann, bob, T0, 10)) == [True] * 6
    assert keeper.friends.following(ann) == [(bob, "Bob")]


# -- sittings -----------------------------------------------------------------------------


def test_sittings_are_the_seats_at_open_and_playing_tables_newest_first(keeper: Domains, tables: Store) -> None:
    ann, bob, cid = player(keeper, "Ann"), player(keeper, "Bob"), player(keeper, "Cid")
    seated(tables, "old", {0: ann}, OPEN, T0 + timedelta(minutes=1))
    seated(tables, "new", {1: ann, 2: bob}, PLAYING, T0 + timedelta(minutes=2))
    seated(tables, "done", {0: ann}, OVER, T0 + timedelta(minutes=3))
    seated(tables, "cids", {3: cid}, OPEN, T0 + timedelta(minutes=4))
    found = keeper.friends.sittings([ann, bob, ann])
    assert found[-1] == Sitting(ann, "old", 0, OPEN, "hugo", 4)
    assert sorted(found[:-1], key=lambda s: s.seat) == [
        Sitting(ann, "new", 1, PLAYING, "hugo", 4),
        Sitting(bob, "new", 2, PLAYING, "hugo", 4),
    ]
    assert keeper.friends.sittings([]) == []
    assert keeper.friends.sittings([player(keeper, "Dee")]) == []


# -- invitations --------------------------------------------------------------------------


def test_an_invitation_is_kept_open_with_both_names(keeper: Domains, tables: Store) -> None:
    ann, bob = player(keeper, "Ann"), player(keeper, "Bob")
    seated(tables, "t1", {0: ann})
    made = keeper.friends.invite(ann, bob, "t1", T0, LATER)
    found = keeper.friends.invitation(made)
    assert found is not None
    assert (found.id, found.inviter_id, found.inviter) == (made, ann, "Ann")
    assert (found.invitee_id, found.invitee) == (bob, "Bob")
    assert (found.table_id, found.status, found.created, found.expires) == ("t1", "open", T0, LATER)
    assert keeper.friends.received(bob, T0, 10) == [found]
    assert keeper.friends.received(ann, T0, 10) == []
    assert keeper.friends.invitation(made + 1000) is None


def test_inviting_again_renews_the_one_invitation(keeper: Domains, tables: Store) -> None:
    ann, bob = player(keeper, "Ann"), player(keeper, "Bob")
    seated(tables, "t1", {0: ann})
    first = keeper.friends.invite(ann, bob, "t1", T0, LATER)
    assert keeper.friends.answer(first, "declined")
    again = keeper.friends.invite(ann, bob, "t1", T0 + timedelta(minutes=5), LATER + timedelta(minutes=5))
    assert again == first
    found = keeper.friends.invitation(first)
    assert found is not None
    assert found.status == "open"
    assert (found.created, found.expires) == (T0 + timedelta(minutes=5), LATER + timedelta(minutes=5))
    assert [i.id for i in keeper.friends.received(bob, T0, 10)] == [first]


def test_received_leaves_out_answered_expired_and_not_open_tables_newest_first(keeper: Domains, tables: Store) -> None:
    ann, bob, cid, dee = (player(keeper, name) for name in ("Ann", "Bob", "Cid", "Dee"))
    seated(tables, "t1", {0: ann})
    seated(tables, "t2", {0: cid})
    seated(tables, "started", {0: dee}, PLAYING)
    oldest = keeper.friends.invite(ann, bob, "t1", T0, LATER)
    newest = keeper.friends.invite(cid, bob, "t2", T0 + timedelta(minutes=2), LATER)
    middle = keeper.friends.invite(dee, bob, "t1", T0 + timedelta(minutes=1), LATER)
    keeper.friends.invite(dee, bob, "started", T0, LATER)
    answered = keeper.friends.invite(cid, bob, "t1", T0, LATER)
    assert keeper.friends.answer(answered, "accepted")
    keeper.friends.invite(ann, bob, "t2", T0, T0 + timedelta(minutes=10))
    assert [i.id for i in keeper.friends.received(bob, T0 + timedelta(minutes=10), 10)] == [newest, middle, oldest]
    assert [i.id for i in keeper.friends.received(bob, T0 + timedelta(minutes=10), 2)] == [newest, middle]
    assert keeper.friends.received(bob, LATER, 10) == []  # all expired


def test_an_invitation_is_answered_once(keeper: Domains, tables: Store) -> None:
    ann, bob = player(keeper, "Ann"), player(keeper, "Bob")
    seated(tables, "t1", {0: ann})
    made = keeper.friends.invite(ann, bob, "t1", T0, LATER)
    assert keeper.friends.answer(made, "accepted")
    assert not keeper.friends.answer(made, "declined")
    found = keeper.friends.invitation(made)
    assert found is not None and found.status == "accepted"
    assert not keeper.friends.answer(made + 1000, "accepted")


def test_racing_answers_of_one_invitation_let_one_through(keeper: Domains, tables: Store) -> None:
    ann, bob = player(keeper, "Ann"), player(keeper, "Bob")
    seated(tables, "t1", {0: ann})
    made = keeper.friends.invite(ann, bob, "t1", T0, LATER)
    answers = race(6, lambda i: keeper.friends.answer(made, "accepted" if i % 2 else "declined"))
    assert sum(answers) == 1


def test_pruning_deletes_what_expired_before(keeper: Domains, tables: Store) -> None:
    ann, bob = player(keeper, "Ann"), player(keeper, "Bob")
    seated(tables, "t1", {0: ann})
    seated(tables, "t2", {0: ann})
    early = keeper.friends.invite(ann, bob, "t1", T0, T0 + timedelta(minutes=1))
    late = keeper.friends.invite(ann, bob, "t2", T0, LATER)
    assert keeper.friends.prune(T0 + timedelta(minutes=1)) == 0  # expiring at that instant: kept
    assert keeper.friends.prune(T0 + timedelta(minutes=2)) == 1
    assert keeper.friends.invitation(early) is None
    assert keeper.friends.invitation(late) is not None
    assert keeper.friends.prune(T0 + timedelta(minutes=2)) == 0


def test_following_an_account_that_doesnt_exist_keeps_nothing(keeper: Domains) -> None:
    ann = player(keeper, "Ann")
    assert keeper.friends.follow(ann, ann + 1000, T0, 10)
    assert not keeper.friends.follows(ann, ann + 1000)
    assert keeper.friends.following(ann) == []
