"""``ghostparty serve`` starts, answers, and stops (a real uvicorn in a child process)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def test_serve_starts_a_server_that_answers(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "ghostparty.cli.main", "serve", "--port", str(port)]
    command += ["--database", f"sqlite:///{tmp_path}/games.db", "--max-new-tables", "5", "--log-level", "warning"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        assert f"http://127.0.0.1:{port}" in server.stdout.readline()
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/bots", timeout=1) as answer:
                    assert "greedy" in json.loads(answer.read())["bots"]
                    break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("the server did not answer")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as page:
            assert b"Ghost Party" in page.read()
    finally:
        server.terminate()
        server.wait(10)
        if server.stdout is not None:
            server.stdout.close()


def test_json_logs_and_metrics_for_this_machine(tmp_path: Path) -> None:
    """--log-format json: one object a line, the access log's fields; /metrics answers loopback."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "ghostparty.cli.main", "serve", "--port", str(port)]
    command += ["--database", f"sqlite:///{tmp_path}/games.db", "--log-level", "info", "--log-format", "json"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=1) as answer:
                    scraped = answer.read().decode()
                    break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("the server did not answer")
    finally:
        server.terminate()
        out, err = server.communicate(timeout=10)
    assert "ghostparty_shards_held 16.0" in scraped
    lines = out.splitlines()
    assert lines[0].startswith("Ghost Party: http://")
    logged = [json.loads(line) for line in lines[2:]] + [json.loads(line) for line in err.splitlines()]
    access = [entry for entry in logged if entry["logger"] == "uvicorn.access" and entry["path"] == "/metrics"]
    assert access and access[0]["status"] == 200 and access[0]["method"] == "GET"
    assert access[0]["client"].startswith("127.0.0.1:")
    assert {"time", "level", "logger", "message"} <= set(logged[0])
    assert any(entry["logger"] == "uvicorn.error" and "Started server process" in entry["message"] for entry in logged)


def test_a_short_token_is_refused(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "ghostparty.cli.main", "serve", "--metrics-token", "short"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2
    assert "--metrics-token" in result.stderr and "16 printable characters" in result.stderr


def test_serve_refuses_email_settings_it_cannot_use(tmp_path: Path) -> None:
    """--smtp needs a sound URL and an --email-secret; the refusal says which and why."""
    from click.testing import CliRunner

    from ghostparty.cli.serve import serve

    database = ["--database", f"sqlite:///{tmp_path}/games.db"]
    runner = CliRunner(env={"GHOSTPARTY_EMAIL_SECRET": None})
    no_secret = runner.invoke(serve, [*database, "--smtp", "smtp://127.0.0.1:1025"])
    assert no_secret.exit_code == 2 and "--email-secret" in no_secret.output
    short = runner.invoke(serve, [*database, "--smtp", "smtp://127.0.0.1:1025", "--email-secret", "short"])
    assert short.exit_code == 2 and "at least 16" in short.output
    bad_url = runner.invoke(serve, [*database, "--smtp", "mail.example.org", "--email-secret", "x" * 20])
    assert bad_url.exit_code == 2 and "not an SMTP URL" in bad_url.output
