"""Serving the open game data, and an account's choice to stay out of it (docs/PROTOCOL.md).

``ghostparty serve --open-data DIR`` serves the files ``ghostparty export --out DIR``
wrote: ``GET /api/open-data`` the index (each month's files and the puzzles', sizes and SHA-256s) and
``GET /open-data/{file}`` a file (ranges allowed, so a broken download resumes). Only the
names the export writes are served — never the pseudonym key, nothing outside DIR.
Downloads are limited per address. ``GET /open-data`` is the page that says what the
files are (on every server, with files or not) to a browser, and the index to a client
that doesn't ask for HTML.
"""

from __future__ import annotations

import json
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Route

from ghostparty.server.common.errors import ErrorCode, ServiceError, in_thread
from ghostparty.server.http.assets import ASSETS
from ghostparty.server.http.bodies import json_body
from ghostparty.server.http.parts import accounts_of, parts_of
from ghostparty.server.http.quotas import LIST_CHANGES, LIST_READS, Quotas, address_of
from ghostparty.server.http.responses import JSONResponse
from ghostparty.server.http.schemas import OpenDataChoice
from ghostparty.server.http.session import current
from ghostparty.server.infra.limits import Limit
from ghostparty.server.opendata.export import FORMAT, SERVED

#: Files (and index reads) one address may fetch.
DOWNLOADS = (Limit(60, 3600, "at most 60 open-data downloads an hour"),)
#: Parquet's media type (IANA, 2024).
PARQUET = "application/vnd.apache.parquet"


def _folder(request: Request) -> Path:
    folder = parts_of(request).open_data
    if folder is None:
        raise ServiceError(ErrorCode.NO_OPEN_DATA, "this server publishes no open game data")
    return folder


async def _counted(request: Request) -> None:
    quotas: Quotas = parts_of(request).quotas
    await quotas.use("open-data", DOWNLOADS, address_of(request), None)


def _missing(name: str) -> Exception:
    return ServiceError(ErrorCode.NOT_FOUND, f"the client file {name} is missing from this installation")


#: The page about the open data (open-data.html).
PAGE = ASSETS.page("open-data.html", _missing)


def wants_html(accept: str) -> bool:
    """Whether an ``Accept`` header asks for HTML before JSON: a browser's does
    (``text/html,…,*/*;q=0.8``); ``*/*``, none, or JSON first is a program's."""
    quality = {"text/html": 0.0, "application/json": 0.0}
    for part in accept.split(","):
        media, *params = (piece.strip() for piece in part.split(";"))
        if media.lower() not in quality:
            continue
        weight = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        quality[media.lower()] = max(quality[media.lower()], weight)
    return quality["text/html"] > 0 and quality["text/html"] >= quality["application/json"]


async def page_or_index(request: Request) -> Response:
    """``GET /open-data``: the page to a browser, the index to a program (``Vary: Accept``)."""
    response = await (PAGE if wants_html(request.headers.get("accept", "")) else index)(request)
    response.headers["Vary"] = "Accept"
    return response


async def index(request: Request) -> Response:
    """``GET /api/open-data``: the export's ``index.json``; before the first export, one
    with no months and no puzzles."""
    folder = _folder(request)
    await _counted(request)
    path = folder / "index.json"
    if not path.is_file():
        return JSONResponse({"format": FORMAT, "generated": None, "months": [], "puzzles": None})
    return JSONResponse(json.loads(await in_thread(path.read_text, "utf-8")))


async def download(request: Request) -> Response:
    folder = _folder(request)
    name = request.path_params["name"]
    if not SERVED.match(name):
        raise ServiceError(ErrorCode.NOT_FOUND, f"no open-data file {name!r}: GET /api/open-data lists them")
    await _counted(request)
    path = folder / name
    if not path.is_file():
        raise ServiceError(ErrorCode.NOT_FOUND, f"no open-data file {name!r}: GET /api/open-data lists them")
    media = PARQUET if name.endswith(".parquet") else "application/gzip" if name.endswith(".gz") else None
    headers = {"Cache-Control": "public, max-age=3600"}
    return FileResponse(path, media_type=media or "text/plain; charset=utf-8", filename=name, headers=headers)


async def open_data_choice(request: Request) -> Response:
    """``GET``/``POST /api/account/open-data``: whether the player's name is kept out of
    the open game data (``{"opt_out": true}``: a pseudonym stands for it from the next export)."""
    changing = request.method == "POST"
    found = await current(request, changing=changing)
    quotas: Quotas = parts_of(request).quotas
    limits = LIST_CHANGES if changing else LIST_READS
    await quotas.use("open-data-choice", limits, address_of(request), found[0].id if found is not None else None)
    if found is None:
        raise ServiceError(ErrorCode.LOGIN_REQUIRED, "log in first: guests' names are always pseudonymised")
    store = accounts_of(request).store
    if changing:
        body = await json_body(request, OpenDataChoice)
        await in_thread(store.set_open_data_opt_out, found[0].id, body.opt_out)
    return JSONResponse({"opt_out": await in_thread(store.open_data_opt_out, found[0].id)})


routes = [
    Route("/open-data", page_or_index, methods=["GET"]),
    Route("/api/open-data", index, methods=["GET"]),
    Route("/open-data/{name}", download, methods=["GET"]),
    Route("/api/account/open-data", open_data_choice, methods=["GET", "POST"]),
]
