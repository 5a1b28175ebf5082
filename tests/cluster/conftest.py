"""Real processes for the cluster tests: Redis, PostgreSQL, two servers, a proxy in front.

Each test gets its own ``redis-server`` on a free port, a fresh PostgreSQL database
(reached by the servers through :class:`~.tcpproxy.TcpProxy`, which can cut it off),
two ``ghostparty serve`` processes on it, and HAProxy (or nginx) in front, configured
from ``deploy/`` by :func:`render`. Every test is skipped, with a message saying what is
missing, where haproxy (nginx), redis-server or PostgreSQL is. PostgreSQL comes from
``GHOSTPARTY_TEST_POSTGRES`` (default ``postgresql://postgres@127.0.0.1:5432/test``).

The processes' output goes to files; a test's teardown prints their ends, which pytest
shows when the test failed.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import pytest

from .client import http_json
from .tcpproxy import TcpProxy

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
POSTGRES = os.environ.get("GHOSTPARTY_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
#: The instances behind the proxy.
INSTANCES = 2


def binary(name: str) -> str | None:
    """The path of the program ``name`` (on the PATH, or in /usr/sbin), or ``None``."""
    return shutil.which(name) or shutil.which(name, path="/usr/sbin:/sbin")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until(condition: Callable[[], bool], timeout: float, what: str, interval: float = 0.05) -> None:
    """Poll ``condition()`` until it is true; fail naming ``what`` after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(interval)


def render(template: str, listen: int, backends: Sequence[int]) -> str:
    """A ``deploy/`` config listening on ``listen`` in front of ``backends`` (ports on
    127.0.0.1): the port of its one ``bind``/``listen`` line replaced, and the lines
    between ``# backends:begin`` and ``# backends:end`` replaced by one copy of the first
    ``server`` line there per backend, its address and its name (``gp1``) changed."""
    text, count = re.subn(
        r"(?m)^(\s*(?:bind|listen)\s+127\.0\.0\.1:)\d+\b", lambda m: f"{m.group(1)}{listen}", template
    )
    assert count == 1, "the config needs exactly one `bind`/`listen 127.0.0.1:PORT` line"
    block = re.search(r"(?ms)^([ \t]*)# backends:begin\n(.*?)^[ \t]*# backends:end\n", text)
    assert block is not None, "the config needs `# backends:begin` and `# backends:end` lines"
    pattern = next(line for line in block.group(2).splitlines() if line.strip().startswith("server "))
    lines = [
        re.sub(r"\bgp\d+\b", f"gp{n}", re.sub(r"127\.0\.0\.1:\d+", f"127.0.0.1:{port}", pattern))
        for n, port in enumerate(backends, 1)
    ]
    return text[: block.start()] + "".join(line + "\n" for line in lines) + text[block.end() :]


def _tail(path: Path, lines: int = 60) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no output)"


@dataclass
class Process:
    """A child process whose output goes to ``log``."""

    name: str
    command: list[str]
    log: Path
    env: dict[str, str] | None = None
    popen: subprocess.Popen[bytes] | None = None
    _out: IO[bytes] | None = None

    def start(self) -> None:
        self._out = self.log.open("ab")
        self.popen = subprocess.Popen(self.command, stdout=self._out, stderr=subprocess.STDOUT, env=self.env)

    @property
    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def kill(self) -> None:
        """SIGKILL: gone at once, nothing cleaned up."""
        assert self.popen is not None
        self.popen.send_signal(signal.SIGKILL)
        self.popen.wait(5)

    def stop(self, timeout: float = 5.0) -> None:
        """SIGTERM, then SIGKILL after ``timeout`` seconds."""
        if self.popen is not None and self.popen.poll() is None:
            self.popen.terminate()
            try:
                self.popen.wait(timeout)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(5)
        if self._out is not None:
            self._out.close()
            self._out = None

    def tail(self, lines: int = 60) -> str:
        return f"--- {self.name} ({' '.join(self.command[:2])} …), last {lines} lines of {self.log}:\n{_tail(self.log, lines)}"


# -- Redis --------------------------------------------------------------------------------


