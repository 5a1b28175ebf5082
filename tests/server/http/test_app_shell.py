"""The app to install: the manifest, the service worker and the offline page, over HTTP
(``client``: tests/fixtures/clients.py).

(In a browser: tests/browser/test_installable.py.)
"""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

from starlette.testclient import TestClient

from ghostparty.server.http.routes.app_shell import manifest_language, preferred_languages

STATIC = Path(__file__).parents[3] / "src" / "ghostparty" / "web" / "static"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header (its first chunk, IHDR)."""
    assert data[:8] == PNG_SIGNATURE, "not a PNG file"
    assert data[12:16] == b"IHDR", "a PNG's first chunk is IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_names_the_app_its_start_and_its_colours(client: TestClient) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/manifest+json")
    assert response.headers["cache-control"] == "no-cache"
    manifest = response.json()
    assert manifest["name"] == "Ghost Party"
    assert 0 < len(manifest["short_name"]) <= 12
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    night = re.search(r"--night:\s*(#[0-9a-f]{6})", (STATIC / "css" / "style.css").read_text()).group(1)  # type: ignore[union-attr]
    assert manifest["background_color"] == manifest["theme_color"] == night
    english = json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8"))
    assert manifest["lang"] == "en" and manifest["description"] == english["app.tagline"]


def test_the_manifest_speaks_the_language_the_browser_asks_for(client: TestClient) -> None:
    german = json.loads((STATIC / "i18n" / "de.json").read_text(encoding="utf-8"))
    manifest = client.get("/manifest.webmanifest", headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.8"}).json()
    assert manifest["lang"] == "de" and manifest["description"] == german["app.tagline"]
    unknown = client.get("/manifest.webmanifest", headers={"Accept-Language": "xx-YY"}).json()
    assert unknown["lang"] == "en"


def test_accept_language_is_read_by_its_weights() -> None:
    assert preferred_languages("en;q=0.5, de-AT, fr;q=0") == ["de-at", "en"]
    assert preferred_languages("") == []
    assert manifest_language("en;q=0.2,de;q=0.9") == "de"


def test_the_manifests_icons_are_pngs_of_the_sizes_it_declares(client: TestClient) -> None:
    icons = client.get("/manifest.webmanifest").json()["icons"]
    purposes: dict[str, set[str]] = {}
    for icon in icons:
        response = client.get(icon["src"])
        assert response.status_code == 200, icon["src"]
        assert icon["type"] == "image/png" == response.headers["content-type"]
        width, height = png_size(response.content)
        assert icon["sizes"] == f"{width}x{height}", icon["src"]
        purposes.setdefault(icon["purpose"], set()).add(icon["sizes"])
    assert {"192x192", "512x512"} <= purposes["any"]
    assert "512x512" in purposes["maskable"]


def test_the_maskable_icon_is_opaque_to_its_edges() -> None:
    """A maskable icon's background fills the square (the mask may cut anywhere outside the
    safe zone): its PNG has no alpha channel (colour type 2, truecolour)."""
    data = (STATIC / "icons" / "icon-maskable-512.png").read_bytes()
    assert png_size(data) == (512, 512)
    assert data[25] == 2, "expected an opaque truecolour PNG (colour type 2)"


def test_every_page_links_the_manifest_a_theme_colour_and_a_touch_icon(client: TestClient) -> None:
    pages = ["/", "/t/abc", "/login", "/players/ann", "/leaderboard", "/moderation", "/tournaments"]
    pages += ["/tournaments/x", "/email/reset", "/r/abc", "/replay", "/open-data", "/offline"]
    pages += ["/analysis", "/puzzles"]
    assert len(pages) == len(list(STATIC.glob("*.html"))) + 1  # /r/ and /replay share a page
    for page in pages:
        response = client.get(page, headers={"Accept": "text/html"})
        assert response.status_code == 200, page
        html = response.text
        assert '<link rel="manifest" href="/manifest.webmanifest">' in html, page
        assert re.search(r'<meta name="theme-color" content="#[0-9a-f]{6}">', html), page
        touch = re.search(r'<link rel="apple-touch-icon" href="(/assets/[0-9a-f]{12}/icons/[\w-]+\.png)">', html)
        assert touch, page
        assert png_size(client.get(touch.group(1)).content) == (180, 180)


def test_the_service_worker_is_a_classic_script_revalidated_each_time(client: TestClient) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/javascript")
    assert response.headers["cache-control"] == "no-cache"
    assert "service-worker-allowed" not in response.headers  # its own folder, /, is its scope
    body = response.text
    assert not re.search(r"^\s*(import|export)\b", body, re.MULTILINE), "a classic worker has no import/export"
    assert body.endswith((STATIC / "sw.js").read_text(encoding="utf-8"))


def test_the_service_worker_keeps_the_current_versions_files_and_the_shell_pages(client: TestClient) -> None:
    first = client.get("/sw.js").text.splitlines()[0]
    shell = json.loads(first.removeprefix("const SHELL = ").removesuffix(";"))
    lobby = client.get("/").text
    version = re.search(r"/assets/([0-9a-f]{12})/", lobby).group(1)  # type: ignore[union-attr]
    assert shell["version"] == version
    assert set(shell["pages"]) == {"/", "/offline"}
    # Every script, style and icon a page names is kept, and every kept file is there.
    named = set(re.findall(r'(?:src|href)="(/assets/[^"]+)"', lobby))
    named |= set(re.findall(r'(?:src|href)="(/assets/[^"]+)"', client.get("/offline").text))
    assert named <= set(shell["assets"])
    assert f"/assets/{version}/i18n/de.json" in shell["assets"]
    assert not [url for url in shell["assets"] if url.endswith(".html")]
    for url in shell["assets"][:: max(1, len(shell["assets"]) // 12)]:
        assert client.get(url).status_code == 200, url


def test_the_offline_page_says_playing_needs_the_network(client: TestClient) -> None:
    response = client.get("/offline")
    assert response.status_code == 200 and response.headers["cache-control"] == "no-cache"
    english = json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8"))
    assert english["offline.needs_network"] in response.text
    assert 'data-testid="offline-again"' in response.text
    assert re.search(r'src="/assets/[0-9a-f]{12}/js/pages/offline\.js"', response.text)


def test_the_security_policy_lets_the_worker_and_the_manifest_come_from_this_site(client: TestClient) -> None:
    """``worker-src`` and ``manifest-src`` fall back to ``default-src``, which must allow 'self'."""
    policy = client.get("/").headers["content-security-policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    for name in ("worker-src", "manifest-src"):
        assert "'self'" in directives.get(name, directives["default-src"])
