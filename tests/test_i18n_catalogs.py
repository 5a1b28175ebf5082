"""The translations' gettext catalogs: the template is what en.json gives, every language file
is what its catalog compiles to, and a changed English text holds its translations back."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("babel")

from click.testing import CliRunner

from ghostparty.cli.main import cli
from ghostparty.web.i18n import catalogs, layout
from ghostparty.web.i18n.catalogs import Folders, NotReady
from ghostparty.web.i18n.plurals import plural_forms

WEB = Path(__file__).resolve().parents[1] / "src" / "ghostparty" / "web"
SHIPPED = Folders.of(WEB)


@pytest.fixture
def copy(tmp_path: Path) -> Folders:
    """The language files and catalogs in a folder of their own."""
    shutil.copytree(WEB / "static" / "i18n", tmp_path / "static" / "i18n")
    shutil.copytree(WEB / "locale", tmp_path / "locale")
    (tmp_path / "static" / "js" / "lib").mkdir(parents=True)
    shutil.copy(SHIPPED.rules_help, tmp_path / "static" / "js" / "lib" / "rules-help.js")
    return Folders.of(tmp_path)


def _run(folders: Folders, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["i18n", "--web", str(folders.json.parents[1]), *args])
    return result.exit_code, result.output


def test_the_template_is_what_en_json_gives() -> None:
    pot = catalogs._read(SHIPPED.template)
    english = layout.read(SHIPPED.source)
    entries = {message.context: message for message in pot if message.id}
    assert entries["lobby.create"].id == english["lobby.create"]
    assert entries["lobby.free"].id == (english["lobby.free.one"], english["lobby.free.other"])
    assert "lobby.free.one" not in entries
    assert len(entries) == len(english) - len(layout.counted_keys(english))
    assert any("keep line breaks" in note for note in entries["mail.footer"].auto_comments)
    assert any("RULES.md §4.2" in note for note in entries["help.hugo.rooms"].auto_comments)
    assert catalogs._shape(pot) == catalogs._shape(catalogs.template(SHIPPED))


@pytest.mark.parametrize("code", SHIPPED.codes())
def test_a_language_file_is_what_its_catalog_compiles_to(code: str) -> None:
    assert catalogs.compiled(SHIPPED, code) == (SHIPPED.json / f"{code}.json").read_text(encoding="utf-8")


def test_every_language_file_has_a_catalog_and_all_is_in_step() -> None:
    assert {path.stem for path in SHIPPED.json.glob("*.json")} == {"en", *SHIPPED.codes()}
    assert catalogs.check(SHIPPED) == []


@pytest.mark.parametrize("code", SHIPPED.codes())
def test_a_shipped_catalog_has_nothing_fuzzy_or_untranslated(code: str) -> None:
    catalog = catalogs._read(SHIPPED.po(code), code)
    assert [m.context for m in catalog if m.id and m.fuzzy] == []
    assert [m.context for m in catalog if m.id and not all(catalogs._strings(m))] == []
    assert catalog.plural_forms == plural_forms(code).header


def test_the_plural_forms_of_polish_are_one_few_many_and_other() -> None:
    polish = plural_forms("pl")
    assert polish.by_index == ("one", "few", "many")
    assert polish.categories == ("one", "few", "many", "other")
    assert [polish.index_of(c) for c in polish.categories] == [0, 1, 2, 2]  # other: fractions only


@pytest.mark.parametrize("code", ["en", "de"])
def test_the_plural_forms_of_english_and_german_are_one_and_other(code: str) -> None:
    assert plural_forms(code).by_index == ("one", "other")
    assert plural_forms(code).categories == ("one", "other")


def test_the_plural_forms_of_french_are_one_and_other() -> None:
    """gettext's second form (a million and its multiples) is chosen for no count up to 1000."""
    french = plural_forms("fr")
    assert french.count == 3
    assert french.by_index == ("one", None, "other")
    assert french.categories == ("one", "other")
    assert french.index_of("other") == 2


def _change_english(folders: Folders, key: str, text: str) -> None:
    english = layout.read(folders.source)
    assert key in english
    source = folders.source.read_text(encoding="utf-8")
    source = source.replace(
        f"  {json.dumps(key)}: {json.dumps(english[key], ensure_ascii=False)}", f'  "{key}": "{text}"'
    )
    folders.source.write_text(source, encoding="utf-8")


