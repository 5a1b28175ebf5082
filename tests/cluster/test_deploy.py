"""deploy/'s proxy configs, as they are and as rendered, and nginx in front of two instances."""

from __future__ import annotations

import asyncio
import re
import subprocess
from pathlib import Path

import pytest

from .conftest import DEPLOY, Cluster, RedisServer, binary, free_port, render
from .traffic import check, finish, start_games, summary, verify, wait_progress

#: Tables of people only: what nginx does, apart from any bot's keeping.
PEOPLE = [{"kind": "human"}, {"kind": "human"}]


def _valid(kind: str, config: Path, folder: Path) -> subprocess.CompletedProcess[str]:
    program = binary(kind)
    if program is None:
        pytest.skip(f"{kind} is not installed (apt-get install {kind})")
    if kind == "haproxy":
        command = [program, "-c", "-f", str(config)]
    else:
        command = [program, "-t", "-c", str(config), "-p", str(folder), "-e", "stderr"]
        command += ["-g", f"pid {folder / 'nginx.pid'};"]
    return subprocess.run(command, capture_output=True, text=True, timeout=30, check=False)


@pytest.mark.parametrize(("kind", "name"), [("haproxy", "haproxy.cfg"), ("nginx", "nginx.conf")])
def test_the_configs_are_valid_as_they_are_and_rendered(kind: str, name: str, tmp_path: Path) -> None:
    template = (DEPLOY / name).read_text()
    rendered = render(template, 18000, [18001, 18002, 18003])
    backends = re.findall(r"(?m)^\s*server\s+(?:(gp\d+)\s+)?127\.0\.0\.1:(\d+)\b", rendered)
    names = ["gp1", "gp2", "gp3"] if kind == "haproxy" else ["", "", ""]
    assert backends == list(zip(names, ["18001", "18002", "18003"], strict=True))
    assert re.search(r"(?m)^\s*(bind|listen)\s+127\.0\.0\.1:18000\b", rendered)
    path = tmp_path / name
    path.write_text(rendered)
    for config in (DEPLOY / name, path):
        result = _valid(kind, config, tmp_path)
        assert result.returncode == 0, f"{kind} refuses {config}:\n{result.stdout}\n{result.stderr}"


def test_instances_start_together_on_an_empty_database(
    redis_server: RedisServer, database: str, tmp_path: Path
) -> None:
    """Two instances started at once on a database without the tables both come up (the
    first start creates the schema; the other must not fail on it)."""
    cluster = Cluster(tmp_path, database, redis_server)
    try:
        servers = [cluster.start_server(free_port()) for _ in range(2)]
        for server, port in zip(servers, cluster.ports, strict=True):
            cluster.wait_healthy(server, port)
    finally:
        cluster.stop()


def test_nginx_in_front(nginx_cluster: Cluster, database: str) -> None:
    """Games through nginx (HTTP and WebSockets); one instance is killed mid-game and its
    clients reconnect through nginx to the other: every game finishes."""
    cluster = nginx_cluster

    async def scenario() -> float:
        run = await start_games(cluster, database, seed=4, games=3, seats=PEOPLE, think=0.03)
        await wait_progress(run)
        cluster.servers[0].kill()
        took = await finish(run, timeout=30)
        await verify(run, allowed_errors={"stale_version"})
        if not any(c.reconnects for c in run.clients):
            run.problems.append("no client reconnected: none was on the killed instance?")
        print(f"finished {took:.1f} s after the kill; {summary(run)}")
        check(run)
        return took

    asyncio.run(scenario())
