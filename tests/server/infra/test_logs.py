"""Log records as JSON lines (``serve --log-format json``)."""

from __future__ import annotations

import json
import logging

import pytest

from ghostparty.server.infra.logs import JsonFormatter, Sparse


def record(name: str, message: str, args: object, **extra: object) -> logging.LogRecord:
    made = logging.getLogger(name).makeRecord(name, logging.WARNING, __file__, 1, message, args, None, extra=extra)
    return made


def test_a_record_is_one_line_with_its_extra_fields() -> None:
    line = JsonFormatter().format(record("ghostparty.server", "table %s closed: %s", ("t1", "spam"), table="t1"))
    assert "\n" not in line
    entry = json.loads(line)
    assert entry["level"] == "warning" and entry["logger"] == "ghostparty.server"
    assert entry["message"] == "table t1 closed: spam"
    assert entry["table"] == "t1"
    assert entry["time"].endswith("Z") and "T" in entry["time"]


def test_an_access_line_carries_its_fields() -> None:
    args = ("10.0.0.5:5123", "GET", "/api/bots", "1.1", 200)
    entry = json.loads(JsonFormatter().format(record("uvicorn.access", '%s - "%s %s HTTP/%s" %d', args)))
    assert entry["client"] == "10.0.0.5:5123" and entry["path"] == "/api/bots" and entry["status"] == 200


def test_an_exception_keeps_its_traceback_and_odd_values_are_text() -> None:
    try:
        raise ValueError("boom\nsecond line")
    except ValueError:
        made = logging.getLogger("x").makeRecord(
            "x",
            logging.ERROR,
            __file__,
            1,
            "failed",
            None,
            exc_info=__import__("sys").exc_info(),
            extra={"o": object()},
        )
    line = JsonFormatter().format(made)
    assert "\n" not in line
    entry = json.loads(line)
    assert "ValueError: boom" in entry["exception"] and entry["o"].startswith("<object")


def test_sparse_warnings_come_once_each_period_with_a_count(caplog: pytest.LogCaptureFixture) -> None:
    now = [100.0]
    sparse = Sparse(logging.getLogger("ghostparty.test"), every=10.0, clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger="ghostparty.test"):
        for _ in range(50):
            sparse.warning("publish", "publishing failed: %s", "gone")
            now[0] += 0.1
        sparse.warning("read", "reading failed")  # another kind is its own
        now[0] += 6
        sparse.warning("publish", "publishing failed: %s", "gone")
    messages = [r.getMessage() for r in caplog.records]
    assert messages == [
        "publishing failed: gone",
        "reading failed",
        "publishing failed: gone (and 49 more like it in the last 11 s)",
    ]
