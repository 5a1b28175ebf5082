"""The store's database engine, with every wait on the database bounded.

A database that stops answering while its connections stay open (a network partition,
a stopped VM) must not hang requests: each wait has a limit, and a call that reaches
one fails like any dropped connection (:class:`~ghostparty.server.common.errors.StoreUnavailable`, 503
``unavailable``), after which the pool drops that database's connections and the next
call connects afresh. For PostgreSQL:

* connecting: :data:`CONNECT_TIMEOUT` (2 s, the least libpq takes);
* a statement: :data:`STATEMENT_TIMEOUT` (2 s, ``statement_timeout``, set on each new
  connection): a slow server cancels the statement itself and the connection stays usable;
* a connection lent from the pool: :data:`OPERATION_TIMEOUT` (3 s) from checkout to its
  return, kept by :class:`Watchdog`, which shuts the socket of one held longer. This is the
  bound when nothing comes back at all (the server's ``statement_timeout`` can't answer
  either);
* a free connection: :data:`POOL_TIMEOUT` (2 s) when all of them are lent out;
* the network: TCP keepalives notice a dead peer of an idle connection within about 16 s,
  and data unacknowledged for :data:`TCP_USER_TIMEOUT_MS` (5 s) drops the connection.

Once a call has run into the operation or the connect timeout, the database is taken
to be silent (a circuit breaker, open): for :data:`PROBE_GAP` (0.5 s) every call fails at
once, without a connection (so that the calls that waited behind it, the writer's turn,
don't each wait for a timeout in turn, and worker threads aren't held); then one call at
a time connects afresh to try it (the probe, half-open) while the others fail at once.
The first probe that gets an answer closes the circuit: that call, and every one after
it, goes through. So a call answers within 3 s on a connection already open, within 2 s
when it connects, 2 s more if it first waits for a free connection, at once while
another call probes a silent database, and the first call half a second or more after
the last timeout, once the database answers again, succeeds.

SQLite waits :data:`SQLITE_BUSY_TIMEOUT` (5 s) for another process's write lock (within
one process its writers take turns and never wait for it).
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.exc import DisconnectionError

from ghostparty.server.infra.rows import sqlite_pragmas

#: Seconds to connect to PostgreSQL (libpq counts whole seconds, at least 2).
CONNECT_TIMEOUT = 2
#: Seconds a statement may run on the server.
STATEMENT_TIMEOUT = 2.0
#: Seconds a connection may be lent out of the pool (a call's statements, its commit).
OPERATION_TIMEOUT = 3.0
#: Seconds to wait for a free connection of the pool.
POOL_TIMEOUT = 2.0
#: Milliseconds that sent data may stay unacknowledged before the kernel drops the connection.
TCP_USER_TIMEOUT_MS = 5000
#: TCP keepalives: idle seconds before the first probe, seconds between probes, probes.
KEEPALIVES = (10, 2, 3)
#: Seconds after a call ran into a timeout before another tries the database.
PROBE_GAP = 0.5
#: Seconds SQLite waits for another process's write lock.
SQLITE_BUSY_TIMEOUT = 5.0


def make_engine(url: str, *, echo: bool = False) -> tuple[Engine, Watchdog | None]:
    """An engine on ``url`` (with its driver named) with the timeouts above, and the
    :class:`Watchdog` of its connections (``None`` for SQLite), not yet started: start
    it once the long statements of opening the store (migrations) are done."""
    kwargs: dict[str, Any] = {"echo": echo}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": SQLITE_BUSY_TIMEOUT}
        engine = create_engine(url, **kwargs)
        event.listen(engine, "connect", sqlite_pragmas)
        return engine, None
    # No ping before each use (a round trip per save): a connection that turns out dead
    # fails its call (StoreUnavailable), and the pool then drops every connection of that
    # database, so the next call connects afresh.
    kwargs["pool_size"] = 10
    kwargs["pool_timeout"] = POOL_TIMEOUT
    if url.startswith("postgresql"):
        idle, interval, count = KEEPALIVES
        kwargs["connect_args"] = {
            "connect_timeout": CONNECT_TIMEOUT,
            "keepalives": 1,
            "keepalives_idle": idle,
            "keepalives_interval": interval,
            "keepalives_count": count,
            "tcp_user_timeout": TCP_USER_TIMEOUT_MS,
        }
    engine = create_engine(url, **kwargs)
    if engine.dialect.name != "postgresql":
        return engine, None
    event.listen(engine, "connect", _statement_timeout)
    watchdog = Watchdog(OPERATION_TIMEOUT)
    watchdog.watch(engine)
    return engine, watchdog


def without_statement_timeout(conn: Connection) -> None:
    """No ``statement_timeout`` for the rest of ``conn``'s transaction (PostgreSQL's
    migrations, and waiting for another instance's)."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SET LOCAL statement_timeout = 0"))


def _statement_timeout(dbapi_connection: Any, _record: Any) -> None:
    autocommit = dbapi_connection.autocommit
    dbapi_connection.autocommit = True
    try:
        dbapi_connection.execute(f"SET statement_timeout = {int(STATEMENT_TIMEOUT * 1000)}")
    finally:
        dbapi_connection.autocommit = autocommit


def _shut(fd: int) -> None:
    """Shut the socket ``fd`` both ways: a call blocked on it fails at once."""
    with contextlib.suppress(OSError), socket.socket(fileno=socket.dup(fd)) as sock:
        sock.shutdown(socket.SHUT_RDWR)


