"""The composition root: what a server instance is made of, made and closed in one place.

:func:`running` is the application's lifespan: from :class:`Settings` (``create_app``'s
arguments) it opens the store and the pub/sub (Redis, or in-process), makes the
:class:`~ghostparty.server.tables.service.TableService` and, where the store keeps accounts and all else they
need (:class:`~ghostparty.server.stores.capabilities.KeepsPlayers`), the parts that need them (accounts, API
tokens, the Bot API, community and moderation, friends, quick-match, tournaments and
their runner, the mailer), then the game reviewer; it puts each on
``app.state`` for the routes, resumes or takes over the games under way, and on the way
out closes everything in the reverse order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from random import Random
from typing import Any

from argon2 import PasswordHasher
from starlette.applications import Starlette

from ghostparty.server.accounts.passwords import Hashing
from ghostparty.server.accounts.service import Accounts
from ghostparty.server.accounts.tokens import ApiTokens
from ghostparty.server.botapi.api import BotApi
from ghostparty.server.botapi.streams import StreamLeases
from ghostparty.server.bus.catchup import CatchUp
from ghostparty.server.bus.pubsub import MemoryPubSub, PubSub
from ghostparty.server.common.metrics import Metrics
from ghostparty.server.common.model import now
from ghostparty.server.community.blocks import Community
from ghostparty.server.community.friends import Friends, InvitedHook
from ghostparty.server.community.moderation import Moderation
from ghostparty.server.http.quotas import Quotas
from ghostparty.server.http.socket_limits import Sockets
from ghostparty.server.infra.limits import Limiter, MemoryLimiter, RedisLimiter
from ghostparty.server.mail.mailer import start_mailer
from ghostparty.server.quickmatch.service import QuickMatch
from ghostparty.server.reviews.pool import Reviewer
from ghostparty.server.reviews.store import MemoryReviews, ReviewStore
from ghostparty.server.stores.capabilities import KeepsPlayers, KeepsReviews, ReachedByUrl
from ghostparty.server.stores.sql import SqlStore
from ghostparty.server.tables.service import TableService, instance_name
from ghostparty.server.tables.store import Store
from ghostparty.server.tournaments.events import Recurring, load_events
from ghostparty.server.tournaments.runner import TournamentRunner
from ghostparty.server.tournaments.service import Tournaments

log = logging.getLogger("ghostparty.server")


def default_database_url() -> str:
    """A SQLite file in the user's data folder (``$XDG_DATA_HOME/ghostparty``)."""
    import os

    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "ghostparty"
    base.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{base / 'ghostparty.db'}"


@dataclass(frozen=True)
class Settings:
    """An instance's settings: :func:`~.app.create_app`'s arguments, which say what each means."""

    database_url: str | None = None
    store: Store | None = None
    pubsub: PubSub | None = None
    redis_url: str | None = None
    bot_delay: float = 0.5
    seed: int | None = None
    tables_per_minute: float = 30.0
    sockets_per_address: int = 20
    allowed_origins: Sequence[str] = ()
    hasher: PasswordHasher | None = None
    hash_queue: int | None = None
    clock: Callable[[], datetime] | None = None
    metrics_token: str | None = None
    admin_token: str | None = None
    open_data: str | Path | None = None
    tournament_events: str | None = None
    tournament_every: float = 1.0
    smtp_url: str | None = None
    mail_from: str | None = None
    email_secret: str | None = None
    public_url: str | None = None
    remind_hours: float = 12
    on_invited: InvitedHook | None = None
    review_workers: int = 1
    review_settings: dict[str, Any] | None = None
    review_finished: bool = False
    review_queue: str = "ghostparty-reviews"


