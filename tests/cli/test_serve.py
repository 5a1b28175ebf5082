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
