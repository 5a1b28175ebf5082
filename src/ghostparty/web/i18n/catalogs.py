"""The gettext catalogs (Babel): the template made from ``en.json``, a ``.po`` per language,
and the JSON files the pages read compiled from them.

An entry's ``msgctxt`` is its key and its ``msgid`` the English text; a counted text is one
entry with ``msgid_plural``. A key is its entry's identity: when its English text changes,
``update`` keeps the translation, marked fuzzy with the English it was made for.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import denormalize, normalize, read_po, write_po

from ghostparty import __version__
from ghostparty.web.i18n import layout, notes
from ghostparty.web.i18n.plurals import PluralForms, plural_forms

DOMAIN = "ghostparty"
SOURCE = "en"
PROJECT = "Ghost Party"
HOLDER = "the Ghost Party developers"
WIDTH = 76  #: the catalogs' line width, gettext's
Text = str | tuple[str, ...]


class NotReady(ValueError):
    """Catalogs that cannot be compiled: each problem a line."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Folders:
    """Where the language files and the catalogs are."""

    json: Path  #: static/i18n: <code>.json
    locale: Path  #: locale: ghostparty.pot and <code>/LC_MESSAGES/ghostparty.po
    rules_help: Path  #: static/js/lib/rules-help.js: the § of each rules help key

    @classmethod
    def of(cls, web: Path) -> Folders:
        """The folders of a ``ghostparty/web`` folder."""
        return cls(web / "static" / "i18n", web / "locale", web / "static" / "js" / "lib" / "rules-help.js")

    @classmethod
    def package(cls) -> Folders:
        """The folders of this package (in a checkout: the sources)."""
        return cls.of(Path(__file__).resolve().parents[1])

    @property
    def source(self) -> Path:
        return self.json / f"{SOURCE}.json"

    @property
    def template(self) -> Path:
        return self.locale / f"{DOMAIN}.pot"

    def po(self, code: str) -> Path:
        return self.locale / code / "LC_MESSAGES" / f"{DOMAIN}.po"

    def codes(self) -> list[str]:
        """The languages with a catalog."""
        return sorted(path.parents[1].name for path in self.locale.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def template(folders: Folders) -> Catalog:
    """The template made from ``en.json``: one entry per key, a counted text as one."""
    sections = notes.help_sections(folders.rules_help)
    catalog = Catalog(domain=DOMAIN, project=PROJECT, version=__version__, copyright_holder=HOLDER, fuzzy=False)
    for entry in layout.entries(folders.source):
        text: Text = (entry.english, entry.plural) if entry.plural is not None else entry.english
        comments = notes.note(entry.key, sections, entry.counted)
        catalog.add(text, None, auto_comments=comments, context=entry.key)
    return catalog


def _read(path: Path, code: str | None = None) -> Catalog:
    with path.open("rb") as file:
        catalog = read_po(file, locale=code, domain=DOMAIN)
    for message in catalog:
        _take_previous(message)
    return catalog


def _take_previous(message: Message) -> None:
    """The ``#| msgid`` lines (the English a fuzzy translation was made for), which Babel reads
    as comments, back as ``previous_id``."""
    lines = [comment[1:].strip() for comment in message.user_comments if comment.startswith("|")]
    if not lines:
        return
    message.user_comments = [comment for comment in message.user_comments if not comment.startswith("|")]
    parts: dict[str, list[str]] = {}
    current = None
    for line in lines:
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgctxt", "msgid", "msgid_plural"):
            current = keyword
            parts[current] = [rest]
        elif current:
            parts[current].append(line)
    message.previous_id = [denormalize("\n".join(parts[k])) for k in ("msgid", "msgid_plural") if k in parts]


def _text(catalog: Catalog) -> str:
    for message in catalog:
        message.flags.discard("python-format")  # Babel's guess; the texts' placeholders are {name}
    for message in catalog.obsolete.values():
        message.flags.discard("python-format")
    buffer = io.BytesIO()
    write_po(buffer, catalog, no_location=True)  # Babel's include_previous garbles long texts
    previous = {f'msgctxt "{m.context}"': m.previous_id for m in catalog if m.id and m.fuzzy and m.previous_id}
    lines = []
    for line in buffer.getvalue().decode("utf-8").split("\n"):
        for keyword, text in zip(("msgid", "msgid_plural"), previous.get(line, ()), strict=False):
            lines += [f"#| {keyword} {part}" if n == 0 else f"#| {part}" for n, part in enumerate(_lines(text))]
        lines.append(line)
    return "\n".join(lines)


def _lines(text: str) -> list[str]:
    return normalize(text, width=WIDTH).split("\n")


def _write(path: Path, catalog: Catalog) -> bool:
    text = _text(catalog)
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return True


def _shape(messages: Iterable[Message]) -> list[tuple[object, ...]]:
    """What a template says, without its dates (and its comments however they are wrapped)."""
    return [(m.context, m.id, " ".join(m.auto_comments).split(), sorted(m.flags - {"python-format"})) for m in messages]


def extract(folders: Folders) -> bool:
    """Write the template from ``en.json``; whether it changed (its date changes only then)."""
    made = template(folders)
    if folders.template.exists() and _shape(_read(folders.template)) == _shape(made):
        return False
    return _write(folders.template, made)


def _blank(message: Message, count: int) -> Text:
    return ("",) * count if isinstance(message.id, tuple) else ""


def new_catalog(folders: Folders, code: str, texts: dict[str, Text] | None = None) -> Catalog:
    """A language's catalog from the template, with ``texts`` (by key) as its translations."""
    pot = _read(folders.template)
    name = Locale.parse(code).english_name
    catalog = Catalog(
        locale=code,
        domain=DOMAIN,
        project=PROJECT,
        version=__version__,
        copyright_holder=HOLDER,
        header_comment=f"# {name} translations of {PROJECT}: see docs/translating.md.\n#",
        creation_date=pot.creation_date,
        revision_date=datetime.now(UTC),
        last_translator=HOLDER if texts else None,
        fuzzy=False,
    )
    for message in pot:
        if not message.id:
            continue
        key = str(message.context)
        text = (texts or {}).get(key) or _blank(message, catalog.num_plurals)
        catalog.add(message.id, text, auto_comments=message.auto_comments, flags=message.flags, context=key)
    return catalog


def init(folders: Folders, code: str) -> Path:
    """A new language's ``.po`` from the template, every entry untranslated."""
    path = folders.po(code)
    if path.exists():
        raise FileExistsError(f"{path} exists already: `update` brings it in step with the template")
    plural_forms(code)  # refuses a language whose plural rules disagree
    _write(path, new_catalog(folders, code))
    return path


def _forms(catalog: Catalog, code: str) -> PluralForms:
    return plural_forms(code, catalog.num_plurals, catalog.plural_expr)


def import_json(folders: Folders, code: str) -> tuple[Path, list[str]]:
    """A language's ``.po`` from its ``<code>.json``; and what of the JSON it could not keep."""
    if code == SOURCE:
        raise ValueError(f"{SOURCE}.json is the source: it has the template, not a catalog")
    texts = layout.read(folders.json / f"{code}.json")
    forms = plural_forms(code)
    entries = layout.entries(folders.source)
    counted = [entry.key for entry in entries if entry.counted]
    known = {entry.key for entry in entries if not entry.counted}
    found: dict[str, Text] = {key: text for key, text in texts.items() if key in known}
    forms_of = {f"{key}.{category}" for key in counted for category in forms.categories}
    lost = [f"{key}: not a key of en.json" for key in texts if key not in known and key not in forms_of]
    for key in counted:
        by_category = {category: texts.get(f"{key}.{category}", "") for category in forms.categories}
        found[key] = tuple(by_category[category or "other"] for category in forms.by_index)
        for category, text in by_category.items():
            if text and text != found[key][forms.index_of(category)]:  # a category no form stands for
                lost.append(f"{key}.{category}: {text!r} becomes {found[key][forms.index_of(category)]!r}")
    path = folders.po(code)
    _write(path, new_catalog(folders, code, found))
    return path, lost


def _follow_keys(catalog: Catalog, before: dict[str, Message]) -> None:
    """Give an entry whose English changed the translation of its key, fuzzy, with the English
    it was made for (Babel's own matching is by similar English, not by key; and by the
    singular alone, so a changed plural English would pass unseen)."""
    for message in catalog:
        old = before.get(str(message.context))
        if message.id and old is not None and old.id == message.id and message.fuzzy:
            message.previous_id = old.previous_id  # still to be looked at
        if not message.id or old is None or old.id == message.id or not any(_strings(old)):
            continue
        for msgid, gone in list(catalog.obsolete.items()):
            if gone.context == message.context:
                del catalog.obsolete[msgid]
        strings = _strings(old)
        if isinstance(message.id, tuple):
            message.string = tuple((strings + [""] * catalog.num_plurals)[: catalog.num_plurals])
        else:
            message.string = strings[0]
        message.previous_id = list(old.id) if isinstance(old.id, (list, tuple)) else [str(old.id)]
        message.flags.add("fuzzy")
        message.user_comments = list(old.user_comments)


def update(folders: Folders) -> list[str]:
    """Merge the template into every ``.po`` (changed English → fuzzy, new keys → untranslated,
    removed keys → obsolete); the languages whose file changed."""
    pot = _read(folders.template)
    changed = []
    for code in folders.codes():
        catalog = _read(folders.po(code), code)
        before = {str(message.context): message.clone() for message in catalog if message.id}
        catalog.update(pot, no_fuzzy_matching=True)
        _follow_keys(catalog, before)
        if _write(folders.po(code), catalog):
            changed.append(code)
    return changed


def _strings(message: Message) -> list[str]:
    string = message.string
    return [str(s or "") for s in string] if isinstance(string, (list, tuple)) else [str(string or "")]


def _problems(catalog: Catalog, code: str, entries: list[layout.Entry]) -> list[str]:
    by_key = {message.context: message for message in catalog if message.id}
    problems = []
    for entry in entries:
        message = by_key.pop(entry.key, None)
        english: Text = (entry.english, entry.plural) if entry.plural is not None else entry.english
        if message is None:
            problems.append(f"{code}: {entry.key} is missing: run `ghostparty i18n update`")
        elif message.id != english:
            problems.append(
                f"{code}: {entry.key} has old English: run `ghostparty i18n extract && ghostparty i18n update`"
            )
        elif message.fuzzy:
            problems.append(f"{code}: {entry.key} is fuzzy (its English changed): check the text, then drop the flag")
        elif not all(_strings(message)) or len(_strings(message)) != (catalog.num_plurals if entry.counted else 1):
            problems.append(f"{code}: {entry.key} is untranslated")
    problems += [f"{code}: {key} is not in en.json: run `ghostparty i18n update`" for key in by_key]
    return problems


def compiled(folders: Folders, code: str) -> str:
    """The JSON text of a language's ``.po``; ``NotReady`` if an entry is fuzzy, untranslated or out of step."""
    catalog = _read(folders.po(code), code)
    entries = layout.entries(folders.source)
    problems = _problems(catalog, code, entries)
    if problems:
        raise NotReady(problems)
    forms = _forms(catalog, code)
    by_key = {message.context: message for message in catalog if message.id}
    groups: list[list[tuple[str, str]]] = []
    for entry in entries:
        if entry.group_start or not groups:
            groups.append([])
        strings = _strings(by_key[entry.key])
        if entry.counted:
            groups[-1] += [(f"{entry.key}.{c}", strings[forms.index_of(c)]) for c in forms.categories]
        else:
            groups[-1].append((entry.key, strings[0]))
    return layout.dumps(groups)


def compile_all(folders: Folders) -> list[str]:
    """Write every language's JSON from its ``.po``; the languages whose file changed.
    ``NotReady`` (and nothing written) if any catalog is not ready."""
    texts, problems = {}, []
    for code in folders.codes():
        try:
            texts[code] = compiled(folders, code)
        except NotReady as error:
            problems += error.problems
    if problems:
        raise NotReady(problems)
    changed = []
    for code, text in texts.items():
        path = folders.json / f"{code}.json"
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            changed.append(code)
    return changed


def check(folders: Folders) -> list[str]:
    """Everything out of step: the template behind ``en.json``, a catalog behind the template,
    fuzzy or untranslated, a JSON file not what its catalog compiles to, a JSON without a catalog."""
    problems = []
    if not folders.template.exists() or _shape(_read(folders.template)) != _shape(template(folders)):
        problems.append(f"{folders.template.name} is not what en.json gives: run `ghostparty i18n extract`")
    codes = folders.codes()
    for code in codes:
        try:
            text = compiled(folders, code)
        except NotReady as error:
            problems += error.problems
            continue
        path = folders.json / f"{code}.json"
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            problems.append(f"{code}.json is not what {code}.po compiles to: run `ghostparty i18n compile`")
    for path in sorted(folders.json.glob("*.json")):
        if path.stem != SOURCE and path.stem not in codes:
            problems.append(f"{path.name} has no catalog: run `ghostparty i18n import-json {path.stem}`")
    return problems
