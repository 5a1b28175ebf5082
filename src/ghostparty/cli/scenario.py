"""``ghostparty scenario``: run FORMAT.md conformance scenarios."""

from __future__ import annotations

import sys

import click
from rich.console import Console

from ghostparty.conformance import load_scenarios, run_scenario


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("-q", "--quiet", is_flag=True, help="Print failures and the summary only.")
def scenario(paths: tuple[str, ...], quiet: bool) -> None:
    """Run scenario files, or every *.json file in the given folders.

    Prints each failing step with the reason, then 'N passed, M failed'; exits with
    status 1 if any scenario failed (or none was found).
    """
    console = Console(highlight=False)
    passed = failed = 0
    for source, data in load_scenarios(paths):
        result = run_scenario(data, source)
        if result.passed:
            passed += 1
            if not quiet:
                console.print(f"[green]PASS[/] {result.id}  [dim]{source}[/]")
            continue
        failed += 1
        console.print(f"[red]FAIL[/] {result.id}  [dim]{source}[/]")
        for failure in result.failures:
            where = "scenario" if failure.step is None else f"step {failure.step}"
            console.print(f"     {where}: {failure.reason}", markup=False)
    print(f"{passed} passed, {failed} failed")
    if passed + failed == 0:
        console.print("no scenario files (*.json) found in the given paths")
    sys.exit(1 if failed or not passed else 0)
