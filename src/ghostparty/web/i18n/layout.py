"""The language files' JSON: read with their groups, written in one layout.

The layout: an object of keys to texts, two spaces of indent, a blank line between groups
of keys (where ``en.json`` has one), texts as they are (not ``\\u`` escapes) except the
characters nobody can see (a soft hyphen, a zero-width space), which are escaped so that a
reviewer sees them.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

#: CLDR's plural categories in CLDR's order: the order a counted text's keys are written in.
CATEGORIES = ("zero", "one", "two", "few", "many", "other")
_INVISIBLE = ("Cc", "Cf", "Co", "Cn", "Zl", "Zp", "Zs")


@dataclass(frozen=True)
class Entry:
    """One text of the source: a key, or a counted text (``key.one`` + ``key.other``) as one entry."""

    key: str
    english: str
    plural: str | None = None  #: the English ``.other`` text of a counted text
    group_start: bool = False  #: a blank line comes before it

    @property
    def counted(self) -> bool:
        return self.plural is not None


def _no_twice(pairs: list[tuple[str, object]]) -> dict[str, object]:
    seen: dict[str, object] = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f"the key {key!r} stands twice: expected each key once")
        seen[key] = value
    return seen


def loads(text: str, name: str = "the JSON") -> dict[str, str]:
    """A language file's texts by key, in the file's order; ``ValueError`` if a key stands twice."""
    try:
        data = json.loads(text, object_pairs_hook=_no_twice)
    except ValueError as error:
        raise ValueError(f"{name}: {error}") from None
    if not isinstance(data, dict) or not all(isinstance(text, str) for text in data.values()):
        raise ValueError(f"{name}: expected a JSON object of keys to texts")
    return data


def read(path: Path) -> dict[str, str]:
    """A language file's texts by key, in the file's order."""
    return loads(path.read_text(encoding="utf-8"), str(path))


def group_starts(path: Path) -> set[str]:
    """The keys a blank line comes before."""
    starts: set[str] = set()
    blank = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            blank = True
            continue
        found = re.match(r'\s*"((?:[^"\\]|\\.)*)"\s*:', line)
        if found and blank:
            starts.add(json.loads(f'"{found.group(1)}"'))
        blank = False
    return starts


def counted_keys(texts: dict[str, str]) -> set[str]:
    """The counted texts' keys: those with both ``key.one`` and ``key.other``."""
    return {
        key[: -len(".other")] for key in texts if key.endswith(".other") and key[: -len(".other")] + ".one" in texts
    }


def entries(source: Path) -> list[Entry]:
    """The source's (``en.json``'s) entries in its order: a counted text where its first key is."""
    texts, starts = read(source), group_starts(source)
    counted = counted_keys(texts)
    found: list[Entry] = []
    done: set[str] = set()
    for key, text in texts.items():
        base, _, category = key.rpartition(".")
        if base in counted and category in CATEGORIES:
            if base not in done:
                done.add(base)
                found.append(Entry(base, texts[f"{base}.one"], texts[f"{base}.other"], key in starts))
            continue
        if category not in CATEGORIES and key in counted:
            raise ValueError(f"{source}: {key!r} is both a text and a counted text's key")
        found.append(Entry(key, text, None, key in starts))
    return found


def _quote(text: str) -> str:
    quoted = json.dumps(text, ensure_ascii=False)
    return "".join(
        f"\\u{ord(char):04x}" if unicodedata.category(char) in _INVISIBLE and char != " " else char for char in quoted
    )


def dumps(groups: list[list[tuple[str, str]]]) -> str:
    """The JSON text of groups of ``(key, text)`` pairs in the layout above."""
    blocks = [",\n".join(f"  {_quote(key)}: {_quote(text)}" for key, text in group) for group in groups if group]
    return "{\n" + ",\n\n".join(blocks) + "\n}\n"


def write(path: Path, groups: list[list[tuple[str, str]]]) -> bool:
    """Write the groups to ``path``; whether the file changed."""
    text = dumps(groups)
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    path.write_text(text, encoding="utf-8")
    return True