def test_a_changed_english_text_is_fuzzy_after_update_and_compile_refuses_it(copy: Folders) -> None:
    german = (copy.json / "de.json").read_text(encoding="utf-8")
    _change_english(copy, "lobby.create", "Open a new table")
    _change_english(copy, "lobby.free.other", " · {n} seats still free")
    assert _run(copy, "check")[0] == 1
    assert _run(copy, "extract")[0] == 0
    assert _run(copy, "update") == (0, f"updated: {', '.join(copy.codes())}\n")
    entries = {m.context: m for m in catalogs._read(copy.po("de"), "de") if m.id}
    assert entries["lobby.create"].fuzzy
    assert entries["lobby.create"].string == json.loads(german)["lobby.create"]  # kept for the translator
    assert entries["lobby.create"].previous_id == [layout.read(SHIPPED.source)["lobby.create"]]
    assert entries["lobby.free"].fuzzy  # its plural changed
    assert not entries["lobby.join"].fuzzy
    code, output = _run(copy, "compile")
    assert code == 1
    assert "de: lobby.create is fuzzy" in output and "de: lobby.free is fuzzy" in output
    assert (copy.json / "de.json").read_text(encoding="utf-8") == german  # nothing written
    assert _run(copy, "update") == (0, "every catalog was in step\n")


def test_a_new_key_is_untranslated_and_a_removed_one_obsolete(copy: Folders) -> None:
    source = copy.source.read_text(encoding="utf-8")
    source = source.replace('  "lobby.watch": "Watch",\n', '  "lobby.spy": "Spy",\n')
    copy.source.write_text(source, encoding="utf-8")
    catalogs.extract(copy)
    catalogs.update(copy)
    catalog = catalogs._read(copy.po("de"), "de")
    assert catalog.get("Spy", context="lobby.spy").string == ""
    assert [m.context for m in catalog.obsolete.values()] == ["lobby.watch"]
    with pytest.raises(NotReady, match=r"de: lobby\.spy is untranslated"):
        catalogs.compile_all(copy)


def test_json_to_po_to_json_is_the_identity(copy: Folders) -> None:
    german = (copy.json / "de.json").read_text(encoding="utf-8")
    copy.po("de").unlink()
    assert _run(copy, "import-json", "de")[0] == 0
    (copy.json / "de.json").unlink()
    assert _run(copy, "compile") == (0, "written: de.json\n")
    assert (copy.json / "de.json").read_text(encoding="utf-8") == german


def _without(copy: Folders, code: str) -> None:
    """The copy as if language ``code`` had never been added."""
    (copy.json / f"{code}.json").unlink(missing_ok=True)
    shutil.rmtree(copy.locale / code, ignore_errors=True)


def test_a_polish_file_goes_through_its_three_gettext_forms(copy: Folders) -> None:
    """Polish ``other`` (fractions, which the pages never count) is written from ``many``."""
    _without(copy, "pl")
    english = layout.read(copy.source)
    counted = layout.counted_keys(english)
    polish: dict[str, str] = {}
    for key, text in english.items():
        base = key.rpartition(".")[0]
        if base in counted:
            if key.endswith(".one"):
                polish |= {f"{base}.{c}": f"{c}: {text}" for c in ("one", "few", "many")}
                polish[f"{base}.other"] = polish[f"{base}.many"]
        else:
            polish[key] = f"pl {text}"
    groups = [list(polish.items())]
    (copy.json / "pl.json").write_text(layout.dumps(groups), encoding="utf-8")
    assert "pl.json has no catalog" in _run(copy, "check")[1]
    path, lost = catalogs.import_json(copy, "pl")
    assert lost == []
    entries = {m.context: m for m in catalogs._read(path, "pl") if m.id}
    assert entries["lobby.free"].string == tuple(f"{c}: {english['lobby.free.one']}" for c in ("one", "few", "many"))
    compiled = layout.loads(catalogs.compiled(copy, "pl"))
    assert compiled == polish
    assert list(compiled) == list(polish)


def test_a_new_language_starts_untranslated(copy: Folders) -> None:
    _without(copy, "pl")
    assert _run(copy, "init", "pl")[0] == 0
    catalog = catalogs._read(copy.po("pl"), "pl")
    assert catalog.plural_forms == plural_forms("pl").header
    assert catalog.get(layout.read(copy.source)["lobby.free.one"], context="lobby.free").string == ("", "", "")
    assert _run(copy, "check")[0] == 1
    code, output = _run(copy, "init", "pl")
    assert code == 1 and "exists already" in output


def test_a_key_twice_in_the_source_is_refused(copy: Folders) -> None:
    source = copy.source.read_text(encoding="utf-8").replace("{\n", '{\n  "lobby.join": "Join",\n', 1)
    copy.source.write_text(source, encoding="utf-8")
    with pytest.raises(ValueError, match=r"'lobby\.join' stands twice"):
        catalogs.extract(copy)
