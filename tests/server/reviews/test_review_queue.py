"""Game reviews between instances: an rq queue on Redis that any instance's worker takes
jobs from, the review stored in the shared database, a job lost with its worker retaken.

Needs the Redis server in ``GHOSTPARTY_TEST_REDIS`` (default ``redis://127.0.0.1:6379/15``)
and rq; skipped with a message where either is missing.
"""

from __future__ import annotations

import os
import signal
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from ghostparty.server.app import create_app

pytest.importorskip("rq", reason="rq is not installed (pip install 'ghostparty[redis]')")
REDIS = os.environ.get("GHOSTPARTY_TEST_REDIS", "redis://127.0.0.1:6379/15")
CHEAP = {"depth": 1, "horizon": 0}
BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]


@pytest.fixture(scope="module", autouse=True)
def redis_server() -> None:
    from redis import Redis
    from redis.exceptions import ConnectionError as RedisDown

    try:
        Redis.from_url(REDIS).ping()
    except RedisDown:
        pytest.skip(f"no Redis server at {REDIS}; set GHOSTPARTY_TEST_REDIS")


@pytest.fixture
def queue_name() -> Iterator[str]:
    """A queue of this test's own (other runs may share the Redis server)."""
    from redis import Redis

    name = f"gp-test-reviews-{uuid.uuid4().hex[:8]}"
    connection = Redis.from_url(REDIS)
    # The instances keep their limits in Redis, by address ("testclient" for all): each
    # test starts with its own, not what earlier runs on this server left.
    for key in connection.scan_iter("ghostparty:limit:*"):
        connection.delete(key)
    yield name
    for key in connection.scan_iter(f"rq:*{name}*"):
        connection.delete(key)
    for key in connection.scan_iter(f"{name}:*"):
        connection.delete(key)
    # A job's own key names the table, not the queue: one left behind would answer for
    # the same table (the same seed) in a later run, with its old status.
    for key in connection.scan_iter("rq:job:*review-*"):
        if connection.hget(key, "origin") == name.encode():
            connection.delete(key)


def instance(url: str, queue_name: str, *, seed: int, settings: dict[str, Any] = CHEAP) -> TestClient:
    app = create_app(
        url, redis_url=REDIS, bot_delay=0.0, seed=seed, tables_per_minute=1000, review_settings=settings,
        review_queue=queue_name,
    )  # fmt: skip
    return TestClient(app)