class RedisServer:
    """A ``redis-server`` of the test's own, on a free port, without persistence."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.folder = folder
        command = [
            binary("redis-server") or "redis-server",
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ]
        self.process = Process("redis-server", [*command, "--dir", str(folder)], folder / "redis.log")

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def start(self) -> None:
        self.process.start()
        wait_until(self.ping, 10, f"redis-server on port {self.port}")

    def stop(self) -> None:
        self.process.stop()


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    if binary("redis-server") is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.stop()


# -- PostgreSQL ---------------------------------------------------------------------------


@pytest.fixture
def database() -> Iterator[str]:
    """The URL of a fresh PostgreSQL database, dropped afterwards."""
    psycopg = pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e '.[postgres]')")
    from sqlalchemy.engine import make_url

    admin = make_url(POSTGRES)
    name = f"gp_cluster_{uuid.uuid4().hex[:10]}"
    dsn = admin.set(drivername="postgresql").render_as_string(hide_password=False)
    try:
        with psycopg.connect(dsn, autocommit=True, connect_timeout=3) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
    except psycopg.OperationalError as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        pytest.skip(f"no PostgreSQL server at {POSTGRES} ({reason}); set GHOSTPARTY_TEST_POSTGRES")
    yield admin.set(drivername="postgresql", database=name).render_as_string(hide_password=False)
    with psycopg.connect(dsn, autocommit=True, connect_timeout=3) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def db_proxy(database: str) -> Iterator[TcpProxy]:
    """A :class:`TcpProxy` in front of the test's PostgreSQL server."""
    from sqlalchemy.engine import make_url

    url = make_url(database)
    proxy = TcpProxy(url.host or "127.0.0.1", url.port or 5432)
    proxy.start()
    yield proxy
    proxy.close()


def stored_actions(database: str, table_ids: Sequence[str]) -> dict[str, list[tuple[int, int, str]]]:
    """``gp_actions``' rows of ``table_ids`` in order: ``(idx, seat, action JSON text)``."""
    import psycopg

    found: dict[str, list[tuple[int, int, str]]] = {table_id: [] for table_id in table_ids}
    with psycopg.connect(database, connect_timeout=3) as conn:
        rows = conn.execute(
            "SELECT table_id, idx, seat, action FROM gp_actions WHERE table_id = ANY(%s) ORDER BY table_id, idx",
            (list(table_ids),),
        ).fetchall()
    for table_id, index, seat, action in rows:
        found[table_id].append((index, seat, action))
    return found


