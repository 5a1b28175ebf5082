"""What a running instance is made of, as the routes see it: one typed object.

The lifespan (:func:`ghostparty.server.wiring.running`) makes one :class:`Parts` and
keeps it as ``app.state.parts``; the routes reach it only through :func:`parts_of`, and
the account features through :func:`account_parts_of` (or :func:`accounts_of`), which
refuse with ``no_accounts`` on a server that keeps none. A feature an instance doesn't
have is ``None`` here, by type.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from starlette.applications import Starlette
from starlette.requests import HTTPConnection

from ghostparty.server.common.errors import ErrorCode, ServiceError

if TYPE_CHECKING:
    from ghostparty.server.accounts.service import Accounts
    from ghostparty.server.accounts.tokens import ApiTokens
    from ghostparty.server.botapi.api import BotApi
    from ghostparty.server.bus.catchup import CatchUp
    from ghostparty.server.bus.pubsub import PubSub
    from ghostparty.server.community.blocks import Community
    from ghostparty.server.community.friends import Friends
    from ghostparty.server.community.moderation import Moderation
    from ghostparty.server.http.quotas import Quotas
    from ghostparty.server.http.socket_limits import Sockets
    from ghostparty.server.mail.mailer import Mailer
    from ghostparty.server.push.service import Pusher
    from ghostparty.server.puzzles.service import Puzzles
    from ghostparty.server.quickmatch.service import QuickMatch
    from ghostparty.server.reviews.mistakes import MistakeJudge
    from ghostparty.server.reviews.pool import Reviewer
    from ghostparty.server.reviews.queue import RedisReviewer
    from ghostparty.server.tables.service import TableService
    from ghostparty.server.tournaments.runner import TournamentRunner
    from ghostparty.server.tournaments.service import Tournaments

#: What a server without a database answers a route of the account features.
NO_ACCOUNTS = "this server keeps no accounts (it has no database)"


@dataclass(frozen=True)
class AccountParts:
    """The account features: there only where a database keeps players."""

    #: Players, sessions, ratings and profiles.
    accounts: Accounts
    #: Personal API tokens.
    tokens: ApiTokens
    #: The Bot API: bot accounts, their event streams and invitations.
    bots: BotApi
    #: Blocks, mutes and reports.
    community: Community
    #: The moderators' queue, actions and audit log.
    moderation: Moderation
    #: Follows and invitations.
    friends: Friends
    #: The quick-match queue.
    quick: QuickMatch
    #: Tournaments: create, join, leave, cancel.
    tournaments: Tournaments
    #: What starts, pairs and records the tournaments.
    tournament_runner: TournamentRunner
    #: Email, where the server was started with ``smtp_url``.
    mailer: Mailer | None
    #: Web Push notifications to the accounts' devices.
    pusher: Pusher | None = None


@dataclass(frozen=True)
class Parts:
    """One instance's parts, made by the lifespan for its lifetime."""

    #: The game tables.
    service: TableService
    #: Change notices (between instances where Redis carries them).
    pubsub: PubSub
    #: The limits per address and account.
    quotas: Quotas
    #: The WebSockets open per address and API token.
    sockets: Sockets
    #: What looks for updates a client of this instance missed.
    catch_up: CatchUp
    #: The game reviews: in a local process pool, or rq jobs in Redis.
    reviewer: Reviewer | RedisReviewer
    #: The puzzles (in the database, or in memory on a server without one).
    puzzles: Puzzles
    #: Attempts at one's own mistakes, judged by the review's search.
    mistakes: MistakeJudge
    #: The token a scraper of ``/metrics`` brings (else this machine alone may read it).
    metrics_token: str | None
    #: The token an operator brings to close tables.
    admin_token: str | None
    #: ``ghostparty export``'s folder, served at ``/open-data``.
    open_data: Path | None
    #: Other sites whose pages may post here.
    allowed_origins: frozenset[str]
    #: The account features, or ``None`` on a server that keeps no accounts.
    accounts: AccountParts | None


def parts_of(where: HTTPConnection | Starlette) -> Parts:
    """The parts of the instance a request or WebSocket (or an app) belongs to."""
    app = where.app if isinstance(where, HTTPConnection) else where
    parts = app.state.parts
    if not isinstance(parts, Parts):
        raise RuntimeError("the app's parts are made by its lifespan, which hasn't run")
    return parts


def account_parts_of(where: HTTPConnection | Starlette, refusal: str = NO_ACCOUNTS) -> AccountParts:
    """The account features; ``no_accounts`` (saying ``refusal``) on a server without them."""
    found = parts_of(where).accounts
    if found is None:
        raise ServiceError(ErrorCode.NO_ACCOUNTS, refusal)
    return found


def accounts_of(where: HTTPConnection | Starlette) -> Accounts:
    """The accounts; ``no_accounts`` on a server without them."""
    return account_parts_of(where).accounts
