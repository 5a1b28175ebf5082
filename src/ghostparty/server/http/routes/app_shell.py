"""Ghost Party as an app to install: its manifest, its service worker and the offline page.

``GET /manifest.webmanifest`` names the app, its colours and icons (``static/icons/``,
drawn by ``scripts/render_icons.py``), its description in the language the browser asks
for. ``GET /sw.js`` is the service worker (``static/sw.js``, a classic script) with the
current asset version and the list of files it keeps for starting offline put in front
of it: a new version is a new script, so browsers install it and drop the old caches.
``GET /offline`` is the page the worker shows for a page it has not kept while the
network is away. All three are sent with ``no-cache``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ghostparty.server.common.errors import ErrorCode, ServiceError
from ghostparty.server.http.assets import ASSETS, REVALIDATE, STATIC

#: The manifest's media type (W3C Web App Manifest).
MANIFEST_TYPE = "application/manifest+json"
#: The site's background and the browser's bar (``--night`` in static/css/style.css).
NIGHT = "#15121d"
#: The pages the worker keeps from its install: the offline page and the lobby (the app's start).
SHELL_PAGES = ("/offline", "/")
#: The icons the manifest names: file under static/icons/, size, purpose.
ICONS = (
    ("icon-192.png", 192, "any"),
    ("icon-512.png", 512, "any"),
    ("icon-maskable-512.png", 512, "maskable"),
)
#: Fallback language of the manifest (the client's too).
FALLBACK = "en"


def _missing(name: str) -> Exception:
    return ServiceError(ErrorCode.NOT_FOUND, f"the client file {name} is missing from this installation")


def preferred_languages(header: str) -> list[str]:
    """The language codes of an ``Accept-Language`` header, most wanted first
    (``"de-DE,de;q=0.9,en;q=0.8"`` → ``["de-de", "de", "en"]``); ``q=0`` is left out."""
    weighted: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if tag.strip() and quality > 0:
            weighted.append((-quality, index, tag.strip().lower()))
    return [tag for _, _, tag in sorted(weighted)]


def manifest_language(header: str) -> str:
    """The client's language (a file ``static/i18n/<code>.json``) that ``header`` prefers, else English."""
    offered = {path.stem for path in (STATIC / "i18n").glob("*.json")}
    for tag in preferred_languages(header):
        for code in (tag, tag.split("-")[0]):
            if code in offered:
                return code
    return FALLBACK


def web_manifest(language: str) -> dict[str, Any]:
    """The web app manifest, its description in ``language``."""
    try:
        strings = json.loads((STATIC / "i18n" / f"{language}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        strings = {}
    return {
        "id": "/",
        "name": "Ghost Party",
        "short_name": "Ghost Party",
        "description": strings.get("app.tagline", "Hugo the castle ghost's board game, online."),
        "lang": language,
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": NIGHT,
        "theme_color": NIGHT,
        "categories": ["games", "entertainment"],
        "icons": [
            {"src": f"/static/icons/{name}", "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
            for name, size, purpose in ICONS
        ],
    }


async def manifest(request: Request) -> Response:
    language = manifest_language(request.headers.get("accept-language", ""))
    body = json.dumps(web_manifest(language), ensure_ascii=False, indent=1)
    headers = {"Cache-Control": REVALIDATE, "Vary": "Accept-Language"}
    return Response(body, media_type=MANIFEST_TYPE, headers=headers)


def shell_files(version: str) -> list[str]:
    """The versioned URLs of every client file a page may load (all but the pages' HTML
    and the worker itself): what the worker keeps at its install."""
    paths = sorted(
        path.relative_to(STATIC).as_posix()
        for path in STATIC.rglob("*")
        if path.is_file() and path.suffix != ".html" and path.name != "sw.js"
    )
    return [f"/assets/{version}/{path}" for path in paths]


@lru_cache(maxsize=2)
def worker_script(version: str) -> str:
    """``static/sw.js`` after a line that gives it ``SHELL``: the version, its files, the pages."""
    shell = {"version": version, "assets": shell_files(version), "pages": list(SHELL_PAGES)}
    source = (STATIC / "sw.js").read_text(encoding="utf-8")
    return f"const SHELL = {json.dumps(shell)};\n{source}"


async def service_worker(request: Request) -> Response:
    if not (STATIC / "sw.js").is_file():
        raise _missing("sw.js")
    return Response(
        worker_script(ASSETS.version()), media_type="text/javascript", headers={"Cache-Control": REVALIDATE}
    )


routes = [
    Route("/manifest.webmanifest", manifest, methods=["GET"]),
    Route("/sw.js", service_worker, methods=["GET"]),
    Route("/offline", ASSETS.page("offline.html", _missing), methods=["GET"]),
]