def finished_game(client: TestClient) -> str:
    table_id = str(client.post("/api/tables", json={"rules": "hugo", "seats": BOTS}).json()["table"]["id"])
    deadline = time.monotonic() + 60
    while client.get(f"/api/tables/{table_id}").json()["table"]["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)
    return table_id


def test_one_instance_queues_the_review_another_serves_it_and_no_second_job_is_made(
    sqlite_url: str, queue_name: str
) -> None:
    with instance(sqlite_url, queue_name, seed=1) as first, instance(sqlite_url, queue_name, seed=2) as second:
        table_id = finished_game(first)
        asked = first.get(f"/api/tables/{table_id}/review")
        assert asked.status_code == 202 and asked.json()["status"] == "queued"
        seen = set()
        deadline = time.monotonic() + 90
        while True:  # the other instance sees the same job, then serves the stored review
            answer = second.get(f"/api/tables/{table_id}/review")
            if answer.status_code == 200:
                break
            assert answer.status_code == 202 and time.monotonic() < deadline, answer.text
            seen.add(answer.json()["status"])
            time.sleep(0.1)
        assert seen <= {"queued", "running"}
        assert answer.json()["review"]["format"] == "ghostparty-review/1"
        assert first.get(f"/api/tables/{table_id}/review").json() == answer.json()
        reviewer = first.app.state.parts.reviewer  # type: ignore[attr-defined]
        assert reviewer.queue.count == 0 and len(reviewer.queue.finished_job_registry) == 1


def test_a_deep_review_is_a_job_of_its_own_on_the_queue_stored_beside_the_review(
    sqlite_url: str, queue_name: str
) -> None:
    from ghostparty.server.reviews.queue import job_id

    deep = {**CHEAP, "deep": {"rollouts": 2, "cut": 1, "width": 2}}
    with instance(sqlite_url, queue_name, seed=1, settings=deep) as first:
        table_id = finished_game(first)
        assert first.get(f"/api/tables/{table_id}/review?judge=deep").status_code == 202
        reviewer = first.app.state.parts.reviewer  # type: ignore[attr-defined]
        assert job_id(table_id, "deep") == f"deep-review-{table_id}" != job_id(table_id)
        deadline = time.monotonic() + 90
        while (answer := first.get(f"/api/tables/{table_id}/review?judge=deep")).status_code != 200:
            assert answer.status_code == 202 and time.monotonic() < deadline, answer.text
            time.sleep(0.1)
        assert answer.json()["review"]["judge"] == "deep"
        assert reviewer.store.review(table_id) is None and reviewer.store.review(table_id, "deep") is not None


def review_running(client: TestClient) -> tuple[str, Any]:
    """A finished game whose full review was asked for and is running now; the reviewer."""
    table_id = finished_game(client)
    reviewer = client.app.state.parts.reviewer  # type: ignore[attr-defined]
    assert client.get(f"/api/tables/{table_id}/review").status_code == 202
    deadline = time.monotonic() + 60
    while (status := reviewer.status(table_id)) is None or status["status"] != "running":
        assert time.monotonic() < deadline, "the job never ran"
        time.sleep(0.05)
    return table_id, reviewer


def test_a_job_lost_with_its_worker_is_taken_by_another(sqlite_url: str, queue_name: str) -> None:
    from rq.registry import StartedJobRegistry

    from ghostparty.server.reviews.queue import job_id

    full = {"depth": 3, "horizon": 3}  # a review of many seconds: time to kill it under way
    with instance(sqlite_url, queue_name, seed=3, settings=full) as first:
        table_id, reviewer = review_running(first)
        horses = [horse for process in reviewer._processes for horse in _children(process.pid)]
        for process in reviewer._processes:  # the instance's worker dies, its work horse with it
            os.killpg(process.pid, signal.SIGKILL)
            process.join(5)
        reviewer._processes.clear()
        assert all(_gone(horse, within=3) for horse in horses)  # nothing works on the job any more
        # rq sees the job lost once its heartbeat is over (60 s on): here, a clean-up as of then.
        registry = StartedJobRegistry(queue=reviewer.queue)
        registry.cleanup(timestamp=time.time() + 300)
        assert (
            reviewer.status(table_id) is not None
            and reviewer.queue.fetch_job(job_id(table_id)).get_status() == "queued"
        )
        with instance(sqlite_url, queue_name, seed=4, settings=full) as second:  # another instance's worker
            second.app.state.parts.reviewer.start_workers()  # type: ignore[attr-defined]  # it queues nothing itself
            deadline = time.monotonic() + 120
            while (answer := second.get(f"/api/tables/{table_id}/review")).status_code != 200:
                assert time.monotonic() < deadline, answer.text
                time.sleep(0.2)
        assert answer.json()["review"]["players"] == 2


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from ``/proc``)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry))
    return found


def _gone(pid: int, within: float) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except OSError:
            return True
        time.sleep(0.05)
    return False


def _sleeper(parent: int, group: bool) -> None:
    from ghostparty.server.reviews.queue import die_with

    if group:
        os.setpgrp()
    die_with(parent, group=group)
    time.sleep(60)


@pytest.mark.parametrize("group", [False, True])
def test_a_process_told_of_a_parent_already_dead_dies_at_once(group: bool) -> None:
    """The instance's pid is handed to its worker: read in the worker, it would be init's
    if the instance died while the worker started, and the worker would live on."""
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    gone = context.Process(target=time.sleep, args=(0,))
    gone.start()
    gone.join()
    orphan = context.Process(target=_sleeper, args=(gone.pid, group))
    orphan.start()
    orphan.join(10)
    assert orphan.exitcode == -signal.SIGKILL


def test_a_work_horse_dies_with_its_worker(sqlite_url: str, queue_name: str) -> None:
    """rq forks a work horse per job in a process group of its own: killing its worker (or
    the worker's group) used to leave it running the job, an orphan."""
    full = {"depth": 3, "horizon": 3}  # a review of many seconds: time to kill it under way
    with instance(sqlite_url, queue_name, seed=5, settings=full) as first:
        table_id, reviewer = review_running(first)
        (worker,) = reviewer._processes
        horses = _children(worker.pid)
        assert horses, "the running job has no work horse"
        os.kill(worker.pid, signal.SIGKILL)  # the worker alone, not its group
        worker.join(5)
        reviewer._processes.clear()
        assert all(_gone(horse, within=3) for horse in horses), f"work horses {horses} outlived their worker"
        time.sleep(1)
        assert reviewer.status(table_id) is not None  # lost under way: not finished by a horse left behind


