"""``ghostparty loadtest``: concurrent games of bot clients over real WebSockets."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Coroutine, Iterator
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console

from ghostparty.cli.progress import progress_bar

if TYPE_CHECKING:
    from ghostparty.loadtest import LoadReport


@click.command()
@click.option("--games", default=200, show_default=True, type=click.IntRange(1, 5000), help="Concurrent games.")
@click.option("--seconds", default=30.0, show_default=True, type=click.FloatRange(2, 3600), help="How long to measure.")
@click.option(
    "--warmup",
    default=0.0,
    show_default=True,
    type=click.FloatRange(0, 600),
    help="Seconds of play before measuring (for the tables to be set up).",
)
@click.option("--rules", default="hugo", show_default=True, type=click.Choice(["hugo", "midnight-party"]))
@click.option(
    "--players", default=2, show_default=True, type=click.IntRange(2, 8), help="Seats per game, each a client."
)
@click.option(
    "--database",
    metavar="URL",
    help="Start a server on this store for the run (default: a fresh SQLite file in a temporary folder).",
)
@click.option("--redis", metavar="URL", help="Redis URL for the started server's pub/sub (default: in-process).")
@click.option("--url", metavar="URL", help="Load a server already running at this address instead (http://host:port).")
@click.option(
    "--metrics-token",
    envvar="GHOSTPARTY_METRICS_TOKEN",
    metavar="TOKEN",
    help="The --url server's metrics token, to read its CPU time from /metrics from another machine "
    "[env GHOSTPARTY_METRICS_TOKEN]",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Server processes to start (several need --redis).",
)
@click.option(
    "--think",
    default=0.3,
    show_default=True,
    type=click.FloatRange(0, 60),
    help="Mean seconds a client waits before each action (0: act at once, a closed loop).",
)
@click.option(
    "--odds/--no-odds",
    default=False,
    show_default=True,
    help="Clients ask for the mover's odds, as the browser's pages do (bot clients don't).",
)
@click.option("--seed", default=1, show_default=True, type=int)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def loadtest(
    games: int,
    seconds: float,
    warmup: float,
    rules: str,
    players: int,
    database: str | None,
    redis: str | None,
    url: str | None,
    metrics_token: str | None,
    workers: int,
    odds: bool,
    seed: int,
    think: float,
    as_json: bool,
) -> None:
    """Play GAMES concurrent games against a server and report actions/s and round trips.

    Every seat is a client on its own WebSocket that plays a random legal action on its
    turn; the round trip is the time from sending an action to receiving its update.
    Without --url, a server is started in its own process on a free port (bot delay 0).

    \b
    ghostparty loadtest --games 200 --seconds 30
    ghostparty loadtest --database postgresql://postgres@127.0.0.1/test --games 200
    """
    from ghostparty.loadtest import run_load
    from ghostparty.server.app import tune_gc

    console = Console(stderr=True)
    with _server(url, database, redis, workers) as (base, store, cpu), progress_bar(console, show=not as_json) as bar:
        tune_gc()  # the client's own collector pauses would count as round-trip time
        task = bar.add_task(f"actions, {games} games, {seconds:.0f} s", total=None)
        report = _event_loop_runner()(
            run_load(
                base,
                games=games,
                rules=rules,
                players=players,
                seconds=seconds,
                seed=seed,
                think=think,
                tick=lambda: bar.advance(task),
                cpu=cpu,
                odds=odds,
                warmup=warmup,
                metrics_token=metrics_token or None,
            )
        )
    data = {
        "server": base,
        "store": store,
        "workers": workers,
        "rules": rules,
        "players": players,
        "think": think,
        "odds": odds,
        "warmup": warmup,
    } | report.to_dict()
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    latency = report.to_dict()["latency_ms"]
    click.echo(
        f"server {base}, store {store}; {games} concurrent {players}-player {rules} games, think {think:g} s, for {report.seconds:.1f} s"
    )
    click.echo(f"  actions: {report.actions} ({report.actions_per_second:.0f}/s); games finished: {report.finished}")
    click.echo(
        f"  round trip ms: p50 {latency['p50']:.1f}, p90 {latency['p90']:.1f}, p99 {latency['p99']:.1f}, max {latency['max']:.1f}"
    )
    per_action = report.cpu_ms_per_action
    if per_action is not None and report.server_cpu is not None:
        click.echo(f"  server CPU: {report.server_cpu:.1f} s, {per_action:.3f} ms per action ({report.cpu_source})")
    else:
        click.echo(
            "  server CPU: unknown (several instances behind --url, or their /metrics not served to this "
            "machine: --metrics-token)"
        )
    if report.client_cpu_ms_per_action is not None:
        click.echo(
            f"  load client CPU: {report.client_cpu_ms_per_action:.3f} ms per action (this process, on the same cores)"
        )
    if report.errors:
        click.echo("  errors: " + ", ".join(f"{k} {v}" for k, v in sorted(report.errors.items())))
    if "HTTP 429" in report.errors:
        click.echo(
            "  the server refused new tables (429): start it with --max-new-tables 1000000, or the games"
            " never set up wait and retry, and their refusals count in its CPU per action"
        )


def _event_loop_runner() -> Callable[[Coroutine[Any, Any, LoadReport]], LoadReport]:
    """uvloop's runner where installed (as the server's, with uvicorn's extras): the
    client's own event loop then takes less of the cores it shares with the server."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run
    return uvloop.run


@contextlib.contextmanager
def _server(
    url: str | None, database: str | None, redis: str | None, workers: int
) -> Iterator[tuple[str, str, Callable[[], float | None] | None]]:
    if url is not None:
        yield url.rstrip("/"), "(the server's)", None
        return
    if workers > 1 and not redis:
        raise click.BadParameter(
            "several workers share their updates through Redis: give --redis", param_hint="--workers"
        )
    with tempfile.TemporaryDirectory(prefix="ghostparty-load-") as folder:
        store = database or f"sqlite:///{os.path.join(folder, 'load.db')}"
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        command = [sys.executable, "-m", "ghostparty.cli.main", "serve", "--port", str(port), "--database", store]
        command += [
            "--bot-delay",
            "0",
            "--max-new-tables",
            "1000000",
            "--max-sockets-per-address",
            "100000",
            "--log-level",
            "warning",
            "--review-on-demand",  # the load is play: reviewing every finished game is other work
        ]
        command += (["--redis", redis] if redis else []) + ["--workers", str(workers)]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            _wait_ready(base, server)
            yield base, store, lambda: process_tree_cpu(server.pid)
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()


def _wait_ready(base: str, server: subprocess.Popen[bytes], timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if server.poll() is not None:
            raise click.ClickException(f"the server stopped at once (exit code {server.returncode})")
        try:
            with urllib.request.urlopen(f"{base}/api/bots", timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise click.ClickException(f"the server at {base} did not answer within {timeout:.0f} s")


def process_tree_cpu(pid: int) -> float | None:
    """CPU seconds (user + system) of process ``pid`` and its descendants, from /proc;
    ``None`` where /proc can't tell (not Linux)."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    stats: dict[int, tuple[int, float]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return None
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as file:
                fields = file.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # after the name: state, ppid, …; utime and stime are fields 14 and 15 of stat
        stats[int(name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / ticks)
    if pid not in stats:
        return None
    total, stack = 0.0, [pid]
    while stack:
        current = stack.pop()
        total += stats[current][1]
        stack += [child for child, (parent, _) in stats.items() if parent == current]
    return total
