"""The client's languages: every language file has exactly English's keys, no empty
text and the same placeholders; every key the client names exists."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[1] / "src" / "ghostparty" / "web" / "static"
#: The canonical rules, in the shared folder beside the repository (as the scenarios).
RULES = Path(__file__).resolve().parents[2] / "shared" / "RULES.md"
I18N = STATIC / "i18n"
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _load(code: str) -> dict[str, str]:
    data = json.loads((I18N / f"{code}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


LANGUAGES = sorted(path.stem for path in I18N.glob("*.json"))


def test_english_and_german_are_there() -> None:
    assert {"en", "de"} <= set(LANGUAGES)


#: The plural categories a language's counted texts need for whole numbers up to a
#: million, from CLDR's plural rules (what ``Intl.PluralRules(code).select(n)`` answers in
#: the browser): English's ``one`` and ``other`` unless listed here.
PLURALS = {"pl": ("one", "few", "many", "other")}


def _counted(english: dict[str, str]) -> set[str]:
    """The keys counted with ``tn``: English has ``key.one`` and ``key.other``."""
    return {key.removesuffix(".other") for key in english if key.endswith(".other") and key[:-6] + ".one" in english}


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_language_has_exactly_the_english_keys(code: str) -> None:
    """Besides the plural forms English lacks (Polish ``few`` and ``many``), where it needs them."""
    english, other = _load("en"), _load(code)
    counted = _counted(english)
    needed = PLURALS.get(code, ("one", "other"))
    expected = set(english) | {f"{key}.{category}" for key in counted for category in needed}
    assert sorted(expected - set(other)) == [], f"{code}.json lacks keys"
    assert sorted(set(other) - expected) == [], f"{code}.json has keys English doesn't (nor its plural forms)"


@pytest.mark.parametrize("code", LANGUAGES)
def test_no_empty_text_and_the_same_placeholders(code: str) -> None:
    english, other = _load("en"), _load(code)
    for key, text in other.items():
        assert isinstance(text, str) and text.strip(), f"{code}.json: {key} is empty"
        source = english.get(key) or english[key.rpartition(".")[0] + ".other"]  # a plural form English lacks
        assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(source)), f"{code}.json: {key}"
        assert "⟦" not in text


def test_each_language_names_itself() -> None:
    names = {code: _load(code)["language.name"] for code in LANGUAGES}
    assert names["en"] == "English"
    assert names["de"] == "Deutsch"
    assert len(set(names.values())) == len(names)


def _client_files() -> list[Path]:
    return sorted([*STATIC.glob("js/**/*.js"), *STATIC.glob("*.html")])


def test_every_key_the_client_names_exists() -> None:
    """Literal keys in t("…"), tn("…"), tOr("…"), data-i18n="…" and data-i18n-attr."""
    english = _load("en")
    named: set[str] = set()
    counted: set[str] = set()
    for path in _client_files():
        lines = path.read_text(encoding="utf-8").splitlines()
        text = "\n".join(line for line in lines if not line.lstrip().startswith(("//", "*", "/**")))
        named |= set(re.findall(r"""\bt\(\s*["']([\w.\-]+)["']""", text))
        named |= set(re.findall(r"""\btOr\(\s*["']([\w.\-]+)["']""", text))
        named |= set(re.findall(r'data-i18n="([\w.\-]+)"', text))
        for pairs in re.findall(r'data-i18n-attr="([^"]+)"', text):
            named |= {pair.split(":", 1)[1].strip() for pair in pairs.split(";") if ":" in pair}
        counted |= set(re.findall(r"""\btn\(\s*["']([\w.\-]+)["']""", text))
        named |= set(re.findall(r"""\[\s*["']§[^"']*["']\s*,\s*["']([\w.\-]+)["']\s*\]""", text))
    assert named, "no keys found: the pattern is out of date"
    missing = sorted(key for key in named if key not in english)
    missing += sorted(
        f"{key}.one/.other" for key in counted if f"{key}.one" not in english or f"{key}.other" not in english
    )
    assert missing == []


def test_rules_summary_cites_sections_that_exist() -> None:
    """Every § the rules summary shows is a section of RULES.md."""
    rules = RULES
    if not rules.exists():
        pytest.skip(f"RULES.md is not at {rules} (the shared folder beside the repository)")
    sections = set(re.findall(r"\*\*§(\d+(?:\.\d+)?)", rules.read_text(encoding="utf-8")))
    sections |= set(re.findall(r"^## §(\d+)", rules.read_text(encoding="utf-8"), flags=re.MULTILINE))
    source = (STATIC / "js" / "lib" / "rules-help.js").read_text(encoding="utf-8")
    refs = re.findall(r"""\[\s*["']§([\d.–]+)["']""", source)
    assert len(refs) >= 15
    for ref in refs:
        for part in ref.split("–"):
            assert part in sections, f"§{part} is not a section of RULES.md"


PHYSICAL = re.compile(
    r"\b(?:margin|padding|border)-(?:left|right)\s*:|text-align:\s*(?:left|right)\b|float:\s*(?:left|right)\b"
)


def test_the_style_sheets_assume_no_writing_direction() -> None:
    """Logical properties (``margin-inline-start``, ``text-align: start``): a language written
    right to left lays the pages out mirrored without a style sheet of its own."""
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted((STATIC / "css").glob("*.css"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if PHYSICAL.search(line)
    ]
    assert found == []


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_mails_footers_follow_the_signature_mark(code: str) -> None:
    """``-- `` on a line of its own (RFC 3676 §4.3): mail programs show what follows as a footer."""
    texts = _load(code)
    for key in ("mail.footer", "mail.footer_all"):
        assert texts[key].startswith("\n\n-- \n"), f"{code}.json: {key}"