def test_a_worker_started_while_redis_is_away_waits_for_it_and_then_works(tmp_path: Any, queue_name: str) -> None:
    """Redis restarting as an instance starts its worker must not kill the worker (it
    died with a traceback in rq's start-up, which retries nothing): it waits, then joins."""
    import multiprocessing
    import shutil
    import subprocess

    from redis import Redis
    from rq import Worker

    from ghostparty.server.reviews.queue import run_worker
    from tests.fixtures.serving import free_port

    server = shutil.which("redis-server") or (
        "/usr/bin/redis-server" if os.path.exists("/usr/bin/redis-server") else None
    )
    if server is None:
        pytest.skip("redis-server is not installed")
    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    process = multiprocessing.get_context("spawn").Process(target=run_worker, args=(url, queue_name))
    process.start()
    redis = None
    try:
        time.sleep(3.0)  # it has met the refused connection at least once
        assert process.is_alive(), f"the worker died while Redis was away (exit code {process.exitcode})"
        redis = subprocess.Popen(
            [server, "--port", str(port), "--save", "", "--appendonly", "no", "--dir", str(tmp_path)],
            stdout=subprocess.DEVNULL,
        )
        connection = Redis.from_url(url)
        deadline = time.monotonic() + 20
        while True:
            try:
                if Worker.all(connection=connection):
                    break
            except Exception:  # the server is still starting
                pass
            assert time.monotonic() < deadline, "the worker never registered once Redis was back"
            time.sleep(0.2)
        assert process.is_alive()
    finally:
        if process.is_alive():
            os.killpg(process.pid, signal.SIGKILL)  # the worker's own group (run_worker's setpgrp)
        process.join(5)
        if redis is not None:
            redis.kill()
            redis.wait(5)


class _PrivateRedis:
    """A ``redis-server`` of the test's own on a free port, stopped and started at will."""

    def __init__(self, folder: Any) -> None:
        import shutil

        from tests.fixtures.serving import free_port

        self.program = shutil.which("redis-server") or (
            "/usr/bin/redis-server" if os.path.exists("/usr/bin/redis-server") else None
        )
        if self.program is None:
            pytest.skip("redis-server is not installed")
        self.folder, self.port = folder, free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: Any = None

    def start(self) -> None:
        import subprocess

        from redis import Redis

        command = [
            self.program,
            "--port",
            str(self.port),
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(self.folder),
        ]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                Redis.from_url(self.url).ping()
                return
            except Exception:  # still starting
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.1)

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(5)
            self.process = None


def _worker_log(capfd: pytest.CaptureFixture[str]) -> str:
    out, err = capfd.readouterr()
    return out + err


def test_a_worker_rides_out_redis_restarting_under_a_job_and_while_it_waits(
    tmp_path: Any, queue_name: str, capfd: pytest.CaptureFixture[str]
) -> None:
    """Redis stops while a job runs (the worker, recording its end, found Redis away: rq
    quits there, with a traceback) and starts again empty; then stops again while the
    worker waits for jobs (rq logs an error each time it tries again). The worker works
    on, and tells each outage in one warning line."""
    import multiprocessing

    from redis import Redis
    from rq import Queue

    from ghostparty.server.reviews.queue import run_worker

    redis = _PrivateRedis(tmp_path)
    redis.start()
    process = multiprocessing.get_context("spawn").Process(target=run_worker, args=(redis.url, queue_name))
    process.start()
    try:
        queue = Queue(queue_name, connection=Redis.from_url(redis.url))
        sleeping = queue.enqueue(time.sleep, 3)
        deadline = time.monotonic() + 30
        while sleeping.get_status() != "started":
            assert time.monotonic() < deadline, "the job never started"
            time.sleep(0.1)
        redis.stop()
        time.sleep(5)  # the job ends meanwhile
        assert process.is_alive(), f"the worker quit while Redis was away:\n{_worker_log(capfd)}"
        redis.start()
        for outage in (False, True):
            queue = Queue(queue_name, connection=Redis.from_url(redis.url))  # (Redis came back empty)
            job = queue.enqueue(time.time)
            deadline = time.monotonic() + 30
            while job.get_status() != "finished":
                assert process.is_alive(), f"the worker quit:\n{_worker_log(capfd)}"
                assert time.monotonic() < deadline, (
                    f"the worker took no job after Redis came back:\n{_worker_log(capfd)}"
                )
                time.sleep(0.1)
            if not outage:
                redis.stop()  # while it waits for jobs
                time.sleep(3)
                redis.start()
    finally:
        if process.is_alive():
            os.killpg(process.pid, signal.SIGKILL)
        process.join(5)
        redis.stop()
    log = _worker_log(capfd)
    assert "Traceback" not in log and "quitting" not in log and "ERROR" not in log, log
    warned = [line for line in log.splitlines() if "review worker: Redis is unavailable" in line]
    assert len(warned) == 2 and all(line.startswith("WARNING ") for line in warned), log
