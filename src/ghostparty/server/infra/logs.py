"""The server's logs as JSON lines (``ghostparty serve --log-format json``).

One object per line: ``time`` (UTC, ISO 8601, milliseconds), ``level``, ``logger``,
``message``, then every extra field the call gave (``log.warning(…, extra={"table": …})``),
``exception`` with its traceback if any. uvicorn's access log lines carry ``client``,
``method``, ``path``, ``http_version`` and ``status`` as fields too, so a log
collector (journald, Loki, …) can filter on them without parsing text.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

#: The attributes every log record has: whatever else it carries came as ``extra``.
_STANDARD = frozenset(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {
    "message",
    "asctime",
    "color_message",  # uvicorn's coloured copy of the message
    "taskName",
}
_ACCESS = ("client", "method", "path", "http_version", "status")


class JsonFormatter(logging.Formatter):
    """A log record as one line of JSON."""

    def format(self, record: logging.LogRecord) -> str:
        moment = datetime.fromtimestamp(record.created, UTC)
        entry: dict[str, Any] = {
            "time": moment.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.name == "uvicorn.access" and isinstance(record.args, tuple) and len(record.args) == len(_ACCESS):
            entry.update(zip(_ACCESS, record.args, strict=True))
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_") and key not in entry:
                entry[key] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


def json_log_config(level: str) -> dict[str, Any]:
    """uvicorn's ``log_config`` for JSON lines: its own loggers and Ghost Party's at
    ``level`` on standard error, the access log on standard output (as uvicorn's own)."""
    formatter = f"{__name__}.JsonFormatter"

    def handler(stream: str) -> dict[str, str]:
        return {"class": "logging.StreamHandler", "formatter": "json", "stream": f"ext://sys.{stream}"}

    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": formatter}},
        "handlers": {"default": handler("stderr"), "access": handler("stdout")},
        "loggers": {
            "uvicorn": {"handlers": ["default"], "level": "INFO", "propagate": False},
            "uvicorn.error": {"level": "INFO"},
            "uvicorn.access": {"handlers": ["access"], "level": "INFO", "propagate": False},
            "ghostparty": {"handlers": ["default"], "level": level.upper(), "propagate": False},
        },
    }


class Sparse:
    """Warnings that would come once an action while a service is away (Redis: every
    publish, every presence read), logged at most once each ``every`` seconds per kind,
    saying how many like it were left out since."""

    def __init__(self, logger: logging.Logger, every: float = 10.0, clock: Callable[[], float] = time.monotonic):
        self.logger, self.every, self.clock = logger, every, clock
        #: kind -> (when last logged, how many left out since)
        self._last: dict[str, tuple[float, int]] = {}

    def warning(self, kind: str, message: str, *args: object) -> None:
        now = self.clock()
        last, left_out = self._last.get(kind, (-self.every, 0))
        if now - last < self.every:
            self._last[kind] = (last, left_out + 1)
            return
        if left_out:
            message += f" (and {left_out} more like it in the last {now - last:.0f} s)"
        self._last[kind] = (now, 0)
        self.logger.warning(message, *args)
