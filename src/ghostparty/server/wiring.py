"""The composition root: what a server instance is made of, made and closed in one place.

:func:`running` is the application's lifespan: from :class:`Settings` (``create_app``'s
arguments) it opens the database once (the tables' store, :class:`~ghostparty.server.tables.store.SqlTables`, on a
:class:`~ghostparty.server.infra.database.Database`) and the pub/sub (Redis, or in-process), makes the
:class:`~ghostparty.server.tables.service.TableService` and, on a SQL database, each domain's store on it
(:class:`~ghostparty.server.stores.SqlStores`) and the parts that need them (accounts, API tokens, the
Bot API, community and moderation, friends, quick-match, tournaments and their runner,
the mailer, Web Push), then the game reviewer and the puzzles (the starter set loaded
into a store without puzzles); it keeps them as one typed
:class:`~ghostparty.server.http.parts.Parts` (``app.state.parts``) for the routes, resumes or takes
over the games under way, and on the way out closes everything in the reverse order.
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
from typing import TYPE_CHECKING, Any

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
from ghostparty.server.http.parts import AccountParts, Parts
from ghostparty.server.http.quotas import Quotas
from ghostparty.server.http.socket_limits import Sockets
from ghostparty.server.infra.limits import Limiter, MemoryLimiter, RedisLimiter
from ghostparty.server.mail.mailer import Mailer, start_mailer
from ghostparty.server.push.service import PUSH_ORIGINS, start_pusher
from ghostparty.server.puzzles.memory import MemoryPuzzles
from ghostparty.server.puzzles.service import Puzzles
from ghostparty.server.puzzles.store import PuzzleStore
from ghostparty.server.quickmatch.service import QuickMatch
from ghostparty.server.reviews.mistakes import MistakeJudge
from ghostparty.server.reviews.pool import Reviewer
from ghostparty.server.reviews.store import MemoryReviews, ReviewStore
from ghostparty.server.stores import MemoryStore, SqlStores
from ghostparty.server.tables.service import TableService, instance_name
from ghostparty.server.tables.store import SqlTables, Store
from ghostparty.server.tournaments.events import Recurring, load_events
from ghostparty.server.tournaments.runner import TournamentRunner
from ghostparty.server.tournaments.service import Tournaments

if TYPE_CHECKING:
    from ghostparty.server.reviews.queue import RedisReviewer

log = logging.getLogger("ghostparty.server")


def default_database_url() -> str:
    """A SQLite file in the user's data folder (``$XDG_DATA_HOME/ghostparty``)."""
    import os

    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "ghostparty"
    base.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{base / 'ghostparty.db'}"


