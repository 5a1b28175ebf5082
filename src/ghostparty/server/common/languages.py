"""The languages Ghost Party speaks: one file per language, ``ghostparty/web/static/i18n/<code>.json``.

The client's pages, the rules help and the e-mails read the same files (the e-mails their
``mail.*`` keys), so a language is added in one place. ``language.name`` names a language
in itself ("Deutsch").
"""

from __future__ import annotations

import functools
import json
import logging
from importlib import resources
from importlib.resources.abc import Traversable

log = logging.getLogger(__name__)

#: The folder of the language files.
FOLDER: Traversable = resources.files("ghostparty.web").joinpath("static", "i18n")
#: The language used where none (or an unknown one) is asked for.
FALLBACK = "en"


@functools.cache
def catalog(code: str) -> dict[str, str]:
    """The texts of language ``code`` by key; ``KeyError`` if there is no such language."""
    if code not in codes():
        raise KeyError(f"no language {code!r}: one of {', '.join(codes())} was expected")
    data = json.loads(FOLDER.joinpath(f"{code}.json").read_text(encoding="utf-8"))
    return {key: text for key, text in data.items() if isinstance(text, str)}


@functools.cache
def codes() -> tuple[str, ...]:
    """Every language's code, sorted."""
    return tuple(sorted(entry.name.removesuffix(".json") for entry in FOLDER.iterdir() if entry.name.endswith(".json")))


def offered() -> list[dict[str, str]]:
    """Every readable language as ``{"code": …, "name": …}`` (its own name for itself)."""
    found = []
    for code in codes():
        try:
            name = catalog(code).get("language.name", code)
        except (OSError, ValueError) as error:
            log.warning("skipped the unreadable language file %s.json: %s", code, error)
            continue
        found.append({"code": code, "name": name})
    return found


def language_of(given: object) -> str:
    """One of :func:`codes`: ``given`` if it is one (``"pt-BR"``: its first part), else :data:`FALLBACK`."""
    if not isinstance(given, str):
        return FALLBACK
    lowered = given.strip().lower()
    for code in (lowered, lowered.split("-")[0].split("_")[0]):
        if code in codes():
            return code
    return FALLBACK