@contextlib.asynccontextmanager
async def running(app: Starlette, s: Settings) -> AsyncIterator[None]:
    """The instance's parts, made and put on ``app.state`` for its lifetime."""
    the_store: Store
    if s.store is None:
        the_store = await asyncio.to_thread(SqlStore, s.database_url or default_database_url())
    else:
        the_store = s.store
    the_pubsub: PubSub
    instance = instance_name()
    shared: dict[str, Any] = {}
    if s.pubsub is not None:
        the_pubsub = s.pubsub
    elif s.redis_url is not None:
        from ghostparty.server.bus.leases import Keeper, RedisLeases
        from ghostparty.server.bus.presence import RedisPresence
        from ghostparty.server.bus.redis_pubsub import RedisPubSub

        redis_pubsub = RedisPubSub(s.redis_url)
        await redis_pubsub.ping()
        the_pubsub = redis_pubsub
        presence = RedisPresence(s.redis_url, instance, redis_pubsub)
        await presence.start()
        shared = {"presence": presence, "keeper": Keeper(RedisLeases(s.redis_url), instance)}
    else:
        the_pubsub = MemoryPubSub()
    service = TableService(
        the_store,
        the_pubsub,
        bot_delay=s.bot_delay,
        rng=Random(s.seed) if s.seed is not None else None,
        instance=instance,
        clock=s.clock or now,
        metrics=Metrics(),
        **shared,
    )
    app.state.service = service
    app.state.metrics_token = s.metrics_token or None
    app.state.admin_token = s.admin_token or None
    app.state.open_data = Path(s.open_data) if s.open_data is not None else None
    app.state.allowed_origins = frozenset(s.allowed_origins)
    watching = asyncio.get_running_loop().create_task(service.metrics.watch_loop())
    limiter: Limiter = RedisLimiter(s.redis_url) if s.redis_url is not None else MemoryLimiter()
    app.state.quotas = Quotas(limiter, s.tables_per_minute)
    app.state.sockets = Sockets(s.sockets_per_address)
    tables = service.core.tables
    app.state.catch_up = CatchUp(
        lambda ids: tables.read(tables.store.versions, ids), caught_up=service.metrics.caught_up.inc
    )
    # Alone, an update can't be lost without the whole process: nothing to look for.
    catching_up = asyncio.get_running_loop().create_task(app.state.catch_up.run()) if tables.shared else None
    # Accounts only where the store keeps all their parts (capabilities.py): not in memory.
    players = the_store if isinstance(the_store, KeepsPlayers) else None
    hashing = Hashing(s.hasher, waiting=s.hash_queue) if players is not None else None
    if players is not None:
        app.state.accounts = Accounts(
            players.accounts, limiter=limiter, hashing=hashing, seats_changed=service.seats_changed
        )
        app.state.tokens = ApiTokens(
            players.tokens,
            limiter,
            the_pubsub,
            clock=s.clock or now,
        )
        app.state.bots = BotApi(
            players.bots,
            service.lobby,
            the_pubsub,
            streams=StreamLeases(service.keeper.leases, instance),  # Redis's where it is shared
            clock=s.clock or now,
        )
        service.lobby.started = app.state.bots.poke
        service.lobby.bot_player = app.state.accounts.bot_player
        service.lobby.account_named = app.state.accounts.named
        community = Community(players.moderation, app.state.accounts)
        service.lobby.rated_refusal = community.check_rated
        app.state.community = community
        app.state.friends = Friends(
            players.friends,
            community,
            service,
            on_invited=s.on_invited,
            clock=s.clock or now,
        )
        app.state.moderation = Moderation(community, service.chat, seats_changed=service.seats_changed)
        service.chat.refusal = community.chat_refusal
        app.state.quick = QuickMatch(
            players.queue,
            service.lobby,
            rating=app.state.accounts.shown_rating,
            avoided=players.moderation.avoided,
            finishing=players.accounts.reliability,
        )
        app.state.quick.run(lambda: 0 in service.keeper.held)
        app.state.tournaments = Tournaments(
            players.tournaments,
            service.lobby,
            the_pubsub,
            rating=app.state.accounts.shown_rating,
            is_bot=app.state.bots.is_bot,
            clock=s.clock or now,
        )
        app.state.tournament_runner = TournamentRunner(app.state.tournaments)
        if s.tournament_events is not None:
            app.state.tournament_runner.recurring = Recurring(
                app.state.tournaments, load_events(s.tournament_events)
            ).make
        app.state.tournament_runner.run(lambda: 0 in service.keeper.held, s.tournament_every)
        app.state.mailer = start_mailer(
            players,
            app.state.accounts,
            limiter,
            smtp_url=s.smtp_url,
            email_secret=s.email_secret,
            mail_from=s.mail_from,
            public_url=s.public_url,
            remind_hours=s.remind_hours,
            clock=s.clock or now,
        )
        if s.on_invited is None and app.state.mailer is not None:
            app.state.friends.on_invited = _mail_invitation(app.state.mailer)
    app.state.pubsub = the_pubsub
    review_store: ReviewStore = the_store.reviews if isinstance(the_store, KeepsReviews) else MemoryReviews()
    if s.redis_url is not None and isinstance(the_store, ReachedByUrl) and the_store.url:
        # any instance's worker takes the job
        from ghostparty.server.reviews.queue import RedisReviewer

        app.state.reviewer = RedisReviewer(
            review_store,
            s.redis_url,
            the_store.url,
            workers=s.review_workers,
            settings=s.review_settings,
            queue_name=s.review_queue,
        )
        if s.review_finished:
            app.state.reviewer.start_workers()
    else:
        app.state.reviewer = Reviewer(
            review_store, workers=s.review_workers, settings=s.review_settings, clock=s.clock or now
        )
    if s.review_finished:
        service.play.game_over = app.state.reviewer.game_over
    if shared:
        await service.begin()  # takes over its share of the games under way
        log.info("instance %s keeps shards %s", instance, sorted(service.keeper.held))
    else:
        resumed = await service.resume()
        if resumed:
            log.info("resumed %d games under way", resumed)
    service.run_timers()
    try:
        yield
    finally:
        watching.cancel()
        if catching_up is not None:
            catching_up.cancel()
        app.state.reviewer.close()
        if players is not None:
            await app.state.quick.close()
            await app.state.tournament_runner.close()
            if app.state.mailer is not None:
                await app.state.mailer.close()
        await service.close()
        await service.presence.close()  # (its last announcements through the pub/sub)
        await the_pubsub.close()
        await limiter.close()
        if hashing is not None:
            hashing.close()
        if shared:
            await shared["keeper"].leases.close()
        if s.store is None:
            the_store.close()


def _mail_invitation(mailer: Any) -> InvitedHook:
    """Friends' invitations by email: queued only for an invitee who confirmed an address
    and chose invitations (:meth:`ghostparty.server.mail.mailer.Mailer.invitation`)."""

    async def hook(invitation: Any) -> None:
        await mailer.invitation(
            invitation.invitee_id, invitation.inviter, f"{mailer.public_url}/t/{invitation.table_id}"
        )

    return hook
