"""What every store of bot accounts promises (:class:`~ghostparty.server.botapi.store.BotStore`),
held against each one: :class:`MemoryStore`'s, and the one :class:`SqlStores` makes on a
SQLite file and on PostgreSQL (the ``any_store`` fixture)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from ghostparty.server.common.model import OVER, PLAYING, Seat, Table
from ghostparty.server.common.names import name_key
from ghostparty.server.tables.store import Store
from tests.fixtures.stores import new_player

if TYPE_CHECKING:
    from tests.fixtures.stores import Domains

T0 = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
LATER = T0 + timedelta(minutes=10)


def player(keeper: Domains, name: str) -> int:
    return new_player(keeper, name, T0)


def table(table_id: str, *player_ids: int | None, created: datetime = T0, **changes: object) -> Table:
    """A table whose seats are held by ``player_ids`` (``None``: a guest's seat)."""
    seats = tuple(
        Seat(i, "human", name=f"P{i}", token_hash=f"{i}" * 64, player_id=player_id)
        for i, player_id in enumerate(player_ids)
    )
    made = Table(id=table_id, rules="hugo", players=len(seats), seats=seats, seed=5, created=created, updated=created)
    return replace(made, **changes)  # type: ignore[arg-type]


def test_a_persons_account_becomes_a_bot_account(any_store: Store, keeper: Domains) -> None:
    ann, bob = player(keeper, "Ann_Bot"), player(keeper, "Bob")
    assert not keeper.bots.is_bot(ann)
    assert keeper.bots.bot_named(name_key("Ann_Bot")) is None
    assert keeper.bots.make_bot(ann)
    assert keeper.bots.is_bot(ann) and not keeper.bots.is_bot(bob)
    assert keeper.bots.make_bot(ann)  # again: nothing more to do
    assert keeper.bots.bot_named("annbot") == (ann, "Ann_Bot")
    assert keeper.bots.bot_named(name_key("Bob")) is None and keeper.bots.bot_named("nobody") is None
    assert keeper.bots.bot_keys(["annbot", "bob", "nobody", "annbot"]) == {"annbot"}
    assert keeper.bots.bot_keys([]) == set()
    assert keeper.bots.bots_among([bob, ann, 999, ann]) == {ann}
    assert keeper.bots.bots_among([]) == set()


def test_an_account_that_held_a_seat_never_becomes_a_bot_account(any_store: Store, keeper: Domains) -> None:
    ann, bob = player(keeper, "Ann"), player(keeper, "Bob")
    assert any_store.create(table("t1", ann, None, status=OVER))
    assert not keeper.bots.make_bot(ann)
    assert not keeper.bots.is_bot(ann) and keeper.bots.bot_named("ann") is None
    assert keeper.bots.make_bot(bob) and keeper.bots.is_bot(bob)


def test_a_rated_bot_levels_player_or_an_unknown_id_is_not_made_a_bot_account(
    any_store: Store, keeper: Domains
) -> None:
    level = keeper.accounts.bot_player("greedy", T0)
    assert keeper.bots.make_bot(level) and not keeper.bots.is_bot(level)
    assert keeper.bots.make_bot(999) and not keeper.bots.is_bot(999)


def test_a_deleted_bot_account_is_a_bot_no_more(any_store: Store, keeper: Domains) -> None:
    ann = player(keeper, "Ann")
    assert keeper.bots.make_bot(ann)
    keeper.accounts.delete_player(ann)
    assert not keeper.bots.is_bot(ann) and keeper.bots.bot_named("ann") is None
    assert keeper.bots.bot_keys(["ann"]) == set() and keeper.bots.bots_among([ann]) == set()


def test_held_seats_are_those_at_open_and_running_tables_oldest_first(any_store: Store, keeper: Domains) -> None:
    ann, bob = player(keeper, "Ann"), player(keeper, "Bob")
    assert any_store.create(table("late", None, ann, created=T0 + timedelta(hours=2), status=PLAYING))
    assert any_store.create(table("early", ann, bob, created=T0))
    assert any_store.create(table("over", ann, bob, created=T0 + timedelta(hours=1), status=OVER))
    assert keeper.bots.held_seats(ann) == [("early", 0, "open", "hugo"), ("late", 1, "playing", "hugo")]
    assert keeper.bots.held_seats(bob) == [("early", 1, "open", "hugo")]
    assert keeper.bots.held_seats(player(keeper, "Cy")) == []


def test_an_invitation_stands_until_it_expires_or_is_answered(any_store: Store, keeper: Domains) -> None:
    ann, bot, other = player(keeper, "Ann"), player(keeper, "Robo"), player(keeper, "Other")
    assert any_store.create(table("t1", ann, None))
    keeper.bots.invite("t1", 1, bot, ann, T0, LATER)
    assert keeper.bots.invited("t1", 1, bot, T0 + timedelta(minutes=9))
    assert not keeper.bots.invited("t1", 1, bot, LATER)  # expired
    assert not keeper.bots.invited("t1", 0, bot, T0)  # another seat
    assert not keeper.bots.invited("t1", 1, other, T0)  # another bot
    assert not keeper.bots.invited("t2", 1, bot, T0)  # no such table
    keeper.bots.invite("t1", 1, bot, ann, LATER, LATER + timedelta(minutes=10))  # asking again renews it
    assert keeper.bots.invited("t1", 1, bot, LATER)
    keeper.bots.answered("t1", 1, bot)
    assert not keeper.bots.invited("t1", 1, bot, T0)
    keeper.bots.answered("t1", 1, bot)  # once more: nothing to do


def test_an_invitation_stands_only_while_the_table_is_open_and_its_inviter_seated(
    any_store: Store, keeper: Domains
) -> None:
    ann, bob, bot = player(keeper, "Ann"), player(keeper, "Bob"), player(keeper, "Robo")
    assert any_store.create(table("open", ann, None))
    assert any_store.create(table("running", ann, None, status=PLAYING))
    keeper.bots.invite("open", 1, bot, bob, T0, LATER)  # Bob isn't seated there
    keeper.bots.invite("running", 1, bot, ann, T0, LATER)
    assert not keeper.bots.invited("open", 1, bot, T0)
    assert not keeper.bots.invited("running", 1, bot, T0)
    keeper.bots.invite("open", 1, bot, ann, T0, LATER)  # renewed by one who is: it stands
    assert keeper.bots.invited("open", 1, bot, T0)
    keeper.accounts.delete_player(ann)  # and an inviter gone takes it along
    assert not keeper.bots.invited("open", 1, bot, T0)


def test_expired_invitations_are_pruned_and_counted(any_store: Store, keeper: Domains) -> None:
    ann, bot, gone = player(keeper, "Ann"), player(keeper, "Robo"), player(keeper, "Gone")
    assert any_store.create(table("t1", ann, None, None, None, players=4))
    keeper.bots.invite("t1", 1, bot, ann, T0, T0 + timedelta(minutes=1))
    keeper.bots.invite("t1", 2, bot, ann, T0, T0 + timedelta(minutes=2))
    keeper.bots.invite("t1", 3, bot, ann, T0, T0 + timedelta(minutes=5))
    keeper.bots.invite("t1", 3, gone, ann, T0, T0 + timedelta(minutes=1))
    keeper.accounts.delete_player(gone)  # its invitation went with it: not counted
    assert keeper.bots.prune(T0 + timedelta(minutes=2)) == 1  # expired strictly before
    assert keeper.bots.prune(T0 + timedelta(minutes=2)) == 0
    assert keeper.bots.invited("t1", 2, bot, T0)
    assert keeper.bots.prune(T0 + timedelta(hours=1)) == 2
    assert not keeper.bots.invited("t1", 3, bot, T0)
