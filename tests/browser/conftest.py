"""The browser tests' shared pieces: the server on a free port and Debian's Chromium.

A module may set ``SERVER_SEED`` (default 1) for its server's table ids and seeds.
Every test here is skipped, with a message, where Playwright or /usr/bin/chromium is
missing; nothing ever runs ``playwright install``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.serving import serving

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def base_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The whole server on a free loopback port: a fresh SQLite file, bots without pauses."""
    pytest.importorskip("uvicorn", reason="uvicorn is not installed")
    from ghostparty.server.app import create_app

    database = tmp_path_factory.mktemp(request.module.__name__.rpartition(".")[2]) / "games.db"
    app = create_app(f"sqlite:///{database}", bot_delay=0.0, seed=getattr(request.module, "SERVER_SEED", 1))
    with serving(app) as port:
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install playwright)")
    if not CHROMIUM.exists():
        pytest.skip("Debian's Chromium is not installed at /usr/bin/chromium (apt-get install chromium)")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        yield launched
        launched.close()
