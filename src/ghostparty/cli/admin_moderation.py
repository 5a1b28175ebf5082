"""``ghostparty admin moderator NAME [--remove]``: give or take the moderator role.

Moderators see the queue of reports at /moderation and act on it (docs/accounts.md, moderators).
Appointing one is the operator's, not a moderator's, so it isn't in the audit log.
"""

from __future__ import annotations

import click


@click.command()
@click.argument("name")
@click.option("--remove", is_flag=True, help="Take the moderator role back.")
@click.option(
    "--database",
    metavar="URL",
    help="SQLAlchemy URL of the server's store [default: the SQLite file `ghostparty serve` uses]",
)
def moderator(name: str, remove: bool, database: str | None) -> None:
    """Make the account NAME a moderator (or, with --remove, no longer one)."""
    from ghostparty.server.common.names import name_key
    from ghostparty.server.stores import SqlStores
    from ghostparty.server.wiring import default_database_url

    store = SqlStores.open(database or default_database_url())
    try:
        player = store.accounts.player_by_key(name_key(name))
        if player is None or player.kind != "user":
            raise click.ClickException(f"no account named {name!r} in this database (register it on the site first)")
        store.moderation.set_moderator(player.id, not remove)
    finally:
        store.close()
    click.echo(f"{player.name} is {'no longer' if remove else 'now'} a moderator")
