"""Passwords: which may be chosen, and hashing them without stalling the server.

Argon2id is meant to be costly: each hash takes tens of milliseconds of a core and
64 MiB. Run without a bound, a burst of log-ins fills every worker thread (the store's
calls wait behind them) and every core: 40 log-ins at once once took up to 80 s each.
:class:`Hashing` runs hashes on threads of its own, at most one per core but one, lets
a few more wait, and refuses the rest at once (429 with how long to wait), so that a
burst costs only its own senders time.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from zxcvbn import zxcvbn

from ghostparty.server.common.errors import ErrorCode, RateLimited, ServiceError
from ghostparty.server.common.names import name_key

MIN_PASSWORD, MAX_PASSWORD = 8, 200
#: zxcvbn's scores below this are refused: 0 and 1 are guessed within a million tries.
MIN_SCORE = 2

R = TypeVar("R")


def check_password(password: object, name: str) -> str:
    """``password`` if it may be ``name``'s, else ``weak_password`` saying why.

    Refused: too short or long, the name itself (spaces, case and look-alike letters
    aside), and what zxcvbn estimates to fall within a million guesses — its lists of
    the most common passwords, words and names, keyboard runs, dates and repeats.
    """
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ServiceError(ErrorCode.WEAK_PASSWORD, f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    stripped = password.strip()
    if not stripped or name_key(stripped) == name_key(name) or "".join(stripped.split()).casefold() == name.casefold():
        raise ServiceError(ErrorCode.WEAK_PASSWORD, "a password may not be the name")
    found = zxcvbn(password[:100], user_inputs=[name])
    if found["score"] < MIN_SCORE:
        warning = found["feedback"]["warning"] or "It is among the first million a guesser tries."
        raise ServiceError(
            ErrorCode.WEAK_PASSWORD, f"this password is too easy to guess. {warning} Try a few unusual words."
        )
    return password


def hashing_threads() -> int:
    """Hashes run at once: one a core, leaving one core for everything else."""
    return max(1, (os.cpu_count() or 2) - 1)


class Hashing:
    """Argon2id hashing on ``threads`` threads of its own; up to ``waiting`` more hashes
    wait their turn, and beyond that a request is refused at once (429)."""

    def __init__(self, hasher: PasswordHasher | None = None, *, threads: int | None = None, waiting: int | None = None):
        self.hasher = hasher or PasswordHasher()  # Argon2id, RFC 9106's second choice
        self.threads = threads or hashing_threads()
        self.most = self.threads + (waiting if waiting is not None else 16 * self.threads)
        self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="argon2")
        self._busy = 0
        #: Seconds one hash took last (for the wait told to the refused).
        self.seconds = 0.1
        self._dummy = self.hasher.hash(secrets.token_hex(16))

    async def _run(self, call: Callable[[], R]) -> R:
        if self._busy >= self.most:
            raise RateLimited("many people are logging in at once", self.seconds * self._busy / self.threads)
        self._busy += 1
        try:
            loop = asyncio.get_running_loop()
            started = loop.time()
            result = await loop.run_in_executor(self._pool, call)
            self.seconds = 0.8 * self.seconds + 0.2 * (loop.time() - started)
            return result
        finally:
            self._busy -= 1

    async def hash(self, password: str) -> str:
        return await self._run(lambda: self.hasher.hash(password))

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` is ``stored``'s; as long without a hash (``None``)."""

        def check() -> bool:
            try:
                return self.hasher.verify(stored or self._dummy, password) and stored is not None
            except (VerificationError, InvalidHashError):
                return False

        return await self._run(check)

    def needs_rehash(self, stored: str) -> bool:
        return self.hasher.check_needs_rehash(stored)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
