"""The server CPU per action of several source trees, measured in turn on one machine.

Each round starts every tree's server in turn (``python -m ghostparty serve``, the tree's
``src`` first on ``PYTHONPATH``) on a fresh store, drives it with this tree's
``ghostparty loadtest --url`` (closed loop by default: 200 four-player games, 25 s after
a 5 s warm-up) and stops it. Every run is printed as it ends, then each tree's median.
A machine's speed drifts with its neighbours by more than the changes measured here, so
the trees run in turn, several rounds, and only one machine's figures are compared
(docs/performance.md)::

    python scripts/load_ab.py c0c0d03=../old base=../base new=. --rounds 3
    python scripts/load_ab.py base=../base new=. --store postgresql://postgres@127.0.0.1 \\
        --redis redis://127.0.0.1:6379/1
    python scripts/load_ab.py new=. --store sqlite,postgresql://postgres@127.0.0.1 \\
        --redis redis://127.0.0.1:6379/1     # the second store against the first, round by round

With several stores (comma-separated), every tree runs on each in turn within a round,
and the report ends with each round's ratio of every later store to the first: the
ratio of two stores measured a minute apart, not on different days.

With ``--together`` the trees' servers run at the same time instead, each on a store
of its own and loaded by a load client of its own (four busy processes on two cores):
the machine's drift then hits every tree alike, and each round ends with every tree's
ratio to the first, which varies much less from round to round than the figures
themselves (SQLite and PostgreSQL; not with Redis, whose channels are shared)::

    python scripts/load_ab.py old=../old new=. --together --rounds 5

A tree given as ``NAME=null`` is ``scripts/null_server.py`` instead: the serving stack
with no game behind it, whose CPU per action is the floor under every tree's;
``NAME=null:rules`` and ``NAME=null:store`` add the rules and a SQLite file, written with
no layers between (its ``--work``): a lower bound for any design of the server.

Options a tree's ``serve`` lacks (an older tree) are left out of its command line.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

#: Options for a load server: no limit on the load client's sockets and tables, bots at
#: once, finished games not reviewed (each only if the tree's ``serve`` has it).
LOAD_OPTIONS = {
    "--max-sockets-per-address": "100000",
    "--max-new-tables": "1000000",
    "--bot-delay": "0",
    "--review-on-demand": None,
}
DATABASE = "gp_load_ab"
#: The trees ``NAME=null`` stands for: ``scripts/null_server.py`` with each ``--work``.
NULLS = {name: Path(name) for name in ("null", "null:rules", "null:store")}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _options(tree: Path, env: dict[str, str]) -> list[str]:
    shown = subprocess.run(
        [sys.executable, "-m", "ghostparty", "serve", "--help"], env=env, capture_output=True, text=True, check=True
    ).stdout
    options: list[str] = []
    for name, value in LOAD_OPTIONS.items():
        if name in shown:
            options += [name] if value is None else [name, value]
    return options


def _fresh_store(store: str, redis: str | None, folder: str, index: int = 0) -> list[str]:
    """The ``serve`` options of an empty store (and Redis, but not with SQLite), made now
    (``index``: one of several servers run at once, each on a database of its own)."""
    if store == "sqlite":
        path = Path(folder) / f"load-{time.time_ns()}-{index}.db"
        return ["--database", f"sqlite:///{path}"]
    import psycopg

    database = f"{DATABASE}_{index}" if index else DATABASE
    with psycopg.connect(f"{store}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {database}")
        conn.execute(f"CREATE DATABASE {database}")
    options = ["--database", f"{store}/{database}"]
    if redis is not None:
        import redis as redis_py

        redis_py.Redis.from_url(redis).flushdb()
        options += ["--redis", redis]
    return options


def _wait_ready(base: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server stopped at once (exit {server.returncode})")
        try:
            with urllib.request.urlopen(f"{base}/api/health", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the server did not answer within 60 s")


def run_once(tree: Path, store: str, args: argparse.Namespace, folder: str) -> dict[str, Any]:
    """One load run against ``tree``'s server on ``store``: the load test's JSON report."""
    return run_together([tree], store, args, folder)[0]


def run_together(trees: list[Path], store: str, args: argparse.Namespace, folder: str) -> list[dict[str, Any]]:
    """Each of ``trees``' servers on a store of its own, all loaded at once (one load
    client each): their load tests' JSON reports, in order."""
    servers: list[tuple[subprocess.Popen[bytes], str]] = []
    try:
        for index, tree in enumerate(trees):
            env = {**os.environ, "PYTHONPATH": str(tree / "src")}
            if args.pure:
                env["GHOSTPARTY_PURE"] = "1"
            port = _free_port()
            if tree in NULLS.values():
                env["PYTHONPATH"] = str(Path(__file__).resolve().parent.parent / "src")
                command = [sys.executable, str(Path(__file__).with_name("null_server.py")), "--port", str(port)]
                _, _, work = str(tree).partition(":")
                path = Path(folder) / f"null-{time.time_ns()}-{index}.db"
                command += ["--work", work or "none", "--store", str(path)]
            else:
                command = [sys.executable, "-m", "ghostparty", "serve", "--port", str(port), "--log-level", "warning"]
                command += _options(tree, env) + _fresh_store(store, args.redis, folder, index)
            servers.append((subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL), f"http://127.0.0.1:{port}"))
        for server, base in servers:
            _wait_ready(base, server)
        loads = []
        for _, base in servers:
            load = [sys.executable, "-m", "ghostparty", "loadtest", "--url", base, "--json"]
            load += ["--games", str(args.games), "--players", str(args.players), "--think", str(args.think)]
            load += ["--seconds", str(args.seconds), "--warmup", str(args.warmup)]
            loads.append(subprocess.Popen(load, stdout=subprocess.PIPE, text=True))
        reports = []
        for load_process in loads:
            out, _ = load_process.communicate()
            if load_process.returncode:
                raise SystemExit(f"the load test failed (exit {load_process.returncode})")
            reports.append(dict(json.loads(out)))
        return reports
    finally:
        for server, _ in servers:
            server.terminate()
        for server, _ in servers:
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", metavar="NAME=PATH", help="a name and a source tree (a checkout)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--store",
        default="sqlite",
        help="'sqlite' or a PostgreSQL server's URL (no database); several, comma-separated",
    )
    parser.add_argument("--redis", help="Redis URL for the servers' pub/sub (its database is emptied each run)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--think", type=float, default=0.0)
    parser.add_argument("--seconds", type=float, default=25.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--pure", action="store_true", help="servers ignore a compiled rules core")
    parser.add_argument(
        "--together",
        action="store_true",
        help="load every tree's server at once, each with its own load client (the machine's drift hits all alike);"
        " not with --redis (Redis's channels are shared by its databases)",
    )
    args = parser.parse_args()
    if args.together and args.redis:
        parser.error("--together runs servers that would share Redis's channels: leave out --redis")
    trees: dict[str, Path] = {}
    for spec in args.trees:
        name, _, path = spec.partition("=")
        if path in NULLS:
            trees[name] = NULLS[path]
            continue
        if not path or not (Path(path) / "src" / "ghostparty").is_dir():
            parser.error(f"{spec!r}: expected NAME=PATH of a checkout with src/ghostparty")
        trees[name] = Path(path).resolve()
    stores = args.store.split(",")
    labels = {store: "sqlite" if store == "sqlite" else "pg" + ("+redis" if args.redis else "") for store in stores}
    if len(set(labels.values())) < len(stores):
        parser.error(f"--store {args.store!r}: each store once")
    runs = [(name, store) for name in trees for store in stores]
    cpu: dict[tuple[str, str], list[float | None]] = {run: [] for run in runs}
    with tempfile.TemporaryDirectory() as folder:
        print("round tree  store        server CPU ms/action  actions/s  p50 ms  p99 ms  errors", flush=True)
        for round_ in range(1, args.rounds + 1):
            reports: dict[tuple[str, str], dict[str, Any]] = {}
            if args.together:
                for store in stores:
                    together = run_together(list(trees.values()), store, args, folder)
                    reports.update({(name, store): report for name, report in zip(trees, together, strict=True)})
            for name, store in runs:
                report = reports[name, store] if args.together else run_once(trees[name], store, args, folder)
                per_action = report["server_cpu_ms_per_action"]
                cpu[name, store].append(per_action)
                latency = report["latency_ms"]
                print(
                    f"{round_:5d} {name:5s} {labels[store]:10s} {per_action!s:>22s} {report['actions_per_second']:>10} "
                    f"{latency['p50']:>7} {latency['p99']:>7}  {report['errors'] or ''}",
                    flush=True,
                )
    for (name, store), values in cpu.items():
        measured = [value for value in values if value is not None]
        if measured:
            print(
                f"{name} on {labels[store]}: median {statistics.median(measured):.3f} ms of server CPU per action"
                f" ({len(measured)} runs)"
            )
    names = list(trees)
    for name in names[1:]:  # each tree against the first, round by round (in one window with --together)
        for store in stores:
            ratios = [b / a for a, b in zip(cpu[names[0], store], cpu[name, store], strict=True) if a and b]
            if ratios:
                shown = ", ".join(f"{ratio:.3f}" for ratio in ratios)
                print(
                    f"{name} / {names[0]} on {labels[store]} by round {shown}; median {statistics.median(ratios):.3f}"
                )
    for name in trees:
        first = cpu[name, stores[0]]
        for store in stores[1:]:
            ratios = [b / a for a, b in zip(first, cpu[name, store], strict=True) if a and b]
            if ratios:
                shown = ", ".join(f"{ratio:.2f}" for ratio in ratios)
                print(
                    f"{name}: {labels[store]} / {labels[stores[0]]} by round {shown};"
                    f" median {statistics.median(ratios):.2f}"
                )


if __name__ == "__main__":
    main()
