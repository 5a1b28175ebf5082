"""``/metrics``: what it counts, and who may read it; an operator closing a table."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import TestClient

from ghostparty.server.app import create_app
from ghostparty.server.common.metrics import Metrics

LOCAL = ("127.0.0.1", 40000)
REMOTE = ("203.0.113.7", 40000)
BOTS = [{"kind": "bot", "bot": "random"}] * 3


@contextmanager
def server(url: str, client: tuple[str, int] = LOCAL, **settings: Any) -> Iterator[TestClient]:
    app = create_app(url, bot_delay=0.0, seed=3, tables_per_minute=1000, **settings)
    with TestClient(app, client=client) as test_client:
        yield test_client


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a scrape, by name and labels."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def scrape(client: TestClient, **headers: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    response = client.get("/metrics", headers=headers)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    return samples(response.text)


def finished(client: TestClient, table_id: str) -> None:
    for _ in range(400):
        if client.get(f"/api/tables/{table_id}").json()["table"]["status"] == "over":
            return
        time.sleep(0.02)
    raise AssertionError("the bots did not finish")


def test_actions_tables_and_shards_are_counted(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        table_id = client.post("/api/tables", json={"rules": "hugo", "seats": BOTS}).json()["table"]["id"]
        finished(client, table_id)
        client.post("/api/tables", json={"rules": "hugo", "seats": [{"kind": "human"}, *BOTS]})
        found = scrape(client)
    bot_actions = found[("ghostparty_actions_total", (("by", "bot"),))]
    assert bot_actions > 10
    assert found[("ghostparty_action_seconds_count", (("by", "bot"),))] == bot_actions
    assert found[("ghostparty_actions_total", (("by", "person"),))] == 0
    assert found[("ghostparty_tables", (("status", "over"),))] == 1
    assert found[("ghostparty_tables", (("status", "open"),))] == 1
    assert found[("ghostparty_shards_held", ())] == 16
    assert found[("ghostparty_shard_held", (("shard", "0"),))] == 1
    assert found[("ghostparty_leases_outage_seconds", ())] == 0
    assert found[("ghostparty_event_loop_lag_seconds_count", ())] >= 0
    assert found[("ghostparty_quickmatch_waiting", ())] == 0
    assert ("process_cpu_seconds_total", ()) in found


def started_against_a_bot(client: TestClient) -> tuple[str, str, int]:
    """A started table of Ann (seat 0, first to play) and a random bot: its id, Ann's token, its version."""
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    table_id = client.post("/api/tables", json={"rules": "hugo", "seats": seats, "first_player": 0}).json()["table"][
        "id"
    ]
    token = client.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "Ann"}).json()["token"]
    started = client.post(f"/api/tables/{table_id}/start", json={"seat": 0, "token": token}).json()
    return table_id, token, int(started["table"]["version"])


def test_a_persons_actions_refusals_and_sockets_are_counted(sqlite_url: str) -> None:
    with server(sqlite_url) as client:
        table_id, token, version = started_against_a_bot(client)
        act = {"seat": 0, "token": token, "version": version}
        assert client.post(f"/api/tables/{table_id}/actions", json={**act, "version": 99, "action": {"place": "G12"}})
        assert (
            client.post(f"/api/tables/{table_id}/actions", json={**act, "action": {"place": "G12"}}).status_code == 200
        )
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "hello", "tokens": {}})
            ws.receive_json()
            found = scrape(client)
        assert scrape(client)[("ghostparty_sockets_open", ())] == 0
    assert found[("ghostparty_sockets_open", ())] == 1
    assert found[("ghostparty_actions_total", (("by", "person"),))] == 1
    assert found[("ghostparty_actions_refused_total", (("code", "stale_version"),))] == 1
    assert found[("ghostparty_tables_in_memory", ())] == 1


@pytest.mark.parametrize(
    ("client", "headers"),
    [
        (REMOTE, {}),
        (("testclient", 50000), {}),  # not an address at all
        (LOCAL, {"X-Forwarded-For": "198.51.100.4"}),  # through a proxy on this machine
        (LOCAL, {"Forwarded": "for=198.51.100.4"}),
        (LOCAL, {"X-Real-IP": "198.51.100.4"}),
    ],
)
def test_without_a_token_only_this_machine_may_read_them(
    sqlite_url: str, client: tuple[str, int], headers: dict[str, str]
) -> None:
    with server(sqlite_url, client) as test_client:
        response = test_client.get("/metrics", headers=headers)
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "forbidden"
    assert "metrics-token" in response.json()["error"]["message"]
    assert "ghostparty_" not in response.text


def test_ipv6_loopback_may_read_them(sqlite_url: str) -> None:
    with server(sqlite_url, ("::1", 40000)) as client:
        assert ("ghostparty_shards_held", ()) in scrape(client)


def test_with_a_token_only_its_bearer_may_read_them(sqlite_url: str) -> None:
    with server(sqlite_url, REMOTE, metrics_token="s3cret-scrape") as client:
        assert ("ghostparty_shards_held", ()) in scrape(client, Authorization="Bearer s3cret-scrape")
        for given in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "Basic s3cret-scrape"}):
            assert client.get("/metrics", headers=given).status_code == 403
    with server(sqlite_url, LOCAL, metrics_token="s3cret-scrape") as client:  # the token binds this machine too
        assert client.get("/metrics").status_code == 403