@dataclass(frozen=True)
class Settings:
    """An instance's settings: :func:`~.app.create_app`'s options, each written here once.

    ``ghostparty serve`` gives them from its command line (``--workers N`` hands them to
    each worker as JSON: :func:`~.app.app_from_environment`); tests give a store, a clock,
    a cheap hasher.
    """

    #: Any SQLAlchemy URL (``sqlite:///games.db``, ``postgresql://user@host/db``); a SQLite
    #: file in the user's data folder if neither it nor ``store`` is given.
    database_url: str | None = None
    #: The tables' store to use instead of opening ``database_url`` (tests: a memory store,
    #: which keeps no accounts).
    store: Store | None = None
    #: The pub/sub to use instead of Redis's or an in-process one.
    pubsub: PubSub | None = None
    #: Redis, which carries change notices between server instances (else in-process), the
    #: rate limits, presence, the shards' leases and the review queue.
    redis_url: str | None = None
    #: Seconds a bot waits before it moves.
    bot_delay: float = 0.5
    #: Makes table ids, seeds and tokens reproducible (tests only).
    seed: int | None = None
    #: How many tables one address or account may bring into being a minute (bursts of as
    #: many; ten times as many an hour: every limit is in :mod:`ghostparty.server.http.quotas`).
    tables_per_minute: float = 30.0
    #: How many WebSockets one address may hold open on this instance.
    sockets_per_address: int = 20
    #: Other sites' origins whose pages may post here (:mod:`ghostparty.server.http.crosssite`).
    allowed_origins: Sequence[str] = ()
    #: Hashes passwords: Argon2id with argon2-cffi's defaults unless given (tests give a cheaper one).
    hasher: PasswordHasher | None = None
    #: How many hashes may wait for a free hashing thread before more are refused
    #: (:class:`~ghostparty.server.accounts.passwords.Hashing`).
    hash_queue: int | None = None
    #: The time, for the tables' timers and everything dated (tests move it).
    clock: Callable[[], datetime] | None = None
    #: ``/metrics`` answers only this machine unless a scraper brings this token.
    metrics_token: str | None = None
    #: Closing tables needs this token (:mod:`ghostparty.server.http.routes.ops`).
    admin_token: str | None = None
    #: The folder of ``ghostparty export``'s files, served at ``/open-data``
    #: (:mod:`ghostparty.server.http.routes.opendata`).
    open_data: str | Path | None = None
    #: A JSON file of recurring tournaments the runner makes, or ``"hourly"`` for the built-in
    #: hourly 2-player hugo arena (:mod:`ghostparty.server.tournaments.events`).
    tournament_events: str | None = None
    #: Seconds between the tournament runner's passes.
    tournament_every: float = 1.0
    #: Turns email on (:mod:`ghostparty.server.mail.mailer`).
    smtp_url: str | None = None
    #: The sender of the email.
    mail_from: str | None = None
    #: Seals the stored addresses and signs the email's links (needed with ``smtp_url``).
    email_secret: str | None = None
    #: Where the email's links lead.
    public_url: str | None = None
    #: "Your move" reminders at most this often per game, in hours.
    remind_hours: float = 12
    #: Awaited with each invitation stored (:mod:`ghostparty.server.community.friends`); by
    #: default the mailer's, where email is on, and Web Push's.
    on_invited: InvitedHook | None = None
    #: A PEM file of the server's VAPID key (P-256) for Web Push; without it one is made on
    #: the first start and kept in the database (:mod:`ghostparty.server.push.service`).
    vapid_key: str | None = None
    #: Who runs the server, for the push services (``mailto:…`` or ``https://…``); by
    #: default ``mail_from`` as ``mailto:``, else ``public_url``.
    push_subject: str | None = None
    #: The push services' origins a subscription's endpoint may be at (``*`` within a host).
    push_origins: Sequence[str] = PUSH_ORIGINS
    #: Seconds between looks for turn-based games waiting for a move to push.
    push_every: float = 30.0
    #: Processes that review games (:mod:`ghostparty.server.reviews.pool`); with
    #: ``redis_url`` the worker processes of the rq queue (:mod:`ghostparty.server.reviews.queue`).
    review_workers: int = 1
    #: The review evaluator's settings (tests make it cheap).
    review_settings: dict[str, Any] | None = None
    #: Review every game this instance ends, at once (``serve``'s default), not only when asked.
    review_finished: bool = False
    #: The rq queue of the review jobs, with ``redis_url``.
    review_queue: str = "ghostparty-reviews"


@contextlib.asynccontextmanager
async def running(app: Starlette, s: Settings) -> AsyncIterator[None]:
    """The instance's parts, made and kept as ``app.state.parts`` for its lifetime."""
    the_store: Store
    if s.store is None:
        the_store = await asyncio.to_thread(SqlTables, s.database_url or default_database_url())
    else:
        the_store = s.store
    clock = s.clock or now
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
        clock=clock,
        metrics=Metrics(),
        **shared,
    )
    watching = asyncio.get_running_loop().create_task(service.metrics.watch_loop())
    limiter: Limiter = RedisLimiter(s.redis_url) if s.redis_url is not None else MemoryLimiter()
    tables = service.core.tables
    catch_up = CatchUp(lambda ids: tables.read(tables.store.versions, ids), caught_up=service.metrics.caught_up.inc)
    # Alone, an update can't be lost without the whole process: nothing to look for.
    catching_up = asyncio.get_running_loop().create_task(catch_up.run()) if tables.shared else None
    # Accounts only on a SQL database, where each domain makes its store: not in memory.
    stores = SqlStores.on(the_store) if isinstance(the_store, SqlTables) else None
    hashing = Hashing(s.hasher, waiting=s.hash_queue) if stores is not None else None
    account_parts = _account_parts(stores, service, the_pubsub, limiter, hashing, s) if stores is not None else None
    review_store: ReviewStore = stores.reviews if stores is not None else MemoryReviews()
    reviewer: Reviewer | RedisReviewer
    if s.redis_url is not None and stores is not None:
        # any instance's worker takes the job
        from ghostparty.server.reviews.queue import RedisReviewer

        reviewer = RedisReviewer(
            review_store,
            s.redis_url,
            stores.database.url,
            workers=s.review_workers,
            settings=s.review_settings,
            queue_name=s.review_queue,
        )
        if s.review_finished:
            reviewer.start_workers()
    else:
        reviewer = Reviewer(review_store, workers=s.review_workers, settings=s.review_settings, clock=clock)
    if s.review_finished:
        service.play.game_over = reviewer.game_over
    puzzle_store: PuzzleStore
    if stores is not None:
        puzzle_store = stores.puzzles
    else:
        puzzle_store = the_store.puzzles if isinstance(the_store, MemoryStore) else MemoryPuzzles()
    puzzles = Puzzles(puzzle_store, clock)
    added = await asyncio.to_thread(puzzles.load_starter)  # a store without puzzles gets the starter set
    if added:
        log.info("loaded %d starter puzzles", added)
    app.state.parts = Parts(
        service=service,
        pubsub=the_pubsub,
        quotas=Quotas(limiter, s.tables_per_minute),
        sockets=Sockets(s.sockets_per_address),
        catch_up=catch_up,
        reviewer=reviewer,
        puzzles=puzzles,
        mistakes=MistakeJudge(s.review_settings),
        metrics_token=s.metrics_token or None,
        admin_token=s.admin_token or None,
        open_data=Path(s.open_data) if s.open_data is not None else None,
        allowed_origins=frozenset(s.allowed_origins),
        accounts=account_parts,
    )
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
        reviewer.close()
        if account_parts is not None:
            await account_parts.quick.close()
            await account_parts.tournament_runner.close()
            if account_parts.mailer is not None:
                await account_parts.mailer.close()
            if account_parts.pusher is not None:
                await account_parts.pusher.close()
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


