"""``ghostparty i18n``: the translations' gettext catalogs kept in step with the JSON files."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from ghostparty.web.i18n.catalogs import Folders


def _folders(web: Path | None) -> Folders:
    try:
        from ghostparty.web.i18n.catalogs import Folders
    except ImportError as error:  # Babel
        raise click.ClickException(f"{error}: pip install babel (or 'ghostparty[dev]')") from None
    return Folders.of(web) if web else Folders.package()


@click.group("i18n")
@click.option(
    "--web",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    help="The ghostparty/web folder (default: this package's).",
)
@click.pass_context
def i18n(ctx: click.Context, web: Path | None) -> None:
    """The translations as gettext catalogs (docs/translating.md).

    \b
    en.json ──extract──▶ locale/ghostparty.pot ──update──▶ locale/<code>/LC_MESSAGES/ghostparty.po
    <code>.po ──compile──▶ static/i18n/<code>.json   (what the pages and the e-mails read)
    """
    ctx.obj = _folders(web)


@i18n.command()
@click.pass_obj
def extract(folders: Folders) -> None:
    """Write the template (ghostparty.pot) from en.json."""
    from ghostparty.web.i18n.catalogs import extract as run

    click.echo(f"{folders.template}: {'written' if run(folders) else 'unchanged'}")


@i18n.command()
@click.pass_obj
def update(folders: Folders) -> None:
    """Merge the template into every .po: changed English → fuzzy, new keys → untranslated,
    removed keys → obsolete."""
    from ghostparty.web.i18n.catalogs import update as run

    changed = run(folders)
    click.echo(f"updated: {', '.join(changed)}" if changed else "every catalog was in step")


@i18n.command("compile")
@click.pass_obj
def compile_(folders: Folders) -> None:
    """Write every language's JSON from its .po; refuses fuzzy and untranslated entries."""
    from ghostparty.web.i18n.catalogs import NotReady, compile_all

    try:
        changed = compile_all(folders)
    except NotReady as error:
        raise click.ClickException(f"nothing written: {len(error.problems)} entries not ready\n{error}") from None
    click.echo(f"written: {', '.join(f'{code}.json' for code in changed)}" if changed else "every JSON was in step")


@i18n.command()
@click.argument("code")
@click.pass_obj
def init(folders: Folders, code: str) -> None:
    """A new language's .po from the template (CODE: de, pl, pt_BR…)."""
    from ghostparty.web.i18n.catalogs import init as run

    try:
        click.echo(f"{run(folders, code)}: written, every entry untranslated")
    except (FileExistsError, ValueError) as error:
        raise click.ClickException(str(error)) from None


@i18n.command("import-json")
@click.argument("code")
@click.pass_obj
def import_json(folders: Folders, code: str) -> None:
    """A language's .po from its static/i18n/CODE.json (overwrites the .po)."""
    from ghostparty.web.i18n.catalogs import import_json as run

    try:
        path, lost = run(folders, code)
    except (OSError, ValueError) as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"{path}: written")
    for line in lost:
        click.echo(f"not kept: {line}", err=True)


@i18n.command()
@click.pass_obj
def check(folders: Folders) -> None:
    """Exit 1 if anything is out of step (template, catalogs, JSON files)."""
    from ghostparty.web.i18n.catalogs import check as run

    problems = run(folders)
    for problem in problems:
        click.echo(problem, err=True)
    if problems:
        raise SystemExit(1)
    click.echo("the catalogs and the JSON files are in step")