def stored_tables(database: str, table_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
    """``gp_tables``' rows of ``table_ids``: status, version, to_move."""
    import psycopg

    with psycopg.connect(database, connect_timeout=3) as conn:
        rows = conn.execute(
            "SELECT id, status, version, to_move FROM gp_tables WHERE id = ANY(%s)", (list(table_ids),)
        ).fetchall()
    return {row[0]: {"status": row[1], "version": row[2], "to_move": row[3]} for row in rows}


# -- the servers and the proxy ------------------------------------------------------------


@dataclass
class Cluster:
    """Server instances on one database and one Redis, behind one proxy at :attr:`base`."""

    folder: Path
    database: str
    redis: RedisServer
    servers: list[Process] = field(default_factory=list)
    ports: list[int] = field(default_factory=list)
    proxy: Process | None = None
    base: str = ""

    def start_server(self, port: int) -> Process:
        n = len(self.servers) + 1
        command = [sys.executable, "-m", "ghostparty.cli.main", "serve", "--port", str(port)]
        command += ["--database", self.database, "--redis", self.redis.url, "--bot-delay", "0.05"]
        command += ["--log-level", "warning", "--max-new-tables", "1000", "--max-sockets-per-address", "1000"]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        server = Process(f"instance {n} (port {port})", command, self.folder / f"server{n}.log", env)
        server.start()
        self.servers.append(server)
        self.ports.append(port)
        return server

    def wait_healthy(self, server: Process, port: int, timeout: float = 30) -> None:
        def up() -> bool:
            if not server.alive:
                raise AssertionError(f"{server.name} exited at start-up\n{server.tail()}")
            try:
                return http_json("GET", f"http://127.0.0.1:{port}/api/health", timeout=1)[0] == 200
            except OSError:
                return False

        wait_until(up, timeout, f"{server.name} to answer /api/health", 0.1)

    def start_proxy(self, kind: str) -> None:
        listen = free_port()
        template = (DEPLOY / ("haproxy.cfg" if kind == "haproxy" else "nginx.conf")).read_text()
        config = self.folder / ("haproxy.cfg" if kind == "haproxy" else "nginx.conf")
        config.write_text(render(template, listen, self.ports))
        if kind == "haproxy":
            command = [binary("haproxy") or "haproxy", "-f", str(config), "-db"]
        else:
            pid = self.folder / "nginx.pid"
            command = [binary("nginx") or "nginx", "-c", str(config), "-p", str(self.folder), "-e", "stderr"]
            command += ["-g", f"daemon off; pid {pid};"]
        self.proxy = Process(kind, command, self.folder / f"{kind}.log")
        self.proxy.start()
        self.base = f"http://127.0.0.1:{listen}"

        def up() -> bool:
            if not self.proxy or not self.proxy.alive:
                raise AssertionError(f"{kind} exited at start-up\n{self.proxy.tail() if self.proxy else ''}")
            try:
                return http_json("GET", f"{self.base}/api/health", timeout=1)[0] == 200
            except OSError:
                return False

        wait_until(up, 10, f"{kind} to answer /api/health", 0.05)

    def stop(self) -> None:
        for process in [*self.servers, *([self.proxy] if self.proxy else [])]:
            with contextlib.suppress(Exception):
                process.stop()

    def live_bases(self) -> dict[str, str]:
        """Each live instance's own address, by name."""
        return {s.name: f"http://127.0.0.1:{port}" for s, port in zip(self.servers, self.ports, strict=True) if s.alive}

    def digest(self, most: int = 25) -> str:
        """Each server's output, its distinct lines with how often each came (the first
        ``most``), ports and numbers kept: for failure messages."""
        parts = []
        for server in self.servers:
            counts: dict[str, int] = {}
            for line in server.log.read_text(errors="replace").splitlines():
                counts[line] = counts.get(line, 0) + 1
            shown = [f"  [{n}x] {line}" if n > 1 else f"  {line}" for line, n in list(counts.items())[:most]]
            more = f"\n  … and {len(counts) - most} more distinct lines" if len(counts) > most else ""
            parts.append(f"--- {server.name}, alive {server.alive}:\n" + "\n".join(shown) + more)
        return "\n".join(parts)

    def logs(self, lines: int = 60) -> str:
        """The ends of every process's output."""
        processes = [*self.servers, *([self.proxy] if self.proxy else []), self.redis.process]
        return "\n".join(process.tail(lines) for process in processes)


def _program(kind: str) -> str:
    found = binary(kind)
    if found is None:
        pytest.skip(f"{kind} is not installed (apt-get install {kind})")
    return found


@pytest.fixture
def haproxy() -> str:
    """HAProxy's program (skips the test without it)."""
    return _program("haproxy")


@pytest.fixture
def nginx() -> str:
    """nginx's program (skips the test without it)."""
    return _program("nginx")


def _cluster(
    kind: str, redis_server: RedisServer, database: str, db_proxy: TcpProxy, folder: Path
) -> Iterator[Cluster]:
    from sqlalchemy.engine import make_url

    # Instances started together on an empty database race to create its tables
    # (test_deploy.py's test of that): here the schema is made first.
    from ghostparty.server.tables.store import SqlTables

    SqlTables(database).close()
    through_proxy = make_url(database).set(host="127.0.0.1", port=db_proxy.port)
    cluster = Cluster(folder, through_proxy.render_as_string(hide_password=False), redis_server)
    try:
        servers = [cluster.start_server(free_port()) for _ in range(INSTANCES)]
        for server, port in zip(servers, cluster.ports, strict=True):
            cluster.wait_healthy(server, port)
        cluster.start_proxy(kind)
        yield cluster
    finally:
        cluster.stop()
        print(cluster.logs())


@pytest.fixture
def cluster(
    haproxy: str, redis_server: RedisServer, database: str, db_proxy: TcpProxy, tmp_path: Path
) -> Iterator[Cluster]:
    """Two instances on a fresh database and Redis, behind HAProxy (deploy/haproxy.cfg)."""
    yield from _cluster("haproxy", redis_server, database, db_proxy, tmp_path)


@pytest.fixture
def nginx_cluster(
    nginx: str, redis_server: RedisServer, database: str, db_proxy: TcpProxy, tmp_path: Path
) -> Iterator[Cluster]:
    """Two instances on a fresh database and Redis, behind nginx (deploy/nginx.conf)."""
    yield from _cluster("nginx", redis_server, database, db_proxy, tmp_path)
