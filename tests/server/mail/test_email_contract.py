"""What every store of email promises (:class:`~ghostparty.server.mail.store.EmailStore`),
held against each one: :class:`MemoryStore`'s, and the one :class:`SqlStores` makes on a
SQLite file and on PostgreSQL (the ``any_store`` fixture)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from ghostparty.server.common.model import PLAYING, TURN_BASED_FROM, Seat, Table
from ghostparty.server.mail.store import Address, Due, Queued
from ghostparty.server.tables.store import Store
from tests.fixtures.stores import new_player
from tests.server.tables.test_store_contract import race

if TYPE_CHECKING:
    from tests.fixtures.stores import Domains

T0 = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)


def player(keeper: Domains, name: str) -> int:
    return new_player(keeper, name, T0)


def confirmed(keeper: Domains, player_id: int, lookup: str, **chosen: Any) -> None:
    """Give the player a confirmed address of that lookup, with ``chosen``."""
    assert keeper.email.set_address(player_id, f"sealed-{lookup}", lookup, "en", T0)
    keeper.email.add_token(f"confirm-{lookup}", player_id, "confirm", T0 + HOUR, T0, lookup)
    assert keeper.email.use_token(f"confirm-{lookup}", "confirm", T0) == player_id
    if chosen:
        assert keeper.email.choose(player_id, chosen)


# addresses


def test_an_address_is_kept_unconfirmed_until_its_link_is_used(keeper: Domains) -> None:
    ann = player(keeper, "Ann")
    assert keeper.email.address(ann) is None
    assert keeper.email.set_address(ann, "sealed-1", "look-1", "de", T0)
    assert keeper.email.address(ann) == Address(ann, "sealed-1", "look-1", False, False, False, "de")
    assert keeper.email.by_lookup("look-1") is None  # not confirmed
    keeper.email.add_token("t1", ann, "confirm", T0 + HOUR, T0, "look-1")
    assert keeper.email.use_token("t1", "confirm", T0) == ann
    assert keeper.email.by_lookup("look-1") == (Address(ann, "sealed-1", "look-1", True, False, False, "de"), "Ann")
    assert keeper.email.by_lookup("look-2") is None


def test_choices_are_kept_when_the_address_changes(keeper: Domains) -> None:
    ann, bob = player(keeper, "Ann"), player(keeper, "Bob")
    confirmed(keeper, ann, "look-1", reminders=True, invitations=True)
    assert keeper.email.choose(ann, {"language": "de"})
    assert not keeper.email.choose(bob, {"reminders": True})  # no address
    keeper.email.add_token("pending", ann, "confirm", T0 + HOUR, T0, "look-1")
    assert keeper.email.set_address(ann, "sealed-2", "look-2", "en", T0)
    assert keeper.email.address(ann) == Address(ann, "sealed-2", "look-2", False, True, True, "en")
    assert keeper.email.token_owner("pending", "confirm", T0) is None  # the old address's links go


def test_an_address_another_confirmed_is_refused_and_an_unconfirmed_claim_dropped(keeper: Domains) -> None:
    ann, bob, cy = player(keeper, "Ann"), player(keeper, "Bob"), player(keeper, "Cy")
    confirmed(keeper, ann, "look-a")
    assert keeper.email.set_address(bob, "sealed-b", "look-b", "en", T0)
    keeper.email.add_token("bob-link", bob, "confirm", T0 + HOUR, T0, "look-b")
    assert not keeper.email.set_address(bob, "sealed-a", "look-a", "en", T0)
    assert keeper.email.address(bob) == Address(bob, "sealed-b", "look-b", False, False, False, "en")  # unchanged
    assert keeper.email.token_owner("bob-link", "confirm", T0) == "Bob"
    assert keeper.email.set_address(cy, "sealed-b", "look-b", "en", T0)  # Bob never confirmed it
    assert keeper.email.address(bob) is None
    assert keeper.email.use_token("bob-link", "confirm", T0) is None  # used up, and void
    assert keeper.email.address(cy) == Address(cy, "sealed-b", "look-b", False, False, False, "en")


def test_a_removed_address_takes_its_links_and_queued_mail_along(keeper: Domains) -> None:
    ann, bob = player(keeper, "Ann"), player(keeper, "Bob")
    confirmed(keeper, ann, "look-a")
    keeper.email.add_token("reset", ann, "reset", T0 + HOUR, T0)
    done = keeper.email.enqueue(ann, "reset", "m1", T0)
    keeper.email.sent(done, T0)
    keeper.email.enqueue(ann, "reset", "m2", T0)
    keeper.email.enqueue(bob, "invite", "m3", T0)
    keeper.email.remove(ann)
    assert keeper.email.address(ann) is None and keeper.email.by_lookup("look-a") is None
    assert keeper.email.token_owner("reset", "reset", T0) is None
    assert keeper.email.counts() == {"sent": 1, "queued": 1}
    assert [queued.message for queued in keeper.email.claim(T0, T0 + HOUR)] == ["m3"]


# one-time tokens


def test_a_token_is_current_until_it_expires_and_used_once(keeper: Domains) -> None:
    ann = player(keeper, "Ann")
    keeper.email.add_token("t1", ann, "reset", T0 + HOUR, T0)
    assert keeper.email.token_owner("t1", "reset", T0) == "Ann"
    assert keeper.email.token_owner("t1", "confirm", T0) is None  # another purpose
    assert keeper.email.token_owner("t1", "reset", T0 + HOUR) is None  # expired
    assert keeper.email.use_token("t1", "reset", T0 + HOUR) is None
    assert keeper.email.token_owner("t9", "reset", T0) is None
    assert keeper.email.use_token("t1", "reset", T0) == ann
    assert keeper.email.use_token("t1", "reset", T0) is None


def test_a_reset_ends_the_players_other_links(keeper: Domains) -> None:
    ann, bob = player(keeper, "Ann"), player(keeper, "Bob")
    assert keeper.email.set_address(ann, "sealed-a", "look-a", "en", T0)
    keeper.email.add_token("r1", ann, "reset", T0 + HOUR, T0)
    keeper.email.add_token("r2", ann, "reset", T0 + HOUR, T0)
    keeper.email.add_token("c1", ann, "confirm", T0 + HOUR, T0, "look-a")
    keeper.email.add_token("b1", bob, "reset", T0 + HOUR, T0)
    assert keeper.email.use_token("r2", "reset", T0) == ann
    assert keeper.email.token_owner("r1", "reset", T0) is None
    assert keeper.email.token_owner("c1", "confirm", T0) is None
    assert keeper.email.token_owner("b1", "reset", T0) == "Bob"


def test_racing_uses_of_a_token_use_it_once(keeper: Domains) -> None:
    ann = player(keeper, "Ann")
    keeper.email.add_token("t1", ann, "reset", T0 + HOUR, T0)
    used = race(6, lambda i: keeper.email.use_token("t1", "reset", T0))
    assert used.count(ann) == 1 and used.count(None) == 5, used


# the outbox


def test_messages_are_claimed_in_turn_and_held_until_their_lease_ends(keeper: Domains) -> None:
    ann = player(keeper, "Ann")
    later = keeper.email.enqueue(ann, "reset", "m-later", T0 + timedelta(minutes=1))
    first = keeper.email.enqueue(None, "report", "m-first", T0)
    assert first != later
    assert keeper.email.claim(T0, T0 + HOUR) == [Queued(first, "report", "m-first", 0)]  # the later not due yet
    now = T0 + timedelta(minutes=2)
    assert keeper.email.claim(now, now + HOUR) == [Queued(later, "reset", "m-later", 0)]  # the first is held
    assert keeper.email.claim(now, now + HOUR) == []
    after = T0 + 2 * HOUR  # both leases over
    assert [q.id for q in keeper.email.claim(after, after + HOUR, most=1)] == [first]
    assert keeper.email.counts() == {"queued": 2}


def test_a_message_is_sent_or_tried_again_or_given_up(keeper: Domains) -> None:
    sent, retried, dropped = (keeper.email.enqueue(None, "report", f"m{i}", T0) for i in range(3))
    assert len(keeper.email.claim(T0, T0 + HOUR)) == 3
    keeper.email.sent(sent, T0)
    keeper.email.failed(retried, "421 busy" * 100, T0 + timedelta(minutes=5))
    keeper.email.failed(dropped, "550 no such user", None)
    assert keeper.email.counts() == {"sent": 1, "queued": 1, "failed": 1}
    assert keeper.email.claim(T0 + timedelta(minutes=4), T0 + HOUR) == []  # its lease ended, its next try not yet
    assert keeper.email.claim(T0 + timedelta(minutes=5), T0 + HOUR) == [Queued(retried, "report", "m1", 1)]
    keeper.email.prune(T0)  # created at T0: not before
    assert keeper.email.counts() == {"sent": 1, "queued": 1, "failed": 1}
    keeper.email.prune(T0 + timedelta(seconds=1))  # queued ones stay
    assert keeper.email.counts() == {"queued": 1}


def test_racing_claims_hand_each_message_out_once(keeper: Domains) -> None:
    made = {keeper.email.enqueue(None, "report", f"m{i}", T0) for i in range(12)}
    claimed = race(4, lambda i: keeper.email.claim(T0, T0 + HOUR))
    ids = [queued.id for batch in claimed for queued in batch]
    assert sorted(ids) == sorted(made), claimed


# reminders


def turn_based(table_id: str, player_id: int, *, updated: datetime = T0, **seat: Any) -> Table:
    """A running turn-based game whose mover, at seat 0, is ``player_id``."""
    seats = (Seat(0, "human", name="P", player_id=player_id, **seat), Seat(1, "bot", bot="greedy", name="Greedy"))
    return Table(
        table_id,
        "hugo",
        2,
        seats,
        1,
        status=PLAYING,
        to_move=0,
        turn_seconds=TURN_BASED_FROM,
        created=T0,
        updated=updated,
    )


def test_reminders_are_due_for_a_waiting_mover_who_wants_them(any_store: Store, keeper: Domains) -> None:
    ann, bob, cy, dee = (player(keeper, name) for name in ("Ann", "Bob", "Cy", "Dee"))
    confirmed(keeper, ann, "look-a", reminders=True)
    confirmed(keeper, bob, "look-b")  # reminders off
    assert keeper.email.set_address(cy, "sealed-c", "look-c", "en", T0)
    assert keeper.email.choose(cy, {"reminders": True})  # but not confirmed
    confirmed(keeper, dee, "look-d", reminders=True)
    assert any_store.create(turn_based("due", ann))
    assert any_store.create(turn_based("recent", ann, updated=T0 + 2 * HOUR))
    assert any_store.create(turn_based("away", ann, away=True))
    assert any_store.create(turn_based("bob", bob))
    assert any_store.create(turn_based("cy", cy))
    assert any_store.create(replace(turn_based("quick", dee), turn_seconds=60))  # not turn-based
    assert any_store.create(turn_based("dee", dee))
    waited_since, last_before = T0 + HOUR, T0 + HOUR
    due = keeper.email.due_reminders(waited_since, last_before)
    assert sorted(due, key=lambda d: d.table_id) == [
        Due("dee", dee, "hugo", T0, TURN_BASED_FROM),
        Due("due", ann, "hugo", T0, TURN_BASED_FROM),
    ]
    assert len(keeper.email.due_reminders(waited_since, last_before, most=1)) == 1
    assert keeper.email.mark_reminded("due", ann, T0 + HOUR, last_before)
    assert [d.table_id for d in keeper.email.due_reminders(waited_since, last_before)] == ["dee"]
    assert keeper.email.due_reminders(T0, last_before) == []  # nobody waited since before T0


def test_a_reminder_is_marked_once_until_the_last_is_old(any_store: Store, keeper: Domains) -> None:
    ann = player(keeper, "Ann")
    assert any_store.create(turn_based("t1", ann))
    assert keeper.email.mark_reminded("t1", ann, T0, T0)
    assert not keeper.email.mark_reminded("t1", ann, T0 + HOUR, T0)  # sent at T0: not before it
    assert keeper.email.mark_reminded("t1", ann, T0 + HOUR, T0 + timedelta(minutes=1))
    assert not keeper.email.mark_reminded("nope", ann, T0, T0)  # no such table
    keeper.email.prune(T0 + HOUR)  # sent at T0 + 1 h: kept
    assert not keeper.email.mark_reminded("t1", ann, T0 + HOUR, T0)
    keeper.email.prune(T0 + 2 * HOUR)  # now forgotten
    assert keeper.email.mark_reminded("t1", ann, T0 + 2 * HOUR, T0)


def test_racing_reminders_of_one_game_mark_it_once(any_store: Store, keeper: Domains) -> None:
    ann = player(keeper, "Ann")
    assert any_store.create(turn_based("t1", ann))
    first = race(6, lambda i: keeper.email.mark_reminded("t1", ann, T0, T0))
    assert first.count(True) == 1, first
    again = race(6, lambda i: keeper.email.mark_reminded("t1", ann, T0 + HOUR, T0 + timedelta(minutes=1)))
    assert again.count(True) == 1, again


# accounts


def test_player_names_are_those_of_players_there(keeper: Domains) -> None:
    ann, bob = player(keeper, "Ann"), player(keeper, "Bob")
    assert keeper.email.player_names([ann, bob, 999]) == {ann: "Ann", bob: "Bob"}
    assert keeper.email.player_names([]) == {}


def test_a_deleted_account_leaves_no_email(any_store: Store, keeper: Domains) -> None:
    ann, bob = player(keeper, "Ann"), player(keeper, "Bob")
    confirmed(keeper, ann, "look-a", reminders=True)
    keeper.email.add_token("reset", ann, "reset", T0 + HOUR, T0)
    keeper.email.enqueue(ann, "reset", "m1", T0)
    keeper.email.sent(keeper.email.enqueue(ann, "reset", "m2", T0), T0)
    keeper.email.enqueue(bob, "invite", "m3", T0)
    assert any_store.create(turn_based("t1", ann))
    assert keeper.email.mark_reminded("t1", ann, T0, T0)
    keeper.accounts.delete_player(ann)
    assert keeper.email.address(ann) is None and keeper.email.by_lookup("look-a") is None
    assert keeper.email.token_owner("reset", "reset", T0) is None
    assert keeper.email.counts() == {"queued": 1}
    assert [queued.message for queued in keeper.email.claim(T0, T0 + HOUR)] == ["m3"]
    assert keeper.email.player_names([ann, bob]) == {bob: "Bob"}
    assert keeper.email.set_address(bob, "sealed-a", "look-a", "en", T0)  # the address is free again
