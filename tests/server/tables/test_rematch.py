"""Playing again: the next table of a series, its seats, tokens and running totals."""

from __future__ import annotations

import pytest

from ghostparty.server.tables.service import ServiceError, TableService
from tests.fixtures.tables import HUMAN, bot, close, play_humans, run, service


async def finished(svc: TableService, seats: list, **options: object) -> tuple[str, dict[int, str]]:  # type: ignore[type-arg]
    table = await svc.create_table("hugo", seats, 0, **options)  # type: ignore[arg-type]
    tokens = {}
    for seat, spec in enumerate(seats):
        if spec.kind == "human":
            tokens[seat], _ = await svc.join(table["id"], seat, f"P{seat}")
    await svc.start(table["id"], 0, tokens[0])
    state = await play_humans(svc, table["id"], tokens)
    assert state["table"]["status"] == "over"
    return str(table["id"]), tokens


def test_when_everyone_says_play_again_the_next_game_starts_with_the_same_seats_and_tokens(sqlite_url: str) -> None:
    async def scenario() -> None:
        svc = service(sqlite_url)
        first, tokens = await finished(svc, [HUMAN, bot("random"), HUMAN])
        view = await svc.rematch.again(first, 0, tokens[0])
        assert view["rematch"] is None and view["seats"][0]["again"] and not view["seats"][2]["again"]
        assert (await svc.rematch.again(first, 0, tokens[0]))["rematch"] is None  # saying it twice is once
        view = await svc.rematch.again(first, 2, tokens[2])
        second = view["rematch"]
        assert second is not None
        nxt = (await svc.table(second))["table"]
        assert nxt["status"] == "playing" and nxt["series"] == first and nxt["series_index"] == 2
        assert [(s["kind"], s["name"]) for s in nxt["seats"]] == [
            ("human", "P0"),
            ("bot", "Random bot"),
            ("human", "P2"),
        ]
        state = await svc.state(second, tokens)  # the same tokens hold the new seats
        assert sorted(state["seats"]) == [0, 2]
        await play_humans(svc, second, tokens)
        series = await svc.rematch.series(second)
        assert series["series"] == first and [g["index"] for g in series["games"]] == [1, 2]
        firsts, seconds = (g["scores"] for g in series["games"])
        assert series["totals"] == [a + b for a, b in zip(firsts, seconds, strict=True)]
        await close(svc)

    run(scenario)


@pytest.mark.parametrize(("fill", "kind", "status"), [("bot", "bot", "playing"), ("empty", "human", "open")])
def test_going_on_without_those_who_did_not_answer(sqlite_url: str, fill: str, kind: str, status: str) -> None:
    async def scenario() -> None:
        svc = service(sqlite_url)
        first, tokens = await finished(svc, [HUMAN, HUMAN], rematch_fill=fill)
        second = (await svc.rematch.again(first, 1, tokens[1], now=True))["rematch"]
        nxt = (await svc.table(second))["table"]
        assert nxt["status"] == status and nxt["seats"][1]["name"] == "P1"
        assert nxt["seats"][0]["kind"] == kind and (nxt["seats"][0]["name"] is None) == (fill == "empty")
        await close(svc)

    run(scenario)


def test_play_again_needs_the_game_over_and_the_seats_token(sqlite_url: str) -> None:
    async def scenario() -> None:
        svc = service(sqlite_url)
        table = await svc.create_table("hugo", [HUMAN, HUMAN], 0)
        token, _ = await svc.join(table["id"], 0, "Ann")
        with pytest.raises(ServiceError) as early:
            await svc.rematch.again(table["id"], 0, token)
        assert early.value.code == "not_over"
        first, tokens = await finished(svc, [HUMAN, HUMAN])
        with pytest.raises(ServiceError) as forged:
            await svc.rematch.again(first, 1, tokens[0])
        assert forged.value.code == "bad_token"
        await close(svc)

    run(scenario)
