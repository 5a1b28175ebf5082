"""The ``ghostparty`` command: thin glue between the terminal and the library."""

from __future__ import annotations

import click

from ghostparty import __version__
from ghostparty.cli.admin import admin
from ghostparty.cli.admin_moderation import moderator
from ghostparty.cli.analyze import analyze
from ghostparty.cli.bench import bench
from ghostparty.cli.connect import connect
from ghostparty.cli.export import export
from ghostparty.cli.i18n import i18n
from ghostparty.cli.loadtest import loadtest
from ghostparty.cli.play import play
from ghostparty.cli.puzzles import puzzles
from ghostparty.cli.ratings import ratings
from ghostparty.cli.replay import replay
from ghostparty.cli.review import review
from ghostparty.cli.scenario import scenario
from ghostparty.cli.serve import serve
from ghostparty.cli.tournament import tournament

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


@click.group(context_settings=CONTEXT)
@click.version_option(__version__, prog_name="ghostparty")
def cli() -> None:
    """Ghost Party: Hugo – the castle ghost (Midnight Party) to play and to study.

    \b
    ghostparty serve                 play in the browser: lobby, live games, bots
    ghostparty play                  a game in the terminal, against bots or friends
    ghostparty replay GAME.json      a recorded game, move by move, in words
    ghostparty review GAME.json      a recorded game judged: accuracy, PR, blunders, luck
    ghostparty scenario DIR_OR_FILE  run conformance scenarios
    ghostparty bench                 how fast the rules engine plays (--pairing: tournament pairing)
    ghostparty tournament            bots against bots, with win rates and intervals
    ghostparty analyze               capture odds, heat-maps, the odds of each move
    ghostparty puzzles mine          puzzles from real games: decisions with one clearly best move
    ghostparty loadtest              concurrent games over WebSockets: actions/s, round trips
    ghostparty ratings               the bot levels' ratings, measured in rated bot games
    ghostparty admin                 a server's tables and database: list, close, back up, restore; moderators
    ghostparty export --out DIR      every finished game as open data: ndjson and Parquet by month
    ghostparty i18n check            the translations' gettext catalogs: extract, update, compile, check
    """


cli.add_command(serve)
cli.add_command(play)
cli.add_command(replay)
cli.add_command(review)
cli.add_command(scenario)
cli.add_command(bench)
cli.add_command(tournament)
cli.add_command(analyze)
cli.add_command(puzzles)
cli.add_command(loadtest)
cli.add_command(ratings)
cli.add_command(admin)
cli.add_command(export)
cli.add_command(connect)
cli.add_command(i18n)
admin.add_command(moderator)


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="ghostparty")


if __name__ == "__main__":
    main()
