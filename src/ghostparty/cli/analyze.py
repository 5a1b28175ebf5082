"""``ghostparty analyze`` (placeholder, being written)."""

from __future__ import annotations

import click


@click.command()
def analyze() -> None:
    """Not written yet."""
    raise click.ClickException("not written yet")
