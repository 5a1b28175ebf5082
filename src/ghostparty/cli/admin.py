"""``ghostparty admin``: the operator's commands on a server's database (each in its own module)."""

from __future__ import annotations

import click


@click.group()
def admin() -> None:
    """The operator's commands on a server's database.

    \b
    ghostparty admin moderator NAME            make an account a moderator
    ghostparty admin moderator NAME --remove   take the role back
    """
