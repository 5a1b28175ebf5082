"""Personal API tokens: a logged-in player's keys for programs, each with scopes.

A token is ``gp_`` and 32 random bytes in base64url (256 bits): guessing one is
hopeless, so the database keeps only its SHA-256 — a slow password hash buys nothing
against a secret that was never guessable, and a fast one lets every request be looked
up by its hash (an indexed equality, no secret compared byte by byte; the hash of a
found row is compared once more with :func:`hmac.compare_digest`). The secret is shown
once, when it is made. A token has a name, scopes (:data:`SCOPES`), an optional expiry
and the time it was last used; a player has at most :data:`MOST` of them. Revoking
deletes it: the next request with it is refused, and the WebSockets it opened are told
on :func:`revoked_channel` (through Redis across instances) and close.

Failed Bearer attempts are counted per address *before* the look-up and given back
when the token is good (:data:`FAILURES`), like log-ins; each token's requests are
limited too (:data:`PER_TOKEN`).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from ghostparty.server.accounts.store import Player
from ghostparty.server.accounts.tokens_store import TokenInfo, TokenStore
from ghostparty.server.bus.envelope import TokenRevoked
from ghostparty.server.bus.pubsub import PubSub
from ghostparty.server.common.errors import ErrorCode, ServiceError, StoreUnavailable, in_thread
from ghostparty.server.common.model import now
from ghostparty.server.common.text import problem
from ghostparty.server.infra.limits import Limit, Limiter, Use, take_or_refuse

log = logging.getLogger("ghostparty.server")

PREFIX = "gp_"
#: Random bytes of a token's secret.
SECRET_BYTES = 32
#: ``gp_`` and 43 base64url characters.
TOKEN_PATTERN = re.compile(r"gp_[A-Za-z0-9_-]{43}")
#: What each scope lets a token do (docs/PROTOCOL.md lists the routes of each).
SCOPES = {
    "read": "read one's own data: the account, one's blocks and mutes, one's tables",
    "play": "sit at tables and play as oneself: join, the quick-match queue, the table WebSocket, chat",
    "bot:play": "play as a bot account through the Bot API: its event stream, its answers to invitations",
}
#: Tokens one account may hold.
MOST = 20
#: The longest expiry a token may be given, in days (none: it never expires).
MAX_DAYS = 366
#: Failed Bearer attempts from one address (a wrong, revoked or expired token).
FAILURES = Limit(20, 600, "too many requests with an unknown, revoked or expired token from this address")
#: Requests with one token, from anywhere.
PER_TOKEN = Limit(300, 60, "at most 300 requests a minute with one API token")
#: Tokens made or revoked per account and per address.
CHANGES = (Limit(10, 600, "at most 10 tokens made or revoked in 10 minutes"),)
CHANGES_ADDRESS = (Limit(30, 600, "too many tokens made or revoked from this address"),)
#: Reads of one's list of tokens.
READS = (Limit(60, 60, "the list of tokens is asked for too often"),)
#: A token's last use is written at most this often (not at every request).
TOUCH_EVERY = timedelta(minutes=1)


def new_secret() -> str:
    """A fresh token: ``gp_`` and 256 random bits."""
    return PREFIX + secrets.token_urlsafe(SECRET_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def revoked_channel(token_id: int) -> str:
    """The pub/sub channel on which a token's revocation is told."""
    return f"token-revoked:{token_id}"


@dataclass(frozen=True, slots=True)
class Bearer:
    """A request authenticated by an API token: its owner and the token."""

    player: Player
    token: TokenInfo

    def allows(self, scope: str) -> bool:
        return scope in self.token.scopes


def check_scopes(scopes: object) -> tuple[str, ...]:
    """The scopes asked for, in :data:`SCOPES`' order; ``bad_request`` if any is unknown."""
    known = ", ".join(SCOPES)
    if not isinstance(scopes, list | tuple) or not scopes:
        raise ServiceError(ErrorCode.BAD_REQUEST, f"a token needs at least one scope, of: {known}")
    unknown = [scope for scope in scopes if scope not in SCOPES]
    if unknown:
        raise ServiceError(ErrorCode.BAD_REQUEST, f"no scope {unknown[0]!r}: expected some of {known}")
    return tuple(scope for scope in SCOPES if scope in scopes)


