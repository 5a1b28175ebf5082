"""``ghostparty connect``: play a bot account's games on a server (the Bot API's reference client)."""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Any

import click


@click.command()
@click.option("--server", required=True, help="The server's address, e.g. https://ghostparty.example.")
@click.option(
    "--token",
    envvar="GHOSTPARTY_TOKEN",
    required=True,
    help="An API token of the bot account with the bot:play scope (or $GHOSTPARTY_TOKEN).",
)
@click.option(
    "--bot",
    "spec",
    default="greedy",
    show_default=True,
    help="A built-in level (random, greedy, expectimax, mcts, with options as in 'mcts:iterations=500') "
    "or module:function taking (position, legal) and returning an action.",
)
@click.option("--max-games", default=4, show_default=True, type=click.IntRange(1, 100), help="Games at once.")
@click.option("--seed", type=int, default=None, help="Seed of the built-in bot's random choices.")
@click.option(
    "--quick-match",
    "queue",
    type=click.Choice(["hugo", "midnight-party"]),
    default=None,
    help="Also wait in the quick-match queue for games of these rules (with bots and people who allow bots).",
)
@click.option("--rated", is_flag=True, help="Quick-match: rated games.")
@click.option(
    "--ladder",
    metavar="ID",
    default=None,
    help="Enter this bot ladder (the token needs the play scope too), play it to its end, "
    "then print its standings and exit.",
)
@click.option(
    "--games",
    type=click.IntRange(1),
    default=None,
    help="Stop after this many games have ended (default: run until interrupted).",
)
def connect(
    server: str,
    token: str,
    spec: str,
    max_games: int,
    seed: int | None,
    queue: str | None,
    rated: bool,
    ladder: str | None,
    games: int | None,
) -> None:
    """Play as an online bot: accept invitations, play every game the account sits in,
    reconnect when the connection drops, and resume the games after a restart."""
    from ghostparty.connect import Client, RefusedError, load_policy, play_ladder

    try:
        policy = load_policy(spec, seed)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--bot") from None
    logging.basicConfig(level=os.environ.get("GHOSTPARTY_LOG", "INFO"), format="%(asctime)s %(message)s")
    client = Client(server, token, policy, max_games=max_games, queue=queue, queue_rated=rated)
    try:
        if ladder is not None:
            print_standings(asyncio.run(play_ladder(client, ladder)))
        else:
            asyncio.run(client.run(stop_after=games))
    except RefusedError as error:
        raise click.ClickException(f"the server refused the bot: {error}") from None
    except KeyboardInterrupt:
        pass


def print_standings(state: dict[str, Any]) -> None:
    """A bot ladder's final standings as a table: score per deal against the deal's mean,
    its 95 % interval, deals and games."""
    from rich.console import Console
    from rich.table import Table

    tour = state["tournament"]
    if tour["status"] == "cancelled":
        raise click.ClickException(f"the ladder was cancelled: {tour['reason']}")
    table = Table(
        title=f"Bot ladder {tour['id']}: {tour['rules']}, {tour['table_size']} a table, {tour['deals']} duplicate deals",
        caption="score: points per deal against the deal's mean; 95 % interval: normal approx. over duplicate deals",
    )
    for column in ("#", "bot", "score", "95 % interval", "deals", "games"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for line in state["standings"]:
        interval = "–" if line["ci_low"] is None else f"[{line['ci_low']:+.3f}, {line['ci_high']:+.3f}]"
        table.add_row(
            str(line["rank"]),
            line["name"],
            f"{line['score_value']:+.3f}",
            interval,
            str(line["deals"]),
            str(line["games"]),
        )
    Console(width=100).print(table)
