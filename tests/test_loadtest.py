"""``ghostparty loadtest`` plays real games over WebSockets and reports the server's CPU."""

from __future__ import annotations

import email.message
import json
import subprocess
import sys
import urllib.error

import pytest
from click.testing import CliRunner


def loadtest(*options: str) -> dict[str, object]:
    command = [sys.executable, "-m", "ghostparty.cli.main", "loadtest", "--json", *options]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    report: dict[str, object] = json.loads(done.stdout)
    return report


def test_a_short_run_counts_actions_round_trips_and_the_servers_cpu() -> None:
    report = loadtest("--games", "4", "--players", "3", "--seconds", "3", "--warmup", "1", "--think", "0")
    assert report["errors"] == {}, report
    actions = report["actions"]
    assert isinstance(actions, int) and actions > 50, report
    latency = report["latency_ms"]
    assert isinstance(latency, dict) and 0 < latency["p50"] <= latency["p99"] <= latency["max"], report
    assert report["server_cpu_source"] == "the server processes (/proc)"
    cpu, per_action = report["server_cpu_seconds"], report["server_cpu_ms_per_action"]
    # The server's work in the measured 3 s: something, and no more than this machine's two cores.
    assert isinstance(cpu, float) and 0 < cpu <= 2 * float(report["seconds"])  # type: ignore[arg-type]
    assert isinstance(per_action, float) and abs(per_action - cpu / actions * 1000) < 0.01
    assert report["workers"] == 1 and report["odds"] is False


def test_new_tables_refused_are_counted_by_status_and_explained(monkeypatch: pytest.MonkeyPatch) -> None:
    """A server started without ``--max-new-tables 1000000`` refuses most of the load's
    tables (429): its games never set up retry, and those refusals count in the server's
    CPU per action. The report says so instead of an unexplained "HTTPError"."""
    from ghostparty import loadtest as load
    from ghostparty.cli.main import cli

    async def refused(base: str, rules: str, players: int) -> tuple[str, dict[int, str]]:
        raise urllib.error.HTTPError(f"{base}/api/tables", 429, "Too Many Requests", email.message.Message(), None)

    monkeypatch.setattr(load, "_setup", refused)
    monkeypatch.setattr(load, "server_cpu", lambda base, token=None: None)
    result = CliRunner().invoke(
        cli, ["loadtest", "--url", "http://127.0.0.1:9", "--games", "2", "--seconds", "2", "--think", "0"]
    )
    assert result.exit_code == 0, result.output
    errors = next(line for line in result.output.splitlines() if "errors:" in line)
    assert errors.strip().startswith("errors: HTTP 429 ") and int(errors.split()[-1]) >= 4, result.output
    assert "start it with --max-new-tables 1000000" in result.output


def test_the_cpu_of_a_server_at_an_address_is_read_from_its_metrics(sqlite_url: str) -> None:
    """``--url``: the instance and its CPU seconds come from ``/metrics`` (``/api/health``
    tells a stranger neither), with the server's metrics token where it has one."""
    from ghostparty.loadtest import server_cpu
    from ghostparty.server.app import create_app
    from tests.fixtures.serving import serving

    app = create_app(sqlite_url, bot_delay=0.0)
    with serving(app) as port:
        first, second = server_cpu(f"http://127.0.0.1:{port}"), server_cpu(f"http://127.0.0.1:{port}")
    assert first is not None and second is not None, "no CPU time read from /metrics"
    assert first[0] == second[0] == app.state.parts.service.instance
    assert 0 < first[1] <= second[1]
    token = "metrics-token-of-this-test"
    app = create_app(sqlite_url, bot_delay=0.0, metrics_token=token)
    with serving(app) as port:
        assert server_cpu(f"http://127.0.0.1:{port}") is None  # refused without the token
        found = server_cpu(f"http://127.0.0.1:{port}", token)
    assert found is not None and found[0] == app.state.parts.service.instance and found[1] > 0
