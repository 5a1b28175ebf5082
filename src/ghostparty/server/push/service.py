"""Web Push for accounts: a browser subscribes a device, then is told of what its account
chose — "your move" in turn-based games, invitations from friends, a tournament about to
start.

Each notification is a small JSON payload (:func:`~ghostparty.server.push.texts.payload`)
encrypted to the device's keys (RFC 8291, ``aes128gcm``) and posted with a VAPID header
(RFC 8292: a JWT signed by the server's key, ``aud`` the push service's origin) by
pywebpush, in a thread, from a queue a task empties: no request and no game waits for a
push service. A push service that answers 404 or 410 has forgotten the subscription: it
is dropped. Endpoints are accepted only at the push services' origins
(:data:`PUSH_ORIGINS`), so the server never posts anywhere a client names.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import fnmatch
import json
import logging
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush

from ghostparty.server.common.errors import ErrorCode, ServiceError, in_thread
from ghostparty.server.common.model import now
from ghostparty.server.push.store import KINDS, PushStore, Subscription
from ghostparty.server.push.texts import language_of, payload

log = logging.getLogger("ghostparty.push")

#: The origins of the browsers' push services (``*`` matches within a host name).
PUSH_ORIGINS = (
    "https://fcm.googleapis.com",
    "https://updates.push.services.mozilla.com",
    "https://*.push.apple.com",
    "https://*.notify.windows.com",
)
#: Devices one account may subscribe; a new one beyond replaces the oldest.
MOST_DEVICES = 10
#: Notifications waiting to be sent, at most (more are dropped, logged).
QUEUE = 10_000
#: How long a push message waits at the push service for an offline device, in seconds.
TTL = 12 * 3600


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64url(text: str) -> bytes | None:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except ValueError:
        return None


def new_key_pem() -> str:
    """A new VAPID key: P-256, PKCS#8 PEM."""
    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    return pem.decode("ascii")


def vapid_of(pem: str) -> Vapid02:
    """The VAPID signer of a PEM private key; ``ValueError`` saying what is wrong."""
    key = serialization.load_pem_private_key(pem.encode("ascii"), password=None)
    if not isinstance(key, ec.EllipticCurvePrivateKey) or not isinstance(key.curve, ec.SECP256R1):
        raise ValueError("a VAPID key is a P-256 (prime256v1) EC private key in PEM")
    return Vapid02(private_key=key)


@dataclass(frozen=True, slots=True)
class Keys:
    """A subscription's keys as the browser gives them (base64url)."""

    p256dh: str
    auth: str


def checked_endpoint(endpoint: str, origins: Sequence[str]) -> str:
    """``endpoint`` if it is at one of ``origins``; ``bad_request`` saying so if not."""
    if not endpoint.isascii() or any(ord(c) <= 32 or c in "\\\x7f" for c in endpoint):
        raise ServiceError(
            ErrorCode.BAD_REQUEST, "endpoint must be a URL without spaces, backslashes or control characters"
        )
    parts = urlsplit(endpoint)
    try:
        origin = f"{parts.scheme}://{parts.hostname}" + (f":{parts.port}" if parts.port else "")
    except ValueError:
        origin = ""
    if not parts.hostname or not any(fnmatch.fnmatchcase(origin, allowed) for allowed in origins):
        raise ServiceError(
            ErrorCode.BAD_REQUEST, "endpoint must be a URL of a browser's push service (the subscription's endpoint)"
        )
    return endpoint


def checked_keys(p256dh: str, auth: str) -> Keys:
    """The keys if they are a P-256 point and 16 bytes; ``bad_request`` saying so if not."""
    point = _unb64url(p256dh)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point or b"")
    except ValueError:
        raise ServiceError(ErrorCode.BAD_REQUEST, "keys.p256dh must be a P-256 public key, base64url") from None
    if len(_unb64url(auth) or b"") != 16:
        raise ServiceError(ErrorCode.BAD_REQUEST, "keys.auth must be 16 bytes, base64url") from None
    return Keys(p256dh, auth)


