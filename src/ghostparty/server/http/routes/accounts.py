"""The HTTP endpoints of accounts, profiles and leaderboards (docs/PROTOCOL.md)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ghostparty.server.accounts.service import SESSION_DAYS
from ghostparty.server.accounts.store import Player, Profile
from ghostparty.server.common.errors import ErrorCode, ServiceError, in_thread
from ghostparty.server.common.languages import codes
from ghostparty.server.common.ratings import provisional, shown
from ghostparty.server.http.bearer import bearer_of
from ghostparty.server.http.bodies import json_body
from ghostparty.server.http.parts import account_parts_of, accounts_of, parts_of
from ghostparty.server.http.quotas import LANGUAGE_CHOICES, LANGUAGE_CHOICES_ADDRESS, RECORD_READS, address_of
from ghostparty.server.http.responses import JSONResponse
from ghostparty.server.http.schemas import Credentials, HeldSeats, LanguageChoice, NewPassword, Password
from ghostparty.server.http.session import COOKIE, current
from ghostparty.server.tables.standings import Reliability
from ghostparty.server.wire.codec import time_text


def _player_json(player: Player) -> dict[str, Any]:
    return {"name": player.name, "created": time_text(player.created)}


def _signed_in(request: Request, player: Player, token: str, status: int = 200) -> Response:
    response = JSONResponse(
        {"player": _player_json(player), "csrf": accounts_of(request).csrf(token)}, status_code=status
    )
    response.set_cookie(
        COOKIE,
        token,
        max_age=SESSION_DAYS * 86400,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return response


def _signed_out() -> Response:
    response = JSONResponse({"player": None})
    response.delete_cookie(COOKIE, httponly=True, samesite="lax")
    return response


async def account(request: Request) -> Response:
    found = await current(request, changing=False)
    if found is None:
        return JSONResponse({"player": None})
    player, token = found
    parts = account_parts_of(request)  # a session or a token: accounts are on
    moderator = (await parts.community.standing(player.id)).moderator
    bearer = bearer_of(request)
    shown_player = {
        **_player_json(player),
        "bot_account": await parts.bots.is_bot(player.id),
        "language": await in_thread(parts.accounts.store.language, player.id),
    }
    if bearer is not None:  # a program's token: no CSRF token (it needs none), its scopes
        return JSONResponse({"player": shown_player, "moderator": moderator, "scopes": bearer.token.scopes})
    return JSONResponse({"player": shown_player, "csrf": accounts_of(request).csrf(token), "moderator": moderator})


async def register(request: Request) -> Response:
    accounts = accounts_of(request)
    body = await json_body(request, Credentials)
    player, token = await accounts.register(body.name, body.password, address_of(request))
    await accounts.link(player, [(s.table, s.seat, s.token) for s in body.seats])
    return _signed_in(request, player, token, 201)


async def login(request: Request) -> Response:
    accounts = accounts_of(request)
    body = await json_body(request, Credentials)
    player, token = await accounts.login(body.name, body.password, address_of(request))
    await accounts.link(player, [(s.table, s.seat, s.token) for s in body.seats])
    return _signed_in(request, player, token)


async def logout(request: Request) -> Response:
    found = await current(request, changing=True)
    if found is not None:
        await accounts_of(request).logout(found[1])
    return _signed_out()


async def change_password(request: Request) -> Response:
    player, session = await _required(request)
    body = await json_body(request, NewPassword)
    token = await accounts_of(request).change_password(player, session, body.old, body.new)
    return _signed_in(request, player, token)


async def delete_account(request: Request) -> Response:
    player, session = await _required(request)
    body = await json_body(request, Password)
    parts = account_parts_of(request)
    held = await parts.tokens.of_player(player)
    await parts.accounts.delete(player, session, body.password)
    await parts.tokens.closed([token.id for token in held])  # its tokens went with it: their sockets close
    return _signed_out()


async def link_seats(request: Request) -> Response:
    player, _token = await _required(request)
    body = await json_body(request, HeldSeats)
    linked = await accounts_of(request).link(player, [(s.table, s.seat, s.token) for s in body.seats])
    return JSONResponse({"linked": [{"table": table, "seat": seat} for table, seat in linked]})


async def _required(request: Request) -> tuple[Player, str]:
    found = await current(request, changing=True)
    if found is None:
        raise ServiceError(ErrorCode.LOGIN_REQUIRED, "log in first")
    return found


async def player_profile(request: Request) -> Response:
    found = await current(request, changing=False)
    profile = await accounts_of(request).profile(request.path_params["name"], found[0] if found else None)
    own = found is not None and found[0].id == profile.player.id
    data = profile_json(profile, own=own)
    # a bot account (docs/PROTOCOL.md, Bot API): its name shows with a BOT tag
    data["bot_account"] = await account_parts_of(request).bots.is_bot(profile.player.id)
    return JSONResponse(data)


def profile_json(profile: Profile, *, own: bool) -> dict[str, Any]:
    player = profile.player
    data: dict[str, Any] = {
        "name": player.name,
        "kind": player.kind,
        "created": time_text(player.created),
        "ratings": {
            stats.rules: {
                "rating": shown(stats.rating.mu),
                "provisional": player.kind == "user" and provisional(stats.rating.sigma),
                "games": stats.games,
                "rated_games": stats.rated_games,
                "wins": stats.wins,
                "mean_points": stats.mean_points,
                "history": [
                    {"table": table, "ended": time_text(ended), "rating": shown(rating.mu)}
                    for table, ended, rating in stats.history
                ],
            }
            for stats in profile.stats
        },
        "games": [
            {
                "table": game["table_id"],
                "rules": game["rules"],
                "ended": time_text(game["ended"]),
                "seat": game["seat"],
                "points": game["points"],
                "place": game["place"],
                "players": game["players"],
                "won": bool(game["won"]),
                "rated": bool(game["rated"]),
                "rating_change": (
                    shown(game["mu_after"]) - shown(game["mu_before"]) if game["mu_after"] is not None else None
                ),
            }
            for game in profile.games
        ],
    }
    if profile.reliability is not None:
        data["reliability"] = reliability_json(profile.reliability)
    if own:
        data["tables"] = [
            {"id": table, "rules": rules, "status": status, "seat": seat, "your_move": mine}
            for table, rules, status, seat, mine in profile.tables
        ]
    return data


def reliability_json(record: Reliability) -> dict[str, Any]:
    """``{"games", "finished", "percent"}``: the page says "finished 97 % of 120 games"."""
    share = record.share
    return {
        "games": record.games,
        "finished": record.finished,
        "percent": None if share is None else int(share * 100),  # rounded down: 99.6 % is not 100 %
    }


#: Names one request may ask about: a table's seats.
MAX_RECORD_NAMES = 8


async def records(request: Request) -> Response:
    """``GET /api/records?players=a&players=b``: how often each registered person finished
    their games (for a table's seats); guests, bots and unknown names are left out."""
    found = await current(request, changing=False)
    await parts_of(request).quotas.use(
        "records", RECORD_READS, address_of(request), found[0].id if found is not None else None
    )
    names = request.query_params.getlist("players")
    if not names or len(names) > MAX_RECORD_NAMES:
        raise ServiceError(ErrorCode.BAD_REQUEST, f"name 1 to {MAX_RECORD_NAMES} players: ?players=NAME&players=NAME")
    if any(not 1 <= len(name) <= 40 for name in names):
        raise ServiceError(ErrorCode.BAD_REQUEST, "a player's name has 1 to 40 characters")
    parts = account_parts_of(request)
    counted = await parts.accounts.reliability(names)
    answer = {
        "players": {name: reliability_json(record) for name, record in counted.items()},
        # bot accounts among the names: pages tag them BOT (docs/PROTOCOL.md, Bot API)
        "bots": await parts.bots.bot_names(names),
    }
    return JSONResponse(answer)


async def leaderboard(request: Request) -> Response:
    rules = request.path_params["rules"]
    if rules not in ("hugo", "midnight-party"):
        raise ServiceError(ErrorCode.UNKNOWN_RULES, f"no rules {rules!r}: expected 'hugo' or 'midnight-party'")
    try:
        limit = min(max(int(request.query_params.get("limit", "50")), 1), 200)
    except ValueError:
        raise ServiceError(ErrorCode.BAD_REQUEST, "limit must be a whole number, 1 to 200") from None
    bots = request.query_params.get("bots", "0")
    if bots not in ("0", "1"):
        raise ServiceError(ErrorCode.BAD_REQUEST, "bots is 1 (the bot accounts' leaderboard) or 0 (the people's)")
    found = await current(request, changing=False)
    rows = await accounts_of(request).leaderboard(rules, bots == "1")
    listed = []
    you = None
    for rank, (player_id, name, kind, rating, games) in enumerate(rows, start=1):
        row = {
            "rank": rank,
            "name": name,
            "kind": kind,
            "rating": shown(rating.mu),
            "games": games,
            "provisional": kind == "user" and provisional(rating.sigma),
            "bot_account": bots == "1" and kind == "user",
        }
        if rank <= limit:
            listed.append(row)
        if found is not None and found[0].id == player_id:
            you = row
    if found is not None and you is None and bots == "0":  # not ranked yet: where they stand all the same
        rating, games = await accounts_of(request).standing(found[0].id, rules)
        you = {
            "rank": None,
            "name": found[0].name,
            "kind": "user",
            "rating": shown(rating.mu),
            "games": games,
            "provisional": provisional(rating.sigma),
        }
    return JSONResponse(
        {"bots": bots == "1", "rules": rules, "min_games": accounts_of(request).min_games, "rows": listed, "you": you}
    )


async def language(request: Request) -> Response:
    """``GET``/``POST /api/account/language``: the language the player chose, kept for every
    device they log in on (``{"language": "de"}``; ``null``: none chosen yet) and the one
    their e-mails are written in."""
    changing = request.method == "POST"
    found = await current(request, changing=changing)
    limits, per_address = (LANGUAGE_CHOICES, LANGUAGE_CHOICES_ADDRESS) if changing else (RECORD_READS, RECORD_READS)
    player_id = found[0].id if found else None
    await parts_of(request).quotas.use("language", limits, address_of(request), player_id, per_address)
    if found is None:
        raise ServiceError(ErrorCode.LOGIN_REQUIRED, "log in first: a guest's language is kept by the browser")
    parts = account_parts_of(request)
    store = parts.accounts.store
    if changing:
        chosen = (await json_body(request, LanguageChoice)).language
        if chosen is not None and chosen not in codes():
            raise ServiceError(
                ErrorCode.BAD_REQUEST, f"no language {chosen!r}: one of {', '.join(codes())} was expected"
            )
        await in_thread(store.set_language, found[0].id, chosen)
        if chosen is not None and parts.mailer is not None:  # the e-mails follow (if there is an address)
            await in_thread(parts.mailer.store.choose, found[0].id, {"language": chosen})
        pushed = await in_thread(parts.pusher.store.choices, found[0].id) if parts.pusher is not None else None
        if chosen is not None and parts.pusher is not None and pushed is not None:  # and the notifications
            await in_thread(parts.pusher.store.choose, found[0].id, pushed.kinds, chosen)
    return JSONResponse({"language": await in_thread(store.language, found[0].id)})


routes = [
    Route("/api/account", account, methods=["GET"]),
    Route("/api/account/language", language, methods=["GET", "POST"]),
    Route("/api/account/register", register, methods=["POST"]),
    Route("/api/account/login", login, methods=["POST"]),
    Route("/api/account/logout", logout, methods=["POST"]),
    Route("/api/account/password", change_password, methods=["POST"]),
    Route("/api/account/delete", delete_account, methods=["POST"]),
    Route("/api/account/seats", link_seats, methods=["POST"]),
    Route("/api/players/{name}", player_profile, methods=["GET"]),
    Route("/api/leaderboard/{rules}", leaderboard, methods=["GET"]),
    Route("/api/records", records, methods=["GET"]),
]
