"""What every store of moderation promises
(:class:`~ghostparty.server.community.moderation_store.ModerationStore`), held against each
one: :class:`MemoryStore`'s, and the one :class:`SqlStores` makes on a SQLite file and on
PostgreSQL (the ``any_store`` fixture)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import pytest

from ghostparty.server.common.model import ChatLine, Seat, Table
from ghostparty.server.common.names import name_key
from ghostparty.server.community.moderation_store import Audit, Standing
from ghostparty.server.infra.rows import utc
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


def a_table(tables: Store, table_id: str, players: dict[int, int] | None = None) -> None:
    """A two-seat table whose seats ``players`` (seat -> player id) are held."""
    held = players or {}
    seats = tuple(
        Seat(n, "human", name=f"P{n}", token_hash=f"{n}" * 64, player_id=held[n]) if n in held else Seat(n, "human")
        for n in range(2)
    )
    assert tables.create(Table(id=table_id, rules="hugo", players=2, seats=seats, seed=1, created=T0, updated=T0))


def say(tables: Store, table_id: str, name: str, text: str, player_id: int | None = None, minute: int = 0) -> int:
    line = ChatLine(
        table_id, "players", 0, name, text, None, False, T0 + timedelta(minutes=minute), player_id=player_id
    )
    found = tables.add_chat(line)
    assert found is not None
    return found


def entry(moderator: int, action: str, target: int | None = None, **detail: Any) -> Audit:
    return Audit(moderator, "Mona", action, target, "Target" if target else None, "because", detail)


# -- blocks and mutes ---------------------------------------------------------------------


def test_blocks_are_listed_by_name_and_undone(keeper: Domains) -> None:
    ann, bob, cid = player(keeper, "Ann"), player(keeper, "Bob"), player(keeper, "Cid")
    keeper.moderation.block(ann, cid, T0)
    keeper.moderation.block(ann, bob, T0)
    keeper.moderation.block(ann, bob, LATER)  # again: nothing changes
    assert keeper.moderation.blocked(ann) == [(bob, "Bob"), (cid, "Cid")]
    assert keeper.moderation.blocked(bob) == []
    keeper.moderation.unblock(ann, bob)
    keeper.moderation.unblock(ann, bob)
    assert keeper.moderation.blocked(ann) == [(cid, "Cid")]


def test_blocking_an_account_that_doesnt_exist_keeps_nothing(keeper: Domains) -> None:
    ann = player(keeper, "Ann")
    keeper.moderation.block(ann, ann + 1000, T0)
    assert keeper.moderation.blocked(ann) == []
    assert keeper.moderation.avoided([ann, ann + 1000]) == {}


def test_racing_blocks_of_one_player_keep_one(keeper: Domains) -> None:
    ann, bob = player(keeper, "Ann"), player(keeper, "Bob")
    race(6, lambda _: keeper.moderation.block(ann, bob, T0))
    assert keeper.moderation.blocked(ann) == [(bob, "Bob")]


def test_avoided_pairs_go_both_ways_among_those_asked_about(keeper: Domains) -> None:
    ann, bob, cid, dee = (player(keeper, name) for name in ("Ann", "Bob", "Cid", "Dee"))
    keeper.moderation.block(ann, bob, T0)
    keeper.moderation.block(cid, ann, T0)
    keeper.moderation.block(dee, cid, T0)
    assert keeper.moderation.avoided([ann, bob, cid]) == {
        ann: frozenset({bob, cid}),
        bob: frozenset({ann}),
        cid: frozenset({ann}),
    }
    assert keeper.moderation.avoided([bob, dee]) == {}
    assert keeper.moderation.avoided([ann, ann]) == {}
    assert keeper.moderation.avoided(iter([ann, bob])) == {ann: frozenset({bob}), bob: frozenset({ann})}


def test_mutes_are_kept_per_player_and_table(keeper: Domains, tables: Store) -> None:
    ann, bob = player(keeper, "Ann"), player(keeper, "Bob")
    a_table(tables, "t1")
    a_table(tables, "t2")
    assert keeper.moderation.set_mute(ann, "t1", "players:zed", True)
    assert keeper.moderation.set_mute(ann, "t1", "players:bob", True)
    assert keeper.moderation.set_mute(ann, "t1", "players:bob", True)  # again: once
    assert keeper.moderation.mutes(ann, "t1") == ["players:bob", "players:zed"]
    assert keeper.moderation.mutes(ann, "t2") == [] and keeper.moderation.mutes(bob, "t1") == []
    assert keeper.moderation.set_mute(ann, "t1", "players:zed", False)
    assert keeper.moderation.set_mute(ann, "t1", "players:nobody", False)
    assert keeper.moderation.mutes(ann, "t1") == ["players:bob"]
    assert not keeper.moderation.set_mute(ann, "nope", "players:bob", True)
    assert keeper.moderation.mutes(ann, "nope") == []


# -- roles and sanctions ------------------------------------------------------------------


def test_a_standing_starts_plain_and_roles_are_not_audited(keeper: Domains) -> None:
    ann = player(keeper, "Ann")
    assert keeper.moderation.standing(ann) == Standing()
    assert keeper.moderation.standing(ann + 1000) == Standing()
    keeper.moderation.set_moderator(ann, True)
    assert keeper.moderation.standing(ann) == Standing(moderator=True)
    keeper.moderation.set_moderator(ann, False)
    assert keeper.moderation.standing(ann) == Standing()
    assert list(keeper.moderation.audit_log(10)) == []


def test_sanctions_keep_until_when_and_why_and_are_audited(keeper: Domains) -> None:
    mona, bob = player(keeper, "Mona"), player(keeper, "Bob")
    keeper.moderation.set_moderator(bob, True)
    keeper.moderation.sanction(bob, "chat", LATER, "insults", entry(mona, "timeout", bob, what="chat"), T0)
    keeper.moderation.sanction(bob, "rated", T0 + timedelta(days=3), "leaving", entry(mona, "ban", bob), T0)
    assert keeper.moderation.standing(bob) == Standing(True, LATER, "insults", T0 + timedelta(days=3), "leaving")
    keeper.moderation.sanction(bob, "chat", T0, "lifted", entry(mona, "ban", bob), LATER)
    assert keeper.moderation.standing(bob) == Standing(True, T0, "lifted", T0 + timedelta(days=3), "leaving")
    log = keeper.moderation.audit_log(10)
    assert [row.action for row in log] == ["ban", "ban", "timeout"]
    first = log[-1]
    assert (first.moderator_id, first.moderator, first.target_id, first.target) == (mona, "Mona", bob, "Target")
    assert (utc(first.at), first.reason, first.detail) == (T0, "because", {"what": "chat"})


# -- chat lines ---------------------------------------------------------------------------


def test_a_line_is_found_removed_or_not_and_a_removed_one_leaves_the_chat(keeper: Domains, tables: Store) -> None:
    mona, bob = player(keeper, "Mona"), player(keeper, "Bob")
    a_table(tables, "t1")
    kept = say(tables, "t1", "Ann", "hello")
    rude = say(tables, "t1", "Bob", "rude", player_id=bob, minute=1)
    row = keeper.moderation.line("t1", rude)
    assert row is not None
    assert (row.id, row.table_id, row.channel, row.seat, row.name, row.text) == (
        rude,
        "t1",
        "players",
        0,
        "Bob",
        "rude",
    )
    assert (row.phrase, row.during_game, utc(row.sent), row.player_id, row.removed) == (
        None,
        False,
        T0 + timedelta(minutes=1),
        bob,
        False,
    )
    keeper.moderation.remove_line("t1", rude, entry(mona, "remove_line", bob, line=rude), T0)
    removed = keeper.moderation.line("t1", rude)
    assert removed is not None and removed.removed
    assert [line.id for line in tables.chat("t1")] == [kept]
    assert keeper.moderation.line("t1", rude + 1000) is None
    assert keeper.moderation.line("t2", kept) is None
    assert [row.action for row in keeper.moderation.audit_log(10)] == ["remove_line"]


def test_the_evidence_is_the_line_and_those_around_it_not_removed(keeper: Domains, tables: Store) -> None:
    mona = player(keeper, "Mona")
    a_table(tables, "t1")
    a_table(tables, "t2")
    ids = [say(tables, "t1", "Ann", f"line {n}", minute=n) for n in range(6)]
    say(tables, "t2", "Ann", "elsewhere")
    keeper.moderation.remove_line("t1", ids[1], entry(mona, "remove_line"), T0)
    found = keeper.moderation.around("t1", ids[3], 2)
    assert [line["id"] for line in found] == [ids[0], ids[2], ids[3], ids[4], ids[5]]
    assert found[2] == {
        "id": ids[3],
        "channel": "players",
        "seat": 0,
        "name": "Ann",
        "text": "line 3",
        "phrase": None,
        "sent": "2026-11-22T03:03:00Z",
        "reported": True,
    }
    assert [line["reported"] for line in found] == [False, False, True, False, False]
    assert [line["id"] for line in keeper.moderation.around("t1", ids[5], 1)] == [ids[4], ids[5]]
    assert [line["id"] for line in keeper.moderation.around("t1", ids[0], 0)] == [ids[0]]


# -- names --------------------------------------------------------------------------------


def test_a_rename_reaches_the_seats_and_chat_lines_and_is_audited(keeper: Domains, tables: Store) -> None:
    mona, bob = player(keeper, "Mona"), player(keeper, "Bob")
    a_table(tables, "t1", {0: bob})
    a_table(tables, "t2", {1: bob})
    a_table(tables, "t3")
    said = say(tables, "t3", "Bob", "hi", player_id=bob)
    changed = keeper.moderation.rename(bob, "Robert", name_key("Robert"), entry(mona, "rename", bob), T0)
    assert changed is not None and sorted(changed) == ["t1", "t2"]
    renamed = keeper.accounts.player_by_key(name_key("Robert"))
    assert renamed is not None and (renamed.id, renamed.name) == (bob, "Robert")
    assert keeper.accounts.player_by_key(name_key("Bob")) is None
    found = tables.load("t1")
    assert found is not None and found[0].seats[0].name == "Robert"
    row = keeper.moderation.line("t3", said)
    assert row is not None and row.name == "Robert"
    assert [row.action for row in keeper.moderation.audit_log(10)] == ["rename"]


def test_a_rename_to_a_name_taken_changes_nothing(keeper: Domains, tables: Store) -> None:
    mona, bob = player(keeper, "Mona"), player(keeper, "Bob")
    a_table(tables, "t1", {0: bob})
    assert keeper.moderation.rename(bob, "MONA", name_key("MONA"), entry(mona, "rename", bob), T0) is None
    still = keeper.accounts.player_by_key(name_key("Bob"))
    assert still is not None and still.name == "Bob"
    assert list(keeper.moderation.audit_log(10)) == []
    # its own key, written another way, is no one else's
    assert keeper.moderation.rename(bob, "BOB", name_key("BOB"), entry(mona, "rename", bob), T0) == ["t1"]
    again = keeper.accounts.player_by_key(name_key("Bob"))
    assert again is not None and again.name == "BOB"


# -- reports ------------------------------------------------------------------------------


def report(reporter: int, target: int | None, target_name: str, **more: Any) -> dict[str, Any]:
    values = {"reporter_id": reporter, "target_id": target, "target_name": target_name, "kind": "player"}
    return values | {"reason": "insults", "text": "rude", "evidence": [], "created": T0} | more


def test_a_report_is_kept_open_with_what_it_was_given(keeper: Domains, tables: Store) -> None:
    ann, bob = player(keeper, "Ann"), player(keeper, "Bob")
    a_table(tables, "t1")
    evidence = [{"id": 3, "text": "rude", "reported": True}]
    given = report(ann, bob, "Bob", kind="line", table_id="t1", line_id=3, evidence=evidence)
    made = keeper.moderation.add_report(given)
    assert made is not None
    evidence[0]["text"] = "changed"  # what was given is not what is kept
    row = keeper.moderation.report(made)
    assert (row.id, row.reporter_id, row.target_id, row.target_name, row.kind) == (made, ann, bob, "Bob", "line")
    assert (row.reason, row.text, row.table_id, row.line_id, row.status) == ("insults", "rude", "t1", 3, "open")
    assert (row.evidence, utc(row.created), row.closed) == ([{"id": 3, "text": "rude", "reported": True}], T0, None)
    plain = keeper.moderation.add_report(report(ann, bob, "Bob"))
    assert plain is not None and plain != made
    row = keeper.moderation.report(plain)
    assert (row.table_id, row.line_id, row.evidence) == (None, None, [])
    assert keeper.moderation.report(made + 1000) is None


def test_a_report_naming_no_table_is_refused(keeper: Domains) -> None:
    ann, bob = player(keeper, "Ann"), player(keeper, "Bob")
    assert keeper.moderation.add_report(report(ann, bob, "Bob", table_id="nope")) is None
    assert keeper.moderation.open_reports(10) == []


def test_the_queue_puts_the_most_reported_first_then_the_oldest(keeper: Domains) -> None:
    ann, bob, cid, dee = (player(keeper, name) for name in ("Ann", "Bob", "Cid", "Dee"))
    on_dee = keeper.moderation.add_report(report(ann, dee, "Dee"))
    guest_1 = keeper.moderation.add_report(report(ann, None, "Guest"))
    guest_2 = keeper.moderation.add_report(report(bob, None, "GUEST"))  # a guest's: by the name, folded
    guest_3 = keeper.moderation.add_report(report(bob, None, "guest"))  # the same reporter again
    on_cid = keeper.moderation.add_report(report(ann, cid, "Cid"))
    on_cid_2 = keeper.moderation.add_report(report(bob, cid, "Cid"))
    queue = keeper.moderation.open_reports(10)
    assert [(row.id, count) for row, count in queue] == [
        (guest_1, 2),
        (guest_2, 2),
        (guest_3, 2),
        (on_cid, 2),
        (on_cid_2, 2),
        (on_dee, 1),
    ]
    assert [row.id for row, _ in keeper.moderation.open_reports(2)] == [guest_1, guest_2]
    assert on_cid is not None
    assert keeper.moderation.close_report(on_cid, entry(ann, "close"), T0)
    queue = keeper.moderation.open_reports(10)
    assert [(row.id, count) for row, count in queue][-2:] == [(on_dee, 1), (on_cid_2, 1)]


def test_a_report_is_closed_once_and_audited_once(keeper: Domains) -> None:
    mona, bob = player(keeper, "Mona"), player(keeper, "Bob")
    made = keeper.moderation.add_report(report(mona, bob, "Bob"))
    assert made is not None
    assert keeper.moderation.close_report(made, entry(mona, "close", bob, report=made), LATER)
    assert not keeper.moderation.close_report(made, entry(mona, "close", bob, report=made), LATER)
    assert not keeper.moderation.close_report(made + 1000, entry(mona, "close"), LATER)
    row = keeper.moderation.report(made)
    assert (row.status, utc(row.closed)) == ("closed", LATER)
    (audited,) = keeper.moderation.audit_log(10)
    assert (audited.action, audited.detail) == ("close", {"report": made})


def test_racing_closes_of_one_report_let_one_through(keeper: Domains) -> None:
    mona, bob = player(keeper, "Mona"), player(keeper, "Bob")
    made = keeper.moderation.add_report(report(mona, bob, "Bob"))
    assert made is not None
    closed = race(6, lambda i: keeper.moderation.close_report(made, entry(mona, "close", bob, n=i), LATER))
    assert sum(closed) == 1
    assert len(keeper.moderation.audit_log(10)) == 1


# -- the audit log ------------------------------------------------------------------------


def test_the_audit_log_is_newest_first_by_pages(keeper: Domains) -> None:
    mona, bob = player(keeper, "Mona"), player(keeper, "Bob")
    for n in range(5):
        keeper.moderation.sanction(bob, "chat", LATER, "r", entry(mona, "timeout", bob, n=n), T0 + timedelta(seconds=n))
    page = keeper.moderation.audit_log(2)
    assert [row.detail["n"] for row in page] == [4, 3]
    assert page[0].id > page[1].id
    rest = keeper.moderation.audit_log(10, before=page[1].id)
    assert [row.detail["n"] for row in rest] == [2, 1, 0]
    assert [utc(row.at) for row in rest] == [T0 + timedelta(seconds=n) for n in (2, 1, 0)]
    assert list(keeper.moderation.audit_log(10, before=rest[-1].id)) == []