class Watchdog:
    """Shuts the socket of any connection lent out of an engine's pool for longer than
    ``limit`` seconds: the call on it then fails (the driver reads the end of the
    stream) instead of waiting for an answer that may never come. After that, or a
    connection attempt that timed out, the database is *silent* until a connection
    attempt gets an answer: a checkout then drops its pooled connection (likely held
    too) and connects, one such attempt at a time (the probe); the others fail at once.

    One thread for the engine; lending and returning a connection cost a lock and a dict
    entry. ``shut`` and ``clock`` are for tests.
    """

    def __init__(
        self,
        limit: float,
        *,
        shut: Callable[[int], None] = _shut,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit = limit
        #: How many connections were shut.
        self.fired = 0
        self._shut = shut
        self._clock = clock
        self._armed: dict[int, tuple[float, int]] = {}
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False
        #: Whether the database is taken to be silent (the circuit open), and whether a
        #: connection attempt is trying it now (the probe).
        self._silent = False
        self._probing = False
        #: When (``clock``) a call may try a silent database next.
        self._next_probe = 0.0
        self._circuit = threading.Lock()
        self._error: type[Exception] = ConnectionError

    def watch(self, engine: Engine) -> None:
        """Arm on each checkout of ``engine``'s pool, disarm on each return (or loss);
        while the database is silent, drop pooled connections at checkout and let one
        connection attempt at a time try it."""
        self._error = engine.dialect.loaded_dbapi.OperationalError
        event.listen(engine, "do_connect", self._connect)
        event.listen(engine, "checkout", self._checkout)
        event.listen(engine, "reset", self._reset)
        event.listen(engine, "invalidate", self._invalidated)
        event.listen(engine, "soft_invalidate", self._invalidated)
        for name in ("checkin", "close", "detach"):
            event.listen(engine, name, self._returned)

    def start(self) -> None:
        """From now on, shut connections held too long."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="db-watchdog", daemon=True)
            self._thread.start()

    def close(self) -> None:
        with self._wake:
            self._closed = True
            self._armed.clear()
            self._wake.notify()
        if self._thread is not None:
            self._thread.join(5)

    @property
    def silent(self) -> bool:
        """Whether a call ran into a timeout and no connection attempt got an answer since."""
        return self._silent

    def trip(self) -> None:
        """The database is silent: one connection attempt at a time tries it, until one is
        answered, none for :data:`PROBE_GAP` from now."""
        with self._circuit:
            self._silent = True
            self._next_probe = self._clock() + PROBE_GAP

    def arm(self, key: int, fd: int) -> None:
        """Shut ``fd`` unless :meth:`disarm` comes within the limit."""
        if self._thread is None:
            return
        with self._wake:
            if self._closed:
                return
            self._armed[key] = (self._clock() + self.limit, fd)
            if len(self._armed) == 1:  # the thread sleeps until told: the others are all later
                self._wake.notify()

    def disarm(self, key: int) -> None:
        if key in self._armed:
            with self._wake:
                self._armed.pop(key, None)

    def _refuse(self) -> Exception:
        return self._error(
            f"the database answered nothing within {self.limit:g} s: one call at a time tries it again, not this one"
        )

    def _connect(self, dialect: Any, _record: Any, cargs: list[Any], cparams: dict[str, Any]) -> Any:
        with self._circuit:
            probe = self._silent
            if probe:
                if self._probing or self._clock() < self._next_probe:
                    raise self._refuse()
                self._probing = True
        answered = False
        try:
            connection = dialect.connect(*cargs, **cparams)
        except Exception as error:
            answered = not ("timeout" in type(error).__name__.lower() or "timeout expired" in str(error))
            if not answered:
                self.trip()
            raise
        else:
            answered = True
            return connection
        finally:
            self._ended(probe, answered)

    def _ended(self, probe: bool, answered: bool) -> None:
        """A connection attempt ended: one the database answered (if only to refuse it)
        closes the circuit; a probe's end lets the next call try."""
        with self._circuit:
            if answered and (probe or not self._probing):
                self._silent = False
            if probe:
                self._probing = False

    def _checkout(self, dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        if self.silent:  # this connection is likely held too: drop it and connect (the probe, or refused)
            raise DisconnectionError("the database is silent")
        pgconn = getattr(dbapi_connection, "pgconn", None)
        if pgconn is not None:
            self.arm(id(record), pgconn.socket)

    def _returned(self, _dbapi_connection: Any, record: Any) -> None:
        self.disarm(id(record))

    def _reset(self, _dbapi_connection: Any, record: Any, _state: Any) -> None:
        self.disarm(id(record))

    def _invalidated(self, _dbapi_connection: Any, record: Any, _error: Any) -> None:
        self.disarm(id(record))

    def _run(self) -> None:
        with self._wake:
            while not self._closed:
                if not self._armed:
                    self._wake.wait()
                    continue
                key, (deadline, fd) = min(self._armed.items(), key=lambda item: item[1][0])
                wait = deadline - self._clock()
                if wait > 0:
                    self._wake.wait(wait)
                    continue
                del self._armed[key]
                self.fired += 1
                self.trip()
                self._shut(fd)


def database_url(url: str) -> str:
    """``url`` with the driver this package installs named (psycopg 3 for PostgreSQL)."""
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url
