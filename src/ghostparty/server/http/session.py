"""Who a request is from (the session cookie, or an API token: :mod:`ghostparty.server.http.bearer`); shared
by the routes of every domain (the parts they reach: :mod:`ghostparty.server.http.parts`)."""

from __future__ import annotations

from starlette.requests import Request

from ghostparty.server.accounts.store import Player
from ghostparty.server.common.errors import ErrorCode, ServiceError
from ghostparty.server.http.bearer import bearer_of
from ghostparty.server.http.parts import parts_of
from ghostparty.server.http.quotas import address_of
from ghostparty.server.infra.limits import Limit

COOKIE = "gp_session"
CSRF_HEADER = "x-csrf-token"


async def current(request: Request, *, changing: bool) -> tuple[Player, str] | None:
    """The logged-in player and their session token, or ``None`` for a guest.

    A request that changes something (``changing``) and relies on the session must carry
    the session's CSRF token in the ``X-CSRF-Token`` header: ``csrf`` (403) if not. A
    request authenticated by an API token (:mod:`ghostparty.server.http.bearer`) is its owner's, whatever
    cookie it carries, and needs no CSRF header; its session is ``""`` (the routes that
    use the session are ``session`` routes, which refuse tokens before they run).
    """
    bearer = bearer_of(request)
    if bearer is not None:
        return bearer.player, ""
    token = request.cookies.get(COOKIE)
    parts = parts_of(request).accounts
    if not token or parts is None:
        return None
    accounts = parts.accounts
    player = await accounts.session(token)
    if player is None:
        return None
    if changing and not accounts.csrf_ok(token, request.headers.get(CSRF_HEADER)):
        raise ServiceError(ErrorCode.CSRF, "this request needs the page's X-CSRF-Token header (reload the page)")
    return player, token


async def counted_player(
    request: Request,
    kind: str,
    limits: tuple[Limit, ...],
    refusal: str,
    *,
    changing: bool,
    address_limits: tuple[Limit, ...] | None = None,
) -> Player:
    """The logged-in player, after counting this use of ``kind`` for them and their
    address; ``login_required`` (401, saying ``refusal``) for a guest, counted per address
    all the same."""
    found = await current(request, changing=changing)
    await parts_of(request).quotas.use(
        kind, limits, address_of(request), found[0].id if found is not None else None, address_limits
    )
    if found is None:
        raise ServiceError(ErrorCode.LOGIN_REQUIRED, refusal)
    return found[0]
