"""What the notifications say, in every language of the client.

The texts are the client's language files' ``push.*`` keys
(``static/i18n/<code>.json``), so that a language is translated in one place; a key a
language lacks is taken from English.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

_I18N = resources.files("ghostparty.web").joinpath("static", "i18n")

#: The languages notifications are written in: every language of the client.
LANGUAGES = tuple(sorted(entry.name.removesuffix(".json") for entry in _I18N.iterdir() if entry.name.endswith(".json")))


@functools.cache
def _catalog(language: str) -> dict[str, str]:
    data = json.loads(_I18N.joinpath(f"{language}.json").read_text(encoding="utf-8"))
    return {key: text for key, text in data.items() if key.startswith("push.")}


def _text(language: str, key: str) -> str:
    found = _catalog(language).get(f"push.{key}")
    return found if found is not None else _catalog("en")[f"push.{key}"]


def language_of(given: object) -> str:
    """One of :data:`LANGUAGES`: ``given``'s first two letters if known, else English."""
    code = given[:2].lower() if isinstance(given, str) else ""
    return code if code in LANGUAGES else "en"


def payload(kind: str, language: str, url: str, **fields: object) -> dict[str, Any]:
    """A notification of ``kind`` in ``language``: what the service worker shows
    (``title``, ``body``), where a click leads (``url``) and its action's label."""
    return {
        "kind": kind,
        "title": _text(language, f"{kind}.title").format(**fields),
        "body": _text(language, f"{kind}.body").format(**fields),
        "url": url,
        "unsubscribe": _text(language, "unsubscribe"),
    }
