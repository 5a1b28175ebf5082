"""Render the installable app's icons from the ghost (src/ghostparty/web/static/ghost.svg).

    python scripts/render_icons.py

Draws each icon with Debian's Chromium (``/usr/bin/chromium``, headless, through
Playwright; never ``playwright install``) and writes the PNGs to ``static/icons/``:
``icon-192.png`` and ``icon-512.png`` (purpose ``any``: the ghost on a rounded square of
the site's night colour), ``icon-maskable-512.png`` (purpose ``maskable``: the night colour
to every edge, the ghost inside the safe zone, the centred circle of 40 % radius that every
platform's mask keeps) and ``apple-touch-icon.png`` (180 × 180, opaque: iOS rounds it).
The manifest (``ghostparty.server.http.routes.app_shell``) names them.
"""

from __future__ import annotations

import base64
from pathlib import Path

from playwright.sync_api import sync_playwright

STATIC = Path(__file__).resolve().parents[1] / "src" / "ghostparty" / "web" / "static"
CHROMIUM = "/usr/bin/chromium"
#: The site's background (``--night`` in css/style.css), also the manifest's colours.
NIGHT = "#15121d"

#: name: (size in pixels, corner radius as a share of the size, ghost's height as a share).
#: The ghost's drawing is 39 × 55 of its 64 units; at 62 % of the height its box's
#: diagonal is 76 % of the size, inside the maskable safe zone's 80 %.
ICONS = {
    "icon-192.png": (192, 0.22, 0.78),
    "icon-512.png": (512, 0.22, 0.78),
    "icon-maskable-512.png": (512, 0.0, 0.62),
    "apple-touch-icon.png": (180, 0.0, 0.70),
}


def page(size: int, radius: float, height: float) -> str:
    """An HTML page of exactly ``size`` pixels that draws one icon."""
    ghost = base64.b64encode((STATIC / "ghost.svg").read_bytes()).decode()
    # The ghost's drawing fills y 8.5–63.5 of its 64 units: the image is scaled so that
    # the drawing is ``height`` of the icon, and moved up to centre the drawing.
    scale = size * height / 55
    image = 64 * scale
    top = (size - 55 * scale) / 2 - 8.5 * scale
    background = "transparent" if radius else NIGHT
    return f"""<!doctype html><html><body style="margin:0;background:{background}">
<div style="position:relative;width:{size}px;height:{size}px;background:{NIGHT};border-radius:{radius * size}px">
<img src="data:image/svg+xml;base64,{ghost}" style="position:absolute;left:{(size - image) / 2}px;top:{top}px;width:{image}px;height:{image}px">
</div></body></html>"""


def main() -> None:
    target = STATIC / "icons"
    target.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        for name, (size, radius, height) in ICONS.items():
            context = browser.new_context(viewport={"width": size, "height": size}, device_scale_factor=1)
            tab = context.new_page()
            tab.set_content(page(size, radius, height))
            tab.screenshot(path=str(target / name), omit_background=bool(radius))
            context.close()
            print(f"wrote {target / name} ({size} × {size})")
        browser.close()


if __name__ == "__main__":
    main()
