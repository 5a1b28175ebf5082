"""``ghostparty tournament``: many games between bots, with win rates and 95 % intervals.

The games, seeds, seat rotation and statistics are :mod:`ghostparty.sim.tournament`'s;
this module parses the options and prints the tables (or JSON, or a CSV file).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from ghostparty.bots import bot_names, make_bot
from ghostparty.cli.progress import progress_bar
from ghostparty.rules import COLOURS, RULESETS
from ghostparty.rules.rulesets import MAX_PLAYERS, MIN_PLAYERS
from ghostparty.sim.bench import machine
from ghostparty.sim.parallel import ParallelError
from ghostparty.sim.tournament import (
    DEALS,
    MAX_ACTIONS,
    NORMAL,
    TournamentConfig,
    TournamentError,
    TournamentResult,
    lineup_from,
    run_tournament,
)
from ghostparty.sim.tournament_csv import write_csv

#: Seconds between redraws of the progress bar (drawn from the main thread only: no
#: refresh thread may run while the worker processes are forked).
REFRESH = 0.1


def check_bot(name: str, param_hint: str) -> str:
    """``name`` if it is a bot spec (``greedy``, ``expectimax:depth=3``), else a usage error."""
    try:
        make_bot(name)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint=param_hint) from None
    return name


def parse_bots(text: str | None) -> list[str]:
    """``"greedy, random"`` → ``["greedy", "random"]``, every name checked.

    A bot's options stay with it: ``"expectimax:depth=3,beam=2,greedy"`` →
    ``["expectimax:depth=3,beam=2", "greedy"]`` (a ``name=value`` item continues the
    spec before it).
    """
    if text is None:
        return []
    names: list[str] = []
    for item in (part.strip().lower() for part in text.split(",")):
        if names and "=" in item and ":" not in item:
            names[-1] += f",{item}"
        else:
            names.append(item)
    if not all(names):
        raise click.BadParameter(f"{text!r}: expected bot names separated by commas", param_hint="--bots")
    return [check_bot(name, "--bots") for name in names]


def parse_seat(text: str) -> tuple[int, str]:
    """``"0=greedy"`` or ``"blue=random"`` → ``(seat, bot)``."""
    seat_text, sep, bot = text.partition("=")
    seat_word, bot = seat_text.strip().lower(), bot.strip().lower()
    if not sep or not bot:
        raise click.BadParameter(f"{text!r}: expected SEAT=BOT, e.g. 0=greedy or blue=random", param_hint="--seat")
    if seat_word.isdigit() and int(seat_word) < MAX_PLAYERS:
        seat = int(seat_word)
    elif seat_word in COLOURS:
        seat = COLOURS.index(seat_word)
    else:
        raise click.BadParameter(
            f"{text!r}: {seat_text!r} is not a seat: use 0 to {MAX_PLAYERS - 1} or a colour ({', '.join(COLOURS)})",
            param_hint="--seat",
        )
    return seat, check_bot(bot, "--seat")


def rate(x: float) -> str:
    """Games per second: ``1,234`` or, when slow, ``0.224``."""
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def verdict(low: float, high: float, fair: float) -> str:
    """``above`` / ``below`` when the whole interval is on one side of the fair share."""
    return "[green]above[/]" if low > fair else "[red]below[/]" if high < fair else "[dim]—[/]"


def bot_table(result: TournamentResult) -> Table:
    """Per bot: seat-games, wins, win rate with its interval against the fair share, points, think time."""
    config = result.config
    methods = {s.ci_method for s in result.bot_stats()}
    ci = (
        f"normal approx. over {len(result.games) // config.rotations:,} duplicate deals"
        if DEALS in methods
        else "Wilson score"
        if NORMAL not in methods
        else "normal approx. with sample variance (wins were shared)"
        if methods == {NORMAL}
        else "Wilson, or normal approx. where wins were shared"
    )
    table = Table(
        title=(
            f"{config.rules}, {config.players} players, {len(result.games):,} games, seed {config.seed}"
            + (", duplicate deals" if config.duplicate else "")
        ),
        caption=(
            f"a win shared by k players counts 1/k · 95% CI: {ci} · fair share 1/{config.players} · "
            "points: final score, fewest wins · ms/move: mean time per choose call"
        ),
    )
    for column in (
        "bot",
        "seat-games",
        "wins",
        "win rate",
        "95% CI",
        "fair share",
        "vs fair",
        "mean points",
        "ms/move",
    ):
        table.add_column(column, justify="left" if column in ("bot", "vs fair") else "right")
    for s in result.bot_stats():
        table.add_row(
            s.bot,
            f"{s.seat_games:,}",
            f"{s.wins:,.1f}".removesuffix(".0"),
            percent(s.win_rate),
            f"{percent(s.ci_low)} – {percent(s.ci_high)}",
            percent(s.fair_share),
            verdict(s.ci_low, s.ci_high, s.fair_share),
            f"{s.mean_points:.2f}",
            f"{s.ms_per_decision:.3f}",
        )
    return table


def seat_table(result: TournamentResult) -> Table:
    """Per seat (seat 0 places and moves first): win rate with its interval, points."""
    table = Table(title="by seat (seat 0 starts), over all bots")
    for column in ("seat", "games", "win rate", "95% CI", "vs fair", "mean points"):
        table.add_column(column, justify="left" if column in ("seat", "vs fair") else "right")
    for s in result.seat_stats():
        table.add_row(
            f"{s.seat} {s.colour}",
            f"{s.games:,}",
            percent(s.win_rate),
            f"{percent(s.ci_low)} – {percent(s.ci_high)}",
            verdict(s.ci_low, s.ci_high, s.fair_share),
            f"{s.mean_points:.2f}",
        )
    return table


@click.command()
@click.option("--rules", type=click.Choice(sorted(RULESETS)), default="hugo", show_default=True, help="Rule set.")
@click.option(
    "--players",
    type=click.IntRange(MIN_PLAYERS, MAX_PLAYERS),
    help="Number of players, 2 to 8.  [default: 4, or as many seats as --seat names when --bots is not given]",
)
@click.option(
    "--bots",
    "bots_text",
    metavar="BOT,BOT…",
    help=f"Bots cycled over the seats: with 4 players, greedy,random gives each two seats. "
    f"Bots: {', '.join(bot_names())}.",
)
@click.option(
    "--seat",
    "seat_texts",
    multiple=True,
    metavar="SEAT=BOT",
    help="The bot of one seat (0-7 or a colour); repeatable; overrides --bots for that seat.",
)
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True, help="Games in all.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the whole tournament.")
@click.option(
    "--duplicate",
    is_flag=True,
    help="Duplicate deals: the games of each block of rotations share one seed, so every bot "
    "meets the same dice from each seat; luck cancels out and a small edge shows in fewer games. "
    "The intervals are then over deals.",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    help="Processes to play on; 1 plays in this process.  [default: all cores]",
)
@click.option(
    "--dask",
    metavar="ADDRESS",
    help="Play on the Dask cluster whose scheduler is at ADDRESS (e.g. tcp://host:8786) instead of local "
    "processes; the same results. Needs pip install 'ghostparty[dask]' here and on the workers.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON (progress goes to stderr).")
@click.option(
    "--csv",
    "csv_path",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Also write one row per game (seed, bots, scores, winners, actions, think time per seat) to this file.",
)
@click.option(
    "--max-actions",
    type=click.IntRange(min=1),
    default=MAX_ACTIONS,
    show_default=True,
    help="Stop with an error if a game takes more actions than this.",
)
@click.option("--progress/--no-progress", default=True, help="Show a progress bar.")
def tournament(
    rules: str,
    players: int | None,
    bots_text: str | None,
    seat_texts: tuple[str, ...],
    games: int,
    seed: int,
    duplicate: bool,
    jobs: int | None,
    dask: str | None,
    as_json: bool,
    csv_path: Path | None,
    max_actions: int,
    progress: bool,
) -> None:
    """Play many games between bots and print each bot's win rate with a 95% confidence
    interval, against the fair share 1/players.

    \b
    Seat rotation: game i is played with the lineup rotated by r = i mod R: seat s gets
    lineup[(s + r) mod players], R being the number of distinct rotations (the players,
    or fewer when the lineup repeats). So every bot sits in every seat equally often,
    and --games is rounded up to a multiple of R.

    Every game's seeds come from --seed and the game's number alone (with --duplicate,
    its block's number): the same command gives the same games with any --jobs, or on a
    Dask cluster (--dask). The CSV file's seed replays one game with
    ghostparty play --rules RULES --seat 0=BOT --seat 1=BOT ... --seed SEED.

    \b
    Examples:
      ghostparty tournament --bots greedy,random --games 1000
      ghostparty tournament --players 3 --seat 0=mcts --seat 1=greedy --seat 2=random
      ghostparty tournament --rules midnight-party --bots random --json --csv games.csv
      ghostparty tournament --bots mcts,expectimax --games 800 --duplicate
      ghostparty tournament --bots expectimax,greedy --games 5000 --dask tcp://10.0.0.5:8786
    """
    bots = parse_bots(bots_text)
    seats: dict[int, str] = {}
    for text in seat_texts:
        seat, bot = parse_seat(text)
        if seat in seats and seats[seat] != bot:
            raise click.BadParameter(f"seat {seat} is given twice ({seats[seat]}, {bot})", param_hint="--seat")
        seats[seat] = bot
    if not bots and not seats:
        raise click.UsageError(f"name the bots with --bots or --seat (bots: {', '.join(bot_names())})")
    if dask is not None and jobs is not None:
        raise click.UsageError("--jobs and --dask: give one (on a Dask cluster, its workers are the processes)")
    if players is None:
        players = 4 if bots else max(MIN_PLAYERS, *(seat + 1 for seat in seats))
    try:
        lineup = lineup_from(players, bots, seats)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    config = TournamentConfig(
        rules=rules, lineup=lineup, games=games, seed=seed, max_actions=max_actions, duplicate=duplicate
    )
    cores = os.cpu_count() or 1
    jobs = jobs or cores

    console = Console(highlight=False, stderr=as_json)
    lineup_text = ", ".join(f"{COLOURS[s]}={bot}" for s, bot in enumerate(lineup))
    if config.rotations == 1:
        rotation_text = "the same bot in every seat."
    else:
        rotation_text = (
            f"rotated each game ({config.rotations} rotations), so every bot plays every seat equally often."
        )
    console.print(f"Lineup {lineup_text}: {rotation_text}", markup=False, soft_wrap=True)
    if duplicate:
        deal_text = (
            f"each block of {config.rotations} games is played on one seed."
            if config.rotations > 1
            else "with one bot in every seat, every game is its own deal."
        )
        console.print(
            f"Duplicate deals: {deal_text}",
            markup=False,
            soft_wrap=True,
        )
    if config.total_games != games:
        console.print(
            f"--games {games} rounded up to {config.total_games}, a multiple of the {config.rotations} rotations.",
            markup=False,
            soft_wrap=True,
        )
    csv_file = None
    if csv_path is not None:  # opened first: an unwritable path fails before the games, not after
        try:
            csv_file = csv_path.open("w", encoding="utf-8", newline="")
        except OSError as error:
            raise click.ClickException(f"cannot write {csv_path}: {error.strerror or error}") from None
    try:
        result = run_with_progress(config, jobs, console, progress, dask)
        if csv_file is not None:
            write_csv(result, csv_file)
    finally:
        if csv_file is not None:
            csv_file.close()
    if as_json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        console.print(bot_table(result))
        console.print(seat_table(result))
    console.print(
        f"{len(result.games):,} games in {result.seconds:.2f} s: {rate(result.games_per_second)} games/s "
        + (
            f"on {result.jobs} Dask worker thread(s) at {dask}."
            if dask is not None
            else f"on {result.jobs} process(es); this machine has {cores} cores ({machine()})."
        ),
        markup=False,
        soft_wrap=True,
    )
    if csv_path is not None:
        console.print(f"Wrote {len(result.games):,} games to {csv_path}.", markup=False, soft_wrap=True)


def run_with_progress(
    config: TournamentConfig, jobs: int, console: Console, show: bool, dask: str | None = None
) -> TournamentResult:
    """Run the tournament with a progress bar on ``console``, redrawn from this thread
    (on the Dask cluster at ``dask`` if given)."""
    bar = progress_bar(console, show=show, auto_refresh=False)
    task = bar.add_task("games", total=config.total_games)
    last = 0.0

    def advance(n: int) -> None:
        nonlocal last
        bar.advance(task, n)
        now = time.monotonic()
        if now - last >= REFRESH:
            last = now
            bar.refresh()

    try:
        with bar:
            return run_tournament(config, jobs, advance, dask=dask)
    except (TournamentError, ParallelError) as error:
        raise click.ClickException(str(error)) from None
