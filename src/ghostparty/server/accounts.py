"""Accounts: register, log in and out, change the password, delete; sessions and CSRF.

Playing as a guest needs none of this: an account adds a name that is one's own, a
history and ratings. Passwords are hashed with Argon2id (``argon2-cffi``), in a worker
thread; a session is a random secret in an HttpOnly cookie, of which the database keeps
only the SHA-256, so a copy of the database opens no session. Every state-changing
request that relies on the cookie carries :meth:`Accounts.csrf` of the session in a
header (the page reads it from ``GET /api/account``, which another site's page can't).
Failed log-ins are counted per address and per account (:mod:`.throttle`); a failure
never says whether the name exists, and takes as long either way.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ghostparty.server.accounts_store import Player, Profile, SqlAccounts
from ghostparty.server.errors import ServiceError, in_thread
from ghostparty.server.lobby import hash_token
from ghostparty.server.model import now
from ghostparty.server.names import check_name, name_key
from ghostparty.server.ratings import LEADERBOARD_GAMES, Rating, shown
from ghostparty.server.throttle import PER_ACCOUNT, PER_ADDRESS, MemoryThrottle, Throttle

MIN_PASSWORD, MAX_PASSWORD = 8, 200
SESSION_DAYS = 30
#: Registrations per address and hour.
PER_ADDRESS_REGISTRATIONS = (10, 3600)
_BAD_LOGIN = "wrong name or password"


def check_password(password: object, name: str) -> str:
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ServiceError("weak_password", f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    if name_key(password) == name_key(name) or password.strip() == "":
        raise ServiceError("weak_password", "a password may not be the name")
    return password


def session_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Accounts:
    """Accounts over a :class:`~.accounts_store.SqlAccounts`.

    ``seats_changed`` is called with the ids of tables whose seats an account took
    over or left (their copies in memory are then read again and the change told).
    """

    def __init__(
        self,
        store: SqlAccounts,
        *,
        throttle: Throttle | None = None,
        hasher: PasswordHasher | None = None,
        clock: Callable[[], datetime] = now,
        seats_changed: Callable[[Sequence[str]], Awaitable[None]] | None = None,
    ) -> None:
        self.store = store
        self.throttle = throttle or MemoryThrottle()
        self.hasher = hasher or PasswordHasher()  # Argon2id, RFC 9106's second choice
        self.clock = clock
        self.seats_changed = seats_changed
        #: Rated games a player needs to be ranked on the leaderboard.
        self.min_games = LEADERBOARD_GAMES
        self._dummy_hash = self.hasher.hash(secrets.token_hex(16))

    async def register(self, name: object, password: object, address: str) -> tuple[Player, str]:
        """A new account and a session token for it."""
        name = check_name(name)
        check_password(password, name)
        assert isinstance(password, str)
        key = ("reg:" + address, PER_ADDRESS_REGISTRATIONS)
        if await self.throttle.wait([key]):
            raise ServiceError("rate_limited", "too many new accounts from this address: try again later", 429)
        hashed = await asyncio.to_thread(self.hasher.hash, password)
        player = await in_thread(self.store.create_player, name, name_key(name), hashed, self.clock())
        if player is None:
            raise ServiceError("name_taken", f"the name {name!r} (or one that reads like it) is taken", 409)
        await self.throttle.failed([key])  # counts registrations
        return player, await self._open_session(player)

    async def login(self, name: object, password: object, address: str) -> tuple[Player, str]:
        """A session token for the account, if the password is right."""
        key = name_key(name) if isinstance(name, str) and len(name) <= 64 else "?"
        keys = [("addr:" + address, PER_ADDRESS), ("acct:" + key, PER_ACCOUNT)]
        wait = await self.throttle.wait(keys)
        if wait:
            raise ServiceError("rate_limited", f"too many failed log-ins: try again in {int(wait) + 1} s", 429)
        player = await in_thread(self.store.player_by_key, key)
        if not isinstance(password, str) or len(password) > MAX_PASSWORD:
            password = ""
        stored = player.password_hash if player is not None and player.kind == "user" else None
        if not await asyncio.to_thread(self._verify, stored or self._dummy_hash, password) or stored is None:
            await self.throttle.failed(keys)
            raise ServiceError("bad_login", _BAD_LOGIN, 401)
        assert player is not None
        if self.hasher.check_needs_rehash(stored):
            await in_thread(self.store.set_password, player.id, await asyncio.to_thread(self.hasher.hash, password))
        return player, await self._open_session(player)

    async def session(self, token: str | None) -> Player | None:
        """The player of a session token, if it is a current session."""
        if not token or len(token) > 128:
            return None
        return await in_thread(self.store.session_player, session_hash(token), self.clock())

    async def logout(self, token: str) -> None:
        await in_thread(self.store.end_session, session_hash(token))

    async def change_password(self, player: Player, old: object, new: object) -> str:
        """Set a new password; every session of the account ends and a new one begins."""
        check_password(new, player.name)
        assert isinstance(new, str)
        await self._check(player, old)
        await in_thread(self.store.set_password, player.id, await asyncio.to_thread(self.hasher.hash, new))
        await in_thread(self.store.end_sessions, player.id)
        return await self._open_session(player)

    async def delete(self, player: Player, password: object) -> None:
        """Delete the account (its games stay, under a neutral name)."""
        await self._check(player, password)
        changed = await in_thread(self.store.delete_player, player.id)
        if self.seats_changed is not None and changed:
            await self.seats_changed(changed)

    async def link(self, player: Player, held: Sequence[tuple[str, int, str]]) -> list[tuple[str, int]]:
        """Make the guest seats whose tokens this browser holds the player's."""
        hashed = [(table, seat, hash_token(token)) for table, seat, token in held]
        linked = await in_thread(self.store.link_seats, player, hashed)
        if self.seats_changed is not None and linked:
            await self.seats_changed(sorted({table for table, _ in linked}))
        return linked

    async def profile(self, name: str, viewer: Player | None) -> Profile:
        if not isinstance(name, str) or not 1 <= len(name) <= 40:
            raise ServiceError("unknown_player", f"no player {name!r}", 404)
        key = f"bot:{name.removesuffix('-bot')}" if name.endswith("-bot") else name_key(name)
        own = viewer is not None and viewer.name.casefold() == name.casefold()
        found = await in_thread(self.store.profile, key, own=own)
        if found is None:
            raise ServiceError("unknown_player", f"no player {name!r}", 404)
        return found

    async def bot_player(self, level: str) -> int:
        """The player id of a bot level (for a rated table's bot seats)."""
        return await in_thread(self.store.bot_player, level, self.clock())

    async def shown_rating(self, player_id: int, rules: str) -> int:
        """A registered player's rating in ``rules`` as shown (for the rated queue)."""
        return shown((await in_thread(self.store.rating, player_id, rules)).mu)

    async def standing(self, player_id: int, rules: str) -> tuple[Rating, int]:
        """A registered player's rating in ``rules`` and their rated games in it."""
        return await in_thread(self.store.rating_and_games, player_id, rules)

    async def leaderboard(self, rules: str) -> list[tuple[int | None, str, str, Rating, int]]:
        """(player id, name, kind, rating, rated games) of the ranked players, best first."""
        return await in_thread(self.store.leaderboard, rules, self.min_games)

    @staticmethod
    def csrf(token: str) -> str:
        """The CSRF token of a session: derived from its secret, so nothing more is kept."""
        return hmac.new(token.encode(), b"ghostparty-csrf", hashlib.sha256).hexdigest()[:32]

    def csrf_ok(self, token: str, given: str | None) -> bool:
        return given is not None and hmac.compare_digest(self.csrf(token), given)

    async def _check(self, player: Player, password: object) -> None:
        keys = [("acct:" + name_key(player.name), PER_ACCOUNT)]
        if await self.throttle.wait(keys):
            raise ServiceError("rate_limited", "too many wrong passwords: try again later", 429)
        stored = (await in_thread(self.store.player_by_key, name_key(player.name)) or player).password_hash
        if not isinstance(password, str) or not stored or not await asyncio.to_thread(self._verify, stored, password):
            await self.throttle.failed(keys)
            raise ServiceError("bad_login", "wrong password", 401)

    def _verify(self, stored: str, password: str) -> bool:
        try:
            return self.hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False

    async def _open_session(self, player: Player) -> str:
        token = secrets.token_urlsafe(32)
        created = self.clock()
        await in_thread(
            self.store.create_session, session_hash(token), player.id, created, created + timedelta(days=SESSION_DAYS)
        )
        return token