def _account_parts(
    players: SqlStores,
    service: TableService,
    pubsub: PubSub,
    limiter: Limiter,
    hashing: Hashing | None,
    s: Settings,
) -> AccountParts:
    """The account features over the stores that keep players, hooked into the tables."""
    clock = s.clock or now
    accounts = Accounts(players.accounts, limiter=limiter, hashing=hashing, seats_changed=service.seats_changed)
    tokens = ApiTokens(players.tokens, limiter, pubsub, clock=clock)
    bots = BotApi(
        players.bots,
        service.lobby,
        pubsub,
        streams=StreamLeases(service.keeper.leases, service.instance),  # Redis's where it is shared
        clock=clock,
    )
    service.lobby.started = bots.poke
    service.lobby.bot_player = accounts.bot_player
    service.lobby.account_named = accounts.named
    community = Community(players.moderation, accounts)
    service.lobby.rated_refusal = community.check_rated
    friends = Friends(players.friends, community, service, on_invited=s.on_invited, clock=clock)
    moderation = Moderation(community, service.chat, seats_changed=service.seats_changed)
    service.chat.refusal = community.chat_refusal
    quick = QuickMatch(
        players.queue,
        service.lobby,
        rating=accounts.shown_rating,
        avoided=players.moderation.avoided,
        finishing=players.accounts.reliability,
    )
    quick.run(lambda: 0 in service.keeper.held)
    tournaments = Tournaments(
        players.tournaments, service.lobby, pubsub, rating=accounts.shown_rating, is_bot=bots.is_bot, clock=clock
    )
    runner = TournamentRunner(tournaments)
    if s.tournament_events is not None:
        runner.recurring = Recurring(tournaments, load_events(s.tournament_events)).make
    runner.run(lambda: 0 in service.keeper.held, s.tournament_every)
    mailer = start_mailer(
        players.email,
        accounts,
        limiter,
        smtp_url=s.smtp_url,
        email_secret=s.email_secret,
        mail_from=s.mail_from,
        public_url=s.public_url,
        remind_hours=s.remind_hours,
        clock=clock,
    )
    pusher = start_pusher(
        players.push,
        key_file=s.vapid_key,
        subject=_push_subject(s),
        origins=s.push_origins,
        clock=clock,
        interval=s.push_every,
    )
    runner.starting = lambda row, accounts: pusher.tournament_starting(row.id, accounts)
    if s.on_invited is None:
        hooks = [_mail_invitation(mailer)] if mailer is not None else []
        friends.on_invited = _each(*hooks, lambda i: pusher.invited(i.invitee_id, i.inviter, i.table_id))
    return AccountParts(
        accounts=accounts,
        tokens=tokens,
        bots=bots,
        community=community,
        moderation=moderation,
        friends=friends,
        quick=quick,
        tournaments=tournaments,
        tournament_runner=runner,
        mailer=mailer,
        pusher=pusher,
    )


def _push_subject(s: Settings) -> str:
    if s.push_subject:
        return s.push_subject
    if s.mail_from:
        return f"mailto:{s.mail_from}"
    return s.public_url or "mailto:operator@localhost"


def _each(*hooks: InvitedHook) -> InvitedHook:
    """One hook awaiting each of ``hooks`` in turn; one's failure is logged, the others run."""

    async def hook(invitation: Any) -> None:
        for each in hooks:
            try:
                await each(invitation)
            except Exception:
                log.exception("an invitation's hook failed for invitation %s", getattr(invitation, "id", "?"))

    return hook


def _mail_invitation(mailer: Mailer) -> InvitedHook:
    """Friends' invitations by email: queued only for an invitee who confirmed an address
    and chose invitations (:meth:`ghostparty.server.mail.mailer.Mailer.invitation`)."""

    async def hook(invitation: Any) -> None:
        await mailer.invitation(
            invitation.invitee_id, invitation.inviter, f"{mailer.public_url}/t/{invitation.table_id}"
        )

    return hook