class Pusher:
    """Web Push over a :class:`~ghostparty.server.push.store.PushStore`, signed with ``vapid``."""

    def __init__(
        self,
        store: PushStore,
        vapid: Vapid02,
        *,
        subject: str,
        origins: Sequence[str] = PUSH_ORIGINS,
        clock: Callable[[], datetime] = now,
        most: int = MOST_DEVICES,
        move_after: float = 60.0,
        timeout: float = 10.0,
    ) -> None:
        self.store = store
        self.vapid = vapid
        self.subject = subject
        self.origins = tuple(origins)
        self.clock = clock
        self.most = most
        #: "Your move" once the mover has had it this long (not while they play).
        self.move_after = move_after
        self.timeout = timeout
        #: The public key a page subscribes with (``applicationServerKey``).
        self.public_key = b64url(
            vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        )
        self._queue: asyncio.Queue[tuple[int, dict[str, Any]]] = asyncio.Queue(QUEUE)
        self._tasks: list[asyncio.Task[None]] = []

    # -- the account page ---------------------------------------------------------------

    async def status(self, player_id: int) -> dict[str, Any]:
        devices = await in_thread(self.store.subscriptions, player_id)
        chosen = await in_thread(self.store.choices, player_id)
        kinds = sorted(chosen.kinds) if chosen is not None else list(KINDS)
        return {"enabled": True, "key": self.public_key, "devices": len(devices), "kinds": kinds}

    async def subscribe(
        self, player_id: int, endpoint: str, keys: Keys, kinds: Collection[str] | None, language: str | None
    ) -> None:
        """Keep the device's subscription (and, if given, what the account wants)."""
        checked_endpoint(endpoint, self.origins)
        checked_keys(keys.p256dh, keys.auth)
        unknown = set(kinds or ()) - set(KINDS)
        if unknown:
            raise ServiceError(
                ErrorCode.BAD_REQUEST, f"kinds may be {', '.join(KINDS)}, not {', '.join(sorted(unknown))}"
            )
        sub = Subscription(0, player_id, endpoint, keys.p256dh, keys.auth, self.clock())
        await in_thread(self.store.subscribe, sub, self.most)
        chosen = await in_thread(self.store.choices, player_id)
        if kinds is not None or language is not None or chosen is None:
            await in_thread(
                self.store.choose,
                player_id,
                kinds if kinds is not None else (chosen.kinds if chosen else KINDS),
                language_of(language if language is not None else (chosen.language if chosen else "en")),
            )

    async def unsubscribe(self, endpoint: str, player_id: int | None, auth: str | None) -> None:
        """Drop the device: the account's own, or one whose auth secret is given (its
        service worker's); ``not_found`` for anyone else's."""
        if not await in_thread(self.store.unsubscribe, endpoint, player_id, auth):
            raise ServiceError(ErrorCode.NOT_FOUND, "no such subscription of yours (it may be gone already)")

    # -- what is sent ---------------------------------------------------------------------

    async def notify(self, player_id: int, kind: str, url: str, **fields: object) -> bool:
        """Queue a notification of ``kind`` for the account's devices if it wants that
        kind; whether it was queued."""
        chosen = await in_thread(self.store.choices, player_id)
        if chosen is None or kind not in chosen.kinds:
            return False
        try:
            self._queue.put_nowait((player_id, payload(kind, chosen.language, url, **fields)))
        except asyncio.QueueFull:
            log.warning("the push queue is full: a %s notification for player %d is dropped", kind, player_id)
            return False
        return True

    async def invited(self, invitee_id: int, inviter: str, table_id: str) -> None:
        """A friend's invitation to a table (the friends' ``on_invited`` hook)."""
        await self.notify(invitee_id, "invitation", f"/t/{table_id}", inviter=inviter)

    async def tournament_starting(self, tournament_id: str, accounts: Sequence[int]) -> None:
        """A tournament about to start, to its entrants (the runner's ``starting`` hook)."""
        for account in accounts:
            await self.notify(account, "tournament", f"/tournaments/{tournament_id}")

    async def moves(self) -> int:
        """Queue "your move" for the turn-based games waiting long enough; how many."""
        moment = self.clock()
        due = await in_thread(self.store.due_moves, moment - timedelta(seconds=self.move_after))
        done = 0
        for each in due:
            if await in_thread(self.store.mark_pushed, each.table_id, each.player_id, each.changed, moment):
                done += await self.notify(each.player_id, "move", f"/t/{each.table_id}", table=each.table_id)
        return done

    async def send(self, player_id: int, message: dict[str, Any]) -> int:
        """Send one notification to each of the account's devices; how many took it."""
        data = json.dumps(message, ensure_ascii=False)
        done = 0
        for sub in await in_thread(self.store.subscriptions, player_id):
            done += await self._send_one(sub, data, message["kind"])
        return done

    async def _send_one(self, sub: Subscription, data: str, kind: str) -> int:
        info = {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}}
        claims: dict[str, str | int] = {"sub": self.subject}  # a new dict each time: webpush adds aud and exp
        try:
            await asyncio.to_thread(
                webpush, info, data, vapid_private_key=self.vapid, vapid_claims=claims, timeout=self.timeout, ttl=TTL
            )
        except WebPushException as error:
            status = error.response.status_code if error.response is not None else None
            if status in (404, 410):
                log.info("push subscription #%d is gone (%s): dropped", sub.id, status)
                await in_thread(self.store.drop, sub.endpoint)
            else:
                log.warning("a %s push to subscription #%d failed: %s", kind, sub.id, error)
            return 0
        except Exception as error:  # the network: logged, never the game's trouble
            log.warning("a %s push to subscription #%d failed: %s: %s", kind, sub.id, type(error).__name__, error)
            return 0
        await in_thread(self.store.succeeded, sub.id, self.clock())
        return 1

    async def drain(self) -> int:
        """Send everything queued now (tests); how many devices took a notification."""
        done = 0
        while not self._queue.empty():
            player_id, message = self._queue.get_nowait()
            done += await self.send(player_id, message)
        return done

    def run(self, interval: float = 30.0) -> None:
        """Send what is queued as it comes; look for "your move" every ``interval`` seconds."""

        async def sending() -> None:
            while True:
                player_id, message = await self._queue.get()
                try:
                    await self.send(player_id, message)
                except Exception:
                    log.exception("a push notification could not be sent")

        async def looking() -> None:
            while True:
                try:
                    await self.moves()
                except Exception:
                    log.exception(
                        "the games waiting for a move could not be looked for; trying again in %s s", interval
                    )
                await asyncio.sleep(interval)

        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(sending()), loop.create_task(looking())]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def start_pusher(
    store: PushStore,
    *,
    key_file: str | None,
    subject: str,
    origins: Sequence[str] = PUSH_ORIGINS,
    clock: Callable[[], datetime] = now,
    interval: float = 30.0,
) -> Pusher:
    """The running pusher: its key from ``key_file`` (PEM), else the one kept in the
    database (made on the first start)."""
    if key_file is not None:
        with open(key_file, encoding="ascii") as file:
            pem = file.read()
    else:
        pem = store.vapid_key(new_key_pem(), clock())
    try:
        vapid = vapid_of(pem)
    except ValueError as error:
        where = key_file or "the database"
        raise ValueError(f"the VAPID key in {where} is not usable: {error}") from None
    pusher = Pusher(store, vapid, subject=subject, origins=origins, clock=clock)
    pusher.run(interval)
    return pusher
