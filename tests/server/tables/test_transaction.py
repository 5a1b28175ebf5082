"""The table transaction (:mod:`ghostparty.server.tables.transaction`): the one way to change a
table, and what it does and doesn't do."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path
from random import Random

import pytest

from ghostparty.rules import action_from_dict, action_to_dict, legal_actions
from ghostparty.server.bus.pubsub import MemoryPubSub
from ghostparty.server.common.errors import ServiceError
from ghostparty.server.tables.service import TableService
from ghostparty.server.tables.store import SqlTables
from ghostparty.server.tables.transaction import Draft
from tests.fixtures.tables import HUMAN, close, decode, run

SERVER = Path(__file__).resolve().parents[3] / "src" / "ghostparty" / "server"


class Recording(MemoryPubSub):
    """A pub/sub that remembers what was published, per channel."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[tuple[str, object]] = []

    async def publish(self, channel: str, message: object) -> None:  # type: ignore[override]
        self.sent.append((channel, message))
        await super().publish(channel, message)  # type: ignore[arg-type]

    def on(self, channel: str) -> list[object]:
        return [message for sent, message in self.sent if sent == channel]


def _service(url: str, pubsub: MemoryPubSub, *, bot_delay: float = 0.0) -> TableService:
    return TableService(SqlTables(url), pubsub, bot_delay=bot_delay, rng=Random(5))


async def _started(svc: TableService, players: int = 2) -> tuple[str, dict[int, str]]:
    table = await svc.create_table("hugo", [HUMAN] * players, 0)
    tokens = {seat: (await svc.join(table["id"], seat, f"P{seat}"))[0] for seat in range(players)}
    await svc.start(table["id"], 0, tokens[0])
    return str(table["id"]), tokens


def test_only_the_transaction_takes_a_tables_lock() -> None:
    """Every change goes through :func:`transaction.change`: no other module of the
    server locks a table (and so skips a step: the version, the publish, the keeper)."""
    found = []
    for path in sorted(SERVER.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "lock"
                and ast.unparse(node.func.value).split(".")[-1] == "tables"
            ):
                found.append(f"{path.relative_to(SERVER)}:{node.lineno}")
    assert found, "the check no longer finds the transaction's own lock: is it still looking at the right thing?"
    assert all(site.startswith("tables/transaction.py:") for site in found), (
        f"tables locked outside the transaction: {found}"
    )


def test_a_change_is_saved_published_once_and_bumps_the_version(sqlite_url: str) -> None:
    async def scenario() -> None:
        pubsub = Recording()
        svc = _service(sqlite_url, pubsub)
        try:
            table = await svc.create_table("hugo", [HUMAN, HUMAN], 0)
            table_id = table["id"]
            before = len(pubsub.on(table_id))
            _, view = await svc.join(table_id, 1, "Bo")
            assert view["version"] == table["version"] + 1
            (frame,) = pubsub.on(table_id)[before:]
            assert decode(frame)["table"]["version"] == view["version"]  # type: ignore[arg-type]
            stored = svc.store.load(table_id)
            assert stored is not None and stored[0].version == view["version"]
            assert stored[0].seats[1].name == "Bo"
        finally:
            await close(svc)

    run(scenario)


def test_a_draft_left_as_it_was_saves_and_tells_nothing(sqlite_url: str) -> None:
    async def scenario() -> None:
        pubsub = Recording()
        svc = _service(sqlite_url, pubsub)
        try:
            table = await svc.create_table("hugo", [HUMAN, HUMAN], 0)
            sent = len(pubsub.sent)
            async with svc.core.change(table["id"], expect="open") as draft:
                assert not draft.changed
            stored = svc.store.load(table["id"])
            assert stored is not None and stored[0].version == table["version"]
            assert len(pubsub.sent) == sent
        finally:
            await close(svc)

    run(scenario)


def test_a_failed_block_undoes_its_action_and_keeps_nothing(sqlite_url: str) -> None:
    async def scenario() -> None:
        pubsub = Recording()
        svc = _service(sqlite_url, pubsub)
        try:
            table_id, _ = await _started(svc)
            live = await svc.core.tables.get(table_id)
            assert live.game is not None
            version, history = live.table.version, len(live.game.history)
            sent = len(pubsub.sent)
            with pytest.raises(RuntimeError, match="changed my mind"):
                async with svc.core.change(table_id, expect="playing") as draft:
                    svc.play.apply(draft, 0, action_from_dict({"place": "G21"}))
                    assert len(live.game.history) == history + 1
                    raise RuntimeError("changed my mind")
            assert len(live.game.history) == history and live.table.version == version
            assert len(pubsub.sent) == sent
            stored = svc.store.load(table_id)
            assert stored is not None and stored[0].version == version and stored[1] == []
        finally:
            await close(svc)

    run(scenario)


