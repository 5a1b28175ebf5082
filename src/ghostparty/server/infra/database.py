"""One SQL database as every store on it shares it: the engine and the writers' turn.

The composition root (:mod:`ghostparty.server.wiring`) opens one :class:`Database` from
its URL (:meth:`Database.open`: the engine with every wait bounded, migrated); the
tables' store (:class:`~ghostparty.server.tables.store.SqlTables`) and each domain's
store (``SqlAccounts(database)``, ``SqlTournaments(database)``, …) are then made on it.
"""

from __future__ import annotations

import contextlib
import threading
import time
from typing import Any

from sqlalchemy import Engine, text

from ghostparty.server.infra.db import migrate
from ghostparty.server.infra.engine import Watchdog, database_url, make_engine, without_statement_timeout

#: Seconds :meth:`Database.close` waits for connections still lent out.
CLOSE_WAIT = 5.0


class Database:
    """An engine and its writers' turn: SQLite lets one writer in at a time and makes the
    others sleep and retry, so its writers take turns here instead (short, fair waits);
    other databases lock rows, and their turn is no turn at all."""

    def __init__(
        self,
        engine: Engine,
        writing: contextlib.AbstractContextManager[Any] | None = None,
        *,
        url: str | None = None,
        watchdog: Watchdog | None = None,
    ) -> None:
        self.engine = engine
        #: The URL with its driver, which other processes open (the review queue's workers).
        self.url = url if url is not None else engine.url.render_as_string(hide_password=False)
        #: True for a SQLite file: a call is quick local work, made on the event loop.
        self.embedded = self.url.startswith("sqlite")
        sqlite = engine.dialect.name == "sqlite"
        self.writing: contextlib.AbstractContextManager[Any] = (
            writing if writing is not None else threading.Lock() if sqlite else contextlib.nullcontext()
        )
        self._watchdog = watchdog

    @classmethod
    def open(cls, url: str, *, echo: bool = False) -> Database:
        """The database at ``url`` (any SQLAlchemy URL), its schema migrated to this version."""
        url = database_url(url)
        # Every wait on the database bounded (engine.py): a silent database answers
        # StoreUnavailable within seconds instead of hanging the call.
        engine, watchdog = make_engine(url, echo=echo)
        with engine.begin() as conn:
            without_statement_timeout(conn)  # waiting for another instance's migrations may take long
            if engine.dialect.name == "postgresql":  # instances starting together take turns
                conn.execute(text("SELECT pg_advisory_xact_lock(7412019)"))
            migrate(conn)
        if watchdog is not None:
            watchdog.start()
        return cls(engine, url=url, watchdog=watchdog)

    def close(self) -> None:
        """Close every connection, once the calls still running in worker threads (a
        cancelled task's call runs on) have given theirs back, for at most
        :data:`CLOSE_WAIT` seconds: one given back to a disposed pool would never be
        closed (psycopg's ``ResourceWarning`` when it is collected)."""
        deadline = time.monotonic() + CLOSE_WAIT
        checked_out = getattr(self.engine.pool, "checkedout", lambda: 0)
        while checked_out() and time.monotonic() < deadline:
            time.sleep(0.01)
        if self._watchdog is not None:
            self._watchdog.close()
        self.engine.dispose()
