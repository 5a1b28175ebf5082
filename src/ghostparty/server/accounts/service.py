"""Accounts: register, log in and out, change the password, delete; sessions and CSRF.

Playing as a guest needs none of this: an account adds a name that is one's own, a
history and ratings. Passwords are hashed with Argon2id (``argon2-cffi``) on threads of
their own, a bounded number at once (:mod:`ghostparty.server.accounts.passwords`); a session is a random secret in
an HttpOnly cookie, of which the database keeps only the SHA-256, so a copy of the
database opens no session. Every state-changing request that relies on the cookie
carries :meth:`Accounts.csrf` of the session in a header (the page reads it from
``GET /api/account``, which another site's page can't).

Log-in attempts are counted before the password is checked (:mod:`ghostparty.server.infra.limits`), so guesses
sent at once are counted too: per account and address (:data:`PER_PAIR`), per address
(:data:`PER_ADDRESS`) and, more slowly, per account from everywhere
(:data:`PER_ACCOUNT`); a right password gives its attempt back. So a stranger's guesses
lock out only the stranger's address, and the owner elsewhere only after many. A
logged-in player's password checks (to change it, to delete the account) are counted
per session, never against the log-in counts. A failure never says whether the name
exists, and takes as long either way.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta

from ghostparty.server.accounts.passwords import MAX_PASSWORD, Hashing, check_password
from ghostparty.server.accounts.store import AccountStore, Player, Profile
from ghostparty.server.common.errors import ErrorCode, RateLimited, ServiceError, in_thread
from ghostparty.server.common.model import now
from ghostparty.server.common.names import check_name, name_key
from ghostparty.server.common.ratings import LEADERBOARD_GAMES, Rating, shown
from ghostparty.server.infra.limits import Limit, Limiter, MemoryLimiter, Use, take_or_refuse
from ghostparty.server.tables.lobby import hash_token
from ghostparty.server.tables.standings import Reliability

SESSION_DAYS = 30
#: Failed log-ins to one account from one address.
PER_PAIR = Limit(5, 900, "too many failed log-ins to this account from here")
#: Failed log-ins from one address, to any accounts.
PER_ADDRESS = Limit(20, 900, "too many failed log-ins from this address")
#: Failed log-ins to one account from anywhere: a slower back-off against many addresses.
PER_ACCOUNT = Limit(50, 3600, "too many failed log-ins to this account")
#: Wrong passwords given by one session (to change the password or delete the account).
PER_SESSION = Limit(5, 900, "too many wrong passwords")
#: New accounts from one address.
REGISTRATIONS = Limit(10, 3600, "too many new accounts from this address")
_BAD_LOGIN = "wrong name or password"


def session_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


#: Seconds a guest-name check's answer is kept (:meth:`Accounts.named`).
NAMED_FOR = 10.0


class Accounts:
    """Accounts over an :class:`~ghostparty.server.accounts.store.AccountStore` (SQL or in memory).

    ``seats_changed`` is called with the ids of tables whose seats an account took
    over or left (their copies in memory are then read again and the change told).
    """

    def __init__(
        self,
        store: AccountStore,
        *,
        limiter: Limiter | None = None,
        hashing: Hashing | None = None,
        clock: Callable[[], datetime] = now,
        seats_changed: Callable[[Sequence[str]], Awaitable[None]] | None = None,
    ) -> None:
        self.store = store
        self.limiter = limiter or MemoryLimiter()
        self.hashing = hashing or Hashing()
        self.clock = clock
        self.seats_changed = seats_changed
        #: :meth:`named`'s recent answers: (when, whether an account has the name).
        self._named: dict[str, tuple[float, bool]] = {}
        #: Rated games a player needs to be ranked on the leaderboard.
        self.min_games = LEADERBOARD_GAMES

    async def register(self, name: object, password: object, address: str) -> tuple[Player, str]:
        """A new account and a session token for it."""
        name = check_name(name)
        check_password(password, name)
        assert isinstance(password, str)
        uses: list[Use] = [("register:" + address, REGISTRATIONS)]
        await take_or_refuse(self.limiter, uses)
        try:
            hashed = await self.hashing.hash(password)
            player = await in_thread(self.store.create_player, name, name_key(name), hashed, self.clock())
        except ServiceError:
            await self.limiter.give_back(uses)
            raise
        if player is None:
            await self.limiter.give_back(uses)
            raise ServiceError(ErrorCode.NAME_TAKEN, f"the name {name!r} (or one that reads like it) is taken")
        self._named.clear()  # the new name is no guest's from now on, on this instance
        return player, await self._open_session(player)

    async def login(self, name: object, password: object, address: str) -> tuple[Player, str]:
        """A session token for the account, if the password is right.

        The attempt is counted before the password is checked, and given back if it is right.
        """
        key = name_key(name) if isinstance(name, str) and len(name) <= 64 else "?"
        uses: list[Use] = [
            (f"login:{key}|{address}", PER_PAIR),
            ("login-address:" + address, PER_ADDRESS),
            ("login-account:" + key, PER_ACCOUNT),
        ]
        await take_or_refuse(self.limiter, uses)
        if not isinstance(password, str) or len(password) > MAX_PASSWORD:
            password = ""
        try:
            player = await in_thread(self.store.player_by_key, key)
            stored = player.password_hash if player is not None and player.kind == "user" else None
            right = await self.hashing.verify(stored, password)
        except RateLimited:  # the hashing was too busy to check: not an attempt
            await self.limiter.give_back(uses)
            raise
        if not right or player is None or stored is None:
            raise ServiceError(ErrorCode.BAD_LOGIN, _BAD_LOGIN)
        await self.limiter.give_back(uses)
        if self.hashing.needs_rehash(stored):
            await in_thread(self.store.set_password, player.id, await self.hashing.hash(password))
        return player, await self._open_session(player)

    async def session(self, token: str | None) -> Player | None:
        """The player of a session token, if it is a current session."""
        if not token or len(token) > 128:
            return None
        return await in_thread(self.store.session_player, session_hash(token), self.clock())

    async def logout(self, token: str) -> None:
        await in_thread(self.store.end_session, session_hash(token))

    async def change_password(self, player: Player, session: str, old: object, new: object) -> str:
        """Set a new password; every session of the account ends and a new one begins."""
        check_password(new, player.name)
        assert isinstance(new, str)
        await self._check(player, session, old)
        await in_thread(self.store.set_password, player.id, await self.hashing.hash(new))
        await in_thread(self.store.end_sessions, player.id)
        return await self._open_session(player)

    async def hashed_new_password(self, name: str, password: object) -> str:
        """The hash of a new password for the account ``name``, once it passes the checks."""
        check_password(password, name)
        assert isinstance(password, str)
        return await self.hashing.hash(password)

    async def reset_password(self, player_id: int, hashed: str) -> None:
        """Set a password hashed by :meth:`hashed_new_password` (a reset link): every session ends."""
        await in_thread(self.store.set_password, player_id, hashed)
        await in_thread(self.store.end_sessions, player_id)

    async def delete(self, player: Player, session: str, password: object) -> None:
        """Delete the account (its games stay, under a neutral name)."""
        await self._check(player, session, password)
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
            raise ServiceError(ErrorCode.UNKNOWN_PLAYER, f"no player {name!r}")
        key = f"bot:{name.removesuffix('-bot')}" if name.endswith("-bot") else name_key(name)
        own = viewer is not None and viewer.name.casefold() == name.casefold()
        found = await in_thread(self.store.profile, key, own=own)
        if found is None:
            raise ServiceError(ErrorCode.UNKNOWN_PLAYER, f"no player {name!r}")
        return found

    async def reliability(self, names: Sequence[str]) -> dict[str, Reliability]:
        """How often each named registered person finished their games, by the name
        as asked; guests', bots' and unknown names are left out."""
        keys = {name: name_key(name) for name in names}
        found = await in_thread(self.store.reliability_by_key, sorted(set(keys.values())))
        return {name: found[key][1] for name, key in keys.items() if key in found}

    async def named(self, key: str) -> bool:
        """Whether an account's name has this key (:func:`ghostparty.server.common.names.name_key`).

        Asked at every guest's join: an answer is kept for :data:`NAMED_FOR` seconds (a
        name registered meanwhile, on another instance, is refused to guests after that)."""
        moment = time.monotonic()
        kept = self._named.get(key)
        if kept is not None and moment - kept[0] < NAMED_FOR:
            return kept[1]
        found = await in_thread(self.store.player_by_key, key) is not None
        if len(self._named) >= 10_000:
            self._named.clear()
        self._named[key] = (moment, found)
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

    async def leaderboard(self, rules: str, bots: bool = False) -> list[tuple[int | None, str, str, Rating, int]]:
        """(player id, name, kind, rating, rated games) of the ranked players, best first:
        people, or with ``bots`` the bot accounts (both with the server's levels)."""
        return await in_thread(self.store.leaderboard, rules, self.min_games, bots)

    @staticmethod
    def csrf(token: str) -> str:
        """The CSRF token of a session: derived from its secret, so nothing more is kept."""
        return hmac.new(token.encode(), b"ghostparty-csrf", hashlib.sha256).hexdigest()[:32]

    def csrf_ok(self, token: str, given: str | None) -> bool:
        return given is not None and hmac.compare_digest(self.csrf(token), given)

    async def _check(self, player: Player, session: str, password: object) -> None:
        """``bad_login`` unless ``password`` is the player's; counted per ``session``."""
        uses: list[Use] = [("password-check:" + session_hash(session), PER_SESSION)]
        await take_or_refuse(self.limiter, uses)
        stored = (await in_thread(self.store.player_by_key, name_key(player.name)) or player).password_hash
        try:
            right = (
                isinstance(password, str)
                and len(password) <= MAX_PASSWORD
                and await self.hashing.verify(stored, password)
            )
        except RateLimited:
            await self.limiter.give_back(uses)
            raise
        if not right:
            raise ServiceError(ErrorCode.BAD_LOGIN, "wrong password")
        await self.limiter.give_back(uses)

    async def _open_session(self, player: Player) -> str:
        token = secrets.token_urlsafe(32)
        created = self.clock()
        await in_thread(
            self.store.create_session, session_hash(token), player.id, created, created + timedelta(days=SESSION_DAYS)
        )
        return token