def test_health_tells_a_stranger_only_that_the_instance_serves(sqlite_url: str) -> None:
    """A load balancer needs no more; the process id (in the instance's name) and the CPU
    time are the operator's, in ``/metrics``."""
    with server(sqlite_url, REMOTE) as client:
        response = client.get("/api/health")
        instance = client.app.state.parts.service.instance  # type: ignore[attr-defined]
    assert response.status_code == 200 and response.json() == {"ok": True}
    assert instance.split(":")[1] not in response.text
    with server(sqlite_url) as client:
        found = scrape(client)
        instance = client.app.state.parts.service.instance  # type: ignore[attr-defined]
    assert found[("ghostparty_instance", (("name", instance),))] == 1
    assert found[("process_cpu_seconds_total", ())] > 0


def test_the_store_is_read_at_most_every_few_seconds() -> None:
    metrics = Metrics()
    reads = []

    async def counts() -> tuple[dict[str, int], int | None]:
        reads.append(1)
        return {"open": len(reads)}, 4

    async def twice() -> None:
        await metrics.scrape({"sockets": 2}, counts)
        await metrics.scrape({"sockets": 3}, counts)

    asyncio.run(twice())
    found = samples(metrics.render().decode())
    assert len(reads) == 1
    assert found[("ghostparty_tables", (("status", "open"),))] == 1
    assert found[("ghostparty_quickmatch_waiting", ())] == 4
    assert found[("ghostparty_sockets_open", ())] == 3


def test_an_operator_closes_a_game_and_its_watchers_are_told(sqlite_url: str) -> None:
    with server(sqlite_url, REMOTE, admin_token="adm1n") as client:
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
        table_id = client.post("/api/tables", json={"rules": "hugo", "seats": seats, "first_player": 0}).json()[
            "table"
        ]["id"]
        token = client.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "Ann"}).json()["token"]
        client.post(f"/api/tables/{table_id}/start", json={"seat": 0, "token": token})
        url = f"/api/admin/tables/{table_id}/close"
        body = {"reason": "abusive names"}
        assert client.post(url, json=body).status_code == 403
        assert client.post(url, json=body, headers={"Authorization": "Bearer nope"}).status_code == 403
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "hello", "tokens": {"0": token}})
            assert ws.receive_json()["table"]["status"] == "playing"
            answer = client.post(url, json=body, headers={"Authorization": "Bearer adm1n"})
            assert answer.status_code == 200, answer.text
            assert answer.json()["table"]["status"] == "closed"
            for _ in range(20):
                message = ws.receive_json()
                if message["type"] == "update" and message["table"]["status"] == "closed":
                    break
            else:
                raise AssertionError("the watcher was not told")
        again = client.post(url, json=body, headers={"Authorization": "Bearer adm1n"})
        assert again.status_code == 400
        assert again.json()["error"]["code"] == "not_open"
        act = {"seat": 0, "token": token, "version": answer.json()["table"]["version"], "action": {"roll": True}}
        assert client.post(f"/api/tables/{table_id}/actions", json=act).json()["error"]["code"] == "not_playing"


def test_without_an_admin_token_tables_cannot_be_closed(sqlite_url: str) -> None:
    with server(sqlite_url, LOCAL) as client:
        table_id = client.post("/api/tables", json={"rules": "hugo", "seats": [{"kind": "human"}, *BOTS]}).json()[
            "table"
        ]["id"]
        answer = client.post(f"/api/admin/tables/{table_id}/close", json={"reason": "x"})
        assert answer.status_code == 404
        assert "--admin-token" in answer.json()["error"]["message"]
        assert client.get(f"/api/tables/{table_id}").json()["table"]["status"] == "open"


def test_the_dashboard_draws_only_metrics_that_exist() -> None:
    dashboard = json.loads((Path(__file__).parents[3] / "deploy" / "grafana-dashboard.json").read_text())
    families = {family.name for family in Metrics().registry.collect()}
    drawn = {
        re.sub(r"_(bucket|total|count|sum)$", "", name)
        for panel in dashboard["panels"]
        for target in panel["targets"]
        for name in re.findall(r"\b(?:ghostparty|process)_[a-z_]+", target["expr"])
    }
    assert len(drawn) > 12
    assert drawn <= families, drawn - families


def test_store_and_pubsub_failures_are_counted(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with server(sqlite_url) as client:
        table_id, token, version = started_against_a_bot(client)
        service = client.app.state.parts.service  # type: ignore[attr-defined]

        def down(*_: object, **__: object) -> None:
            raise OSError("connection refused")

        monkeypatch.setattr(service.store, "save_many", down)
        monkeypatch.setattr(service.core.tables, "_batch", None)
        monkeypatch.setattr(service.store, "save", down)
        act = {"seat": 0, "token": token, "version": version, "action": {"place": "G12"}}
        assert client.post(f"/api/tables/{table_id}/actions", json=act).status_code == 503
        monkeypatch.undo()
        monkeypatch.setattr(service.pubsub, "publish", down)
        assert client.post(f"/api/tables/{table_id}/actions", json=act).status_code == 200
        found = scrape(client)
    assert found[("ghostparty_store_errors_total", (("op", "save"),))] == 1
    assert found[("ghostparty_actions_refused_total", (("code", "unavailable"),))] == 1
    assert found[("ghostparty_redis_errors_total", (("what", "update"),))] >= 1
    assert found[("ghostparty_actions_total", (("by", "person"),))] == 1
