"""Quick-match and bot accounts (the Bot API): a bot account sits only with other bots
and with people who allow bots (pure: matching.py)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from ghostparty.server.quickmatch.matching import Waiting, propose

from .test_matching import T0, entries, tables, waiting


def bot(name: str, at: float = 0, players: int | None = 2, **more: object) -> Waiting:
    return replace(waiting(name, at, players, **more), bot=True, allow_bots=True)  # type: ignore[arg-type]


def test_a_bot_account_never_sits_with_a_person_who_did_not_allow_bots() -> None:
    assert tables([waiting("ann", 0), bot("robo", 1)], 5) == []
    assert tables([bot("robo", 0), waiting("ann", 1)], 5) == []


def test_a_person_who_allows_bots_meets_one() -> None:
    ann = replace(waiting("ann", 0), allow_bots=True)
    assert tables([ann, bot("robo", 1)], 5) == [(["ann", "robo"], 0)]


def test_bots_meet_each_other_and_people_meet_each_other() -> None:
    queue = [waiting("ann", 0), bot("robo", 1), waiting("bea", 2), bot("hal", 3)]
    assert tables(queue, 5) == [(["ann", "bea"], 0), (["robo", "hal"], 0)]


def test_one_who_refuses_bots_keeps_a_bot_from_a_bigger_table() -> None:
    ann = replace(waiting("ann", 0, 3), allow_bots=True)
    queue = [ann, waiting("bea", 1, 3), bot("robo", 2, 3), replace(waiting("cid", 3, 3), allow_bots=True)]
    assert tables(queue, 5) == [(["ann", "bea", "cid"], 0)]


mixed = st.builds(
    lambda entry, is_bot, allows: replace(entry, bot=is_bot, allow_bots=allows or is_bot),
    entries,
    st.booleans(),
    st.booleans(),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(mixed, max_size=30), st.integers(0, 200))
def test_no_table_seats_a_bot_account_with_a_person_who_refuses_bots(queue: list[Waiting], at: int) -> None:
    for group in propose(queue, T0 + timedelta(seconds=at)):
        if any(member.bot for member in group.members):
            assert all(member.bot or member.allow_bots for member in group.members), group