def test_a_stale_save_undoes_the_action_and_tells_nobody(sqlite_url: str) -> None:
    async def scenario() -> None:
        pubsub = Recording()
        svc = _service(sqlite_url, pubsub)
        try:
            table_id, _ = await _started(svc)
            live = await svc.core.tables.get(table_id)
            assert live.game is not None
            # another instance changed the table behind this one's copy
            table = live.table
            assert svc.store.save(replace(table, version=table.version + 1), table.version)
            sent = len(pubsub.sent)
            with pytest.raises(ServiceError) as refused:
                async with svc.core.change(table_id) as draft:
                    svc.play.apply(draft, 0, action_from_dict({"place": "G21"}))
            assert refused.value.code == "stale_version"
            assert live.game.history == ()
            assert len(pubsub.sent) == sent
            assert svc.core.tables.cached(table_id) is None  # read afresh on its next use
        finally:
            await close(svc)

    run(scenario)


def test_the_checks_come_before_the_draft(sqlite_url: str) -> None:
    async def scenario() -> None:
        svc = _service(sqlite_url, MemoryPubSub())
        try:
            table_id, tokens = await _started(svc)
            reached: list[Draft] = []
            cases = [
                ({"seat": 0, "token": "not-it"}, "bad_token"),
                ({"seat": 0, "token": tokens[0], "expect": "open"}, "not_open"),
                ({"seat": 0, "token": tokens[0], "expect": "over"}, "not_over"),
                ({"seat": 0, "token": tokens[0], "expect": "playing", "version": 1}, "stale_version"),
            ]
            for options, code in cases:
                with pytest.raises(ServiceError) as refused:
                    async with svc.core.change(table_id, **options) as draft:  # type: ignore[arg-type]
                        reached.append(draft)
                assert refused.value.code == code, options
            assert reached == []
            live = await svc.core.tables.get(table_id)
            async with svc.core.change(
                table_id, 0, tokens[0], expect=("open", "playing"), version=live.table.version
            ) as draft:
                reached.append(draft)
            assert reached
        finally:
            await close(svc)

    run(scenario)


def test_a_quiet_change_is_saved_but_not_published(sqlite_url: str) -> None:
    async def scenario() -> None:
        pubsub = Recording()
        svc = _service(sqlite_url, pubsub)
        try:
            live, _ = await svc.lobby.create_seated("hugo", [("Ann", None)], bots=1, bot_level="random", rated=False)
            await svc.lobby.give_up(live)
            stored = svc.store.load(live.table.id)
            assert stored is not None and stored[0].status == "closed"
            assert pubsub.sent == []
        finally:
            await close(svc)

    run(scenario)


def test_a_person_back_at_the_start_of_their_turn_is_stored_present(sqlite_url: str) -> None:
    """The seat's ``away`` cleared when its person acts again is saved with the action,
    not only in this instance's memory (another instance, or a restart, reads it)."""

    async def scenario() -> None:
        svc = _service(sqlite_url, MemoryPubSub(), bot_delay=60.0)  # the absent bot doesn't get to move
        try:
            table_id, tokens = await _started(svc)
            await svc.play.set_away(table_id, 1, away=True)
            state = await svc.state(table_id, tokens)
            await svc.act(table_id, 0, tokens[0], state["table"]["version"], {"place": "G21"})
            state = await svc.state(table_id, tokens)
            assert state["table"]["to_move"] == 1 and state["table"]["seats"][1]["away"]
            live = await svc.core.tables.get(table_id)
            assert live.game is not None
            action = action_to_dict(legal_actions(live.game.state)[0])
            await svc.act(table_id, 1, tokens[1], state["table"]["version"], action)
            stored = svc.store.load(table_id)
            assert stored is not None
            assert not stored[0].seats[1].away
            assert stored[0].version == state["table"]["version"] + 1
        finally:
            await close(svc)

    run(scenario)
