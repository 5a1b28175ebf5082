"""The browser client's files: versioned URLs that browsers keep, pages that name them.

Every file under ``ghostparty/web/static`` is also served at
``/assets/{version}/{path}``, where ``version`` is a hash of all of them: such a URL
never changes meaning, so it is sent with ``Cache-Control: public, max-age=31536000,
immutable`` and a browser asks for it once. The pages (HTML) are sent with ``no-cache``
(an ETag lets the browser revalidate them in one small request) and name their scripts
and styles by the versioned URL; the ES modules import each other by relative URLs, so
a whole page's modules come from one version. The plain ``/static/{path}`` stays, with
``no-cache``, for anything that names a file directly. Compression is the application's
(``GZipMiddleware``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable
from importlib.resources import files
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Message, Receive, Scope, Send

#: For a URL whose content never changes.
IMMUTABLE = "public, max-age=31536000, immutable"
#: For anything that may change: the browser revalidates it each time (ETag).
REVALIDATE = "no-cache"


class Assets:
    """The client's files in ``directory``, served with caching headers."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.files = StaticFiles(directory=directory, check_dir=False)
        self._signature: tuple[tuple[str, int, int], ...] = ()
        self._version = ""

    def version(self) -> str:
        """A hash of every file's path and content (12 hex digits), worked out again
        only when a file's size or modification time changed."""
        paths = sorted(path for path in self.directory.rglob("*") if path.is_file())
        stats = [(path, path.stat()) for path in paths]
        signature = tuple((str(path), stat.st_mtime_ns, stat.st_size) for path, stat in stats)
        if signature != self._signature:
            digest = hashlib.sha256()
            for path in paths:
                digest.update(path.relative_to(self.directory).as_posix().encode() + b"\0")
                digest.update(path.read_bytes() + b"\0")
            self._version, self._signature = digest.hexdigest()[:12], signature
        return self._version

    async def asset(self, request: Request) -> Response:
        """``/assets/{version}/{path}``: the file, kept for good if the version is current."""
        response = await self.files.get_response(request.path_params["path"], request.scope)
        current = request.path_params["version"] == self.version()
        if response.status_code in (200, 304):
            response.headers["Cache-Control"] = IMMUTABLE if current else REVALIDATE
        return response

    async def plain(self, scope: Scope, receive: Receive, send: Send) -> None:
        """``/static/{path}`` (an ASGI app to mount): the file, revalidated each time."""

        async def send_revalidated(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"cache-control"]
                message["headers"] = [*headers, (b"cache-control", REVALIDATE.encode())]
            await send(message)

        await self.files(scope, receive, send_revalidated)

    def page(self, name: str, missing: Callable[[str], Exception]) -> Callable[[Request], Awaitable[Response]]:
        """The endpoint of an HTML page: its ``/static/`` links made versioned
        (``missing(name)`` is raised when the file is not installed)."""

        async def endpoint(request: Request) -> Response:
            path = self.directory / name
            if not path.is_file():
                raise missing(name)
            version = self.version()
            html = path.read_text(encoding="utf-8")
            html = html.replace('="/static/', f'="/assets/{version}/')
            etag = '"' + hashlib.sha256(html.encode()).hexdigest()[:16] + '"'
            headers = {"Cache-Control": REVALIDATE, "ETag": etag}
            if etag in request.headers.get("if-none-match", ""):
                return Response(status_code=304, headers=headers)
            return Response(html, media_type="text/html", headers=headers)

        return endpoint


#: The installed client's files.
STATIC = Path(str(files("ghostparty.web") / "static"))
#: Their server: the pages and every file's versioned URL.
ASSETS = Assets(STATIC)