def check_token_name(name: object) -> str:
    """A token's name: 1–40 characters of visible text on one line."""
    expected = "a token's name is 1 to 40 characters of visible text on one line"
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= 40:
        raise ServiceError(ErrorCode.BAD_REQUEST, expected)
    why = problem(name) or ("has a control character" if any(ord(c) < 32 or c == "\x7f" for c in name) else None)
    if why is not None:
        raise ServiceError(ErrorCode.BAD_REQUEST, f"{expected}: this one {why}")
    return name.strip()


class ApiTokens:
    """Making, listing, revoking and checking tokens over a :class:`~ghostparty.server.accounts.tokens_store.TokenStore`."""

    def __init__(
        self, store: TokenStore, limiter: Limiter, pubsub: PubSub, *, clock: Callable[[], datetime] = now
    ) -> None:
        self.store = store
        self.limiter = limiter
        self.pubsub = pubsub
        self.clock = clock

    async def create(self, player: Player, name: object, scopes: object, days: object) -> tuple[TokenInfo, str]:
        """A new token and its secret (shown this once); ``too_many_tokens`` (409) at :data:`MOST`."""
        name = check_token_name(name)
        chosen = check_scopes(scopes)
        if days is not None and (not isinstance(days, int) or isinstance(days, bool) or not 1 <= days <= MAX_DAYS):
            raise ServiceError(ErrorCode.BAD_REQUEST, f"a token's expiry is 1 to {MAX_DAYS} days, or null for none")
        created = self.clock()
        expires = created + timedelta(days=days) if days is not None else None
        secret = new_secret()
        info = await in_thread(self.store.create, player.id, token_hash(secret), name, chosen, created, expires, MOST)
        if info is None:
            raise ServiceError(ErrorCode.TOO_MANY_TOKENS, f"an account has at most {MOST} tokens: revoke one first")
        return info, secret

    async def of_player(self, player: Player) -> list[TokenInfo]:
        return await in_thread(self.store.of_player, player.id)

    async def revoke(self, player: Player, token_id: int) -> None:
        """Delete the token and close its sockets everywhere; ``unknown_token`` (404) if
        the player has none with this id."""
        if not await in_thread(self.store.revoke, player.id, token_id):
            raise ServiceError(ErrorCode.UNKNOWN_TOKEN, f"you have no token {token_id}")
        await self.closed([token_id])

    async def closed(self, token_ids: list[int]) -> None:
        """Tell every instance that these tokens are gone: their WebSockets close."""
        for token_id in token_ids:
            await self.pubsub.publish(revoked_channel(token_id), TokenRevoked())

    async def authenticate(self, token: str, address: str) -> Bearer:
        """The owner of a current token. The attempt is counted per address first and
        given back if the token is good; ``bad_api_token`` (401) if it isn't, and each
        token's requests are counted (:data:`PER_TOKEN`)."""
        uses: list[Use] = [("bearer-failures:" + address, FAILURES)]
        await take_or_refuse(self.limiter, uses)
        hashed = token_hash(token)
        try:
            found = (
                await in_thread(self.store.look_up, hashed, self.clock()) if TOKEN_PATTERN.fullmatch(token) else None
            )
        except StoreUnavailable:  # not an attempt: nothing was checked
            await self.limiter.give_back(uses)
            raise
        # Found by an indexed equality of hashes; the stored hash is compared once more in
        # constant time, so no byte-by-byte comparison of anything secret shows in the timing.
        if found is None or not hmac.compare_digest(found[2], hashed):
            raise ServiceError(
                ErrorCode.BAD_API_TOKEN,
                "this API token is unknown, revoked or expired: make a new one on the account page",
            )
        await self.limiter.give_back(uses)
        info, player, _stored = found
        await take_or_refuse(self.limiter, [(f"token:{info.id}", PER_TOKEN)])
        moment = self.clock()
        if info.last_used is None or moment - info.last_used >= TOUCH_EVERY:
            try:
                await in_thread(self.store.touch, info.id, moment)
            except StoreUnavailable:  # bookkeeping only: the request goes on
                log.warning("could not note the last use of API token %d", info.id)
        return Bearer(player, info)
