"""``ghostparty bench``: how fast the rules engine plays random games (typed API, JSON
interface, compiled simulator), and — with ``--bots`` — how long each bot level takes to
choose a move; with ``--pairing``, how long tournament pairing takes."""

from __future__ import annotations

import json

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ghostparty import fast
from ghostparty.analysis.review.timing import ReviewTime, review_time
from ghostparty.analysis.simulate import default_jobs
from ghostparty.cli.bench_pairing import bench_pairing
from ghostparty.cli.progress import progress_bar
from ghostparty.cli.tournament import parse_bots
from ghostparty.rules import RULESETS, describe_core, ruleset
from ghostparty.sim.bench import INTERFACES, BenchResult, compile_kernel, machine
from ghostparty.sim.bench import bench as run_bench
from ghostparty.sim.pairing_bench import ENTRANTS
from ghostparty.sim.thinktime import ThinkTime, decision_positions, think_time

#: Games per setting when none is given: random games for the engine, greedy games
#: whose positions the bots are timed on.
ENGINE_GAMES = 300
BOT_GAMES = 3
#: Games reviewed per setting with --review when none is given.
REVIEW_GAMES = 3
#: The game server's CPU per action to set a review's cost beside: the documented load-test
#: figure (docs/performance.md, machine A: 200 four-player games, SQLite), unless
#: --serving-ms gives one measured on this machine (``scripts/load_ab.py``).
SERVING_MS_PER_ACTION = 0.28
#: Games per setting of the compiled simulator when none is given.
COMPILED_GAMES = 200_000


@click.command("bench")
@click.option(
    "--games",
    type=int,
    default=None,
    help=f"Games per setting: random games per rule set, player count and interface ({ENGINE_GAMES}); "
    f"with --bots, greedy games whose move decisions the bots are timed on ({BOT_GAMES}).",
)
@click.option(
    "--rules", "rules", multiple=True, type=click.Choice(sorted(RULESETS)), help="Rule set(s) to time (default: both)."
)
@click.option(
    "--players",
    "players",
    multiple=True,
    type=click.IntRange(2, 8),
    help="Player counts (default: 2, 4, 8; with --bots 2 and 4).",
)
@click.option(
    "--interface",
    "interfaces",
    multiple=True,
    type=click.Choice(INTERFACES),
    help="fast (typed API), json, compiled (the Numba simulator; default: all three, compiled if numba is installed).",
)
@click.option(
    "--compiled-games",
    type=click.IntRange(1),
    default=COMPILED_GAMES,
    show_default=True,
    help="Games per setting for the compiled interface.",
)
@click.option(
    "--jobs",
    type=click.IntRange(0),
    default=1,
    show_default=True,
    help="Processes for the compiled interface (0: every core); the others run on one core.",
)
@click.option(
    "--bots",
    "bots_text",
    metavar="BOT,BOT…",
    help="Time these bots' move decisions instead (think time per level), e.g. greedy,expectimax,mcts.",
)
@click.option(
    "--review",
    "review_flag",
    is_flag=True,
    help="Time the game review instead: CPU seconds per reviewed greedy game (default hugo, 4 players, 3 games).",
)
@click.option(
    "--deep",
    "deep_flag",
    is_flag=True,
    help="With --review: the deep review too, on the same games (a row per judge).",
)
@click.option(
    "--serving-ms",
    type=click.FloatRange(min=0.0, min_open=True),
    default=SERVING_MS_PER_ACTION,
    show_default=True,
    help="With --review: the server's CPU ms per action set beside the review's (the documented figure by default).",
)
@click.option(
    "--pairing",
    "pairing_flag",
    is_flag=True,
    help="Time tournament pairing instead: one Swiss round and one arena pass over --entrants players, "
    "per table size (--players, default 2, 3, 4).",
)
@click.option(
    "--entrants",
    type=click.IntRange(2),
    default=ENTRANTS,
    show_default=True,
    help="Players in the field with --pairing.",
)
@click.option("--seed", default=0, show_default=True, help="Seed of the random source.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
def bench_command(
    games: int | None,
    rules: tuple[str, ...],
    players: tuple[int, ...],
    interfaces: tuple[str, ...],
    compiled_games: int,
    jobs: int,
    bots_text: str | None,
    review_flag: bool,
    deep_flag: bool,
    serving_ms: float,
    pairing_flag: bool,
    entrants: int,
    seed: int,
    as_json: bool,
) -> None:
    """Play random games (uniform legal choices, the real die) on one core and print
    games per second and microseconds per action (wall clock, and process CPU time, the
    steadier figure on a shared machine), through the fast typed API, through
    FORMAT.md's JSON interface and through the compiled simulator (numba; its compile or
    cache-load time is measured apart, before the games).

    With --review: review seeded games of greedy bots (the game review of `ghostparty
    review`, a fresh evaluator per game) and print the CPU seconds per game and per
    action, beside the server's CPU per action for serving the game (--serving-ms);
    --deep adds the deep review of the same games (the rollouts of `ghostparty review
    --deep`), a row per judge.

    With --pairing: time one Swiss round (the fifth, after four of random results) and
    one arena pass (everyone free again after a game) over --entrants players, process
    CPU time per pass, for tables of --players (2, 3, 4).

    With --bots: time each bot choosing a move at every decision (more than one legal
    move) of seeded greedy games, the same positions for every bot, one core; print the
    median, 90th percentile and slowest think time.
    """
    if games is not None and games < 1:
        raise click.BadParameter("must be at least 1", param_hint="--games")
    console = Console(highlight=False, stderr=as_json)
    if deep_flag and not review_flag:
        raise click.BadParameter("--deep times the deep review: give --review too", param_hint="--deep")
    if pairing_flag:
        if review_flag or bots_text is not None or interfaces or rules:
            raise click.BadParameter(
                "--pairing times tournament pairing: leave out --review, --bots, --interface, --rules"
            )
        bench_pairing(console, players, entrants, seed, as_json)
        return
    if review_flag:
        if bots_text is not None or interfaces:
            raise click.BadParameter("--review times the game review: leave out --bots and --interface")
        settings = [(r, p) for r in (rules or ("hugo",)) for p in (players or (4,))]
        _bench_review(console, settings, games or REVIEW_GAMES, seed, serving_ms, as_json, deep_flag)
        return
    if bots_text is not None:
        if interfaces:
            raise click.BadParameter(
                "times the engine's interfaces, not bots: leave it out with --bots", param_hint="--interface"
            )
        bots = parse_bots(bots_text)
        settings = [(r, p) for r in (rules or ("hugo", "midnight-party")) for p in (players or (2, 4))]
        _bench_bots(console, bots, settings, games or BOT_GAMES, seed, as_json)
        return
    games = games or ENGINE_GAMES
    chosen = interfaces or INTERFACES
    if "compiled" in chosen and not fast.available():
        if interfaces:
            raise click.ClickException(fast.INSTALL_HINT)
        console.print(f"[yellow]{escape(fast.INSTALL_HINT)}[/]: timing the typed engine only")
        chosen = tuple(i for i in chosen if i != "compiled")
    compiled: dict[str, object] = {}
    if "compiled" in chosen:
        with console.status("compiling the simulator (or loading it from Numba's cache)"):
            wall, cpu, cached = compile_kernel()
        compiled = {"compile_seconds": round(wall, 2), "compile_cpu_seconds": round(cpu, 2), "from_cache": cached}
        console.print(
            f"compiled simulator ready in {wall:.1f} s ({cpu:.1f} s CPU, {'loaded from cache' if cached else 'compiled'})"
        )
    processes = jobs or default_jobs()
    plan = [(r, p, i) for r in (rules or ("hugo", "midnight-party")) for p in (players or (2, 4, 8)) for i in chosen]
    results: list[BenchResult] = []
    with progress_bar(console) as progress:
        task = progress.add_task("benchmarking", total=len(plan))
        for r, p, i in plan:
            progress.update(task, description=f"{r} {p}p {i}")
            if i == "compiled":
                results.append(run_bench(ruleset(r), p, i, compiled_games, seed, processes))
            else:
                results.append(run_bench(ruleset(r), p, i, games, seed))
            progress.advance(task)
    if as_json:
        print(
            json.dumps(
                [
                    {
                        "rules": x.rules,
                        "players": x.players,
                        "interface": x.interface,
                        "games": x.games,
                        "jobs": x.jobs,
                        "games_per_second": round(x.games_per_second, 1),
                        "us_per_action": round(x.microseconds_per_action, 3),
                        "cpu_games_per_second": round(x.cpu_games_per_second, 1),
                        "cpu_us_per_action": round(x.cpu_microseconds_per_action, 3),
                        "actions_per_game": round(x.actions_per_game, 1),
                        "core": describe_core(),
                        **(compiled if x.interface == "compiled" else {}),
                    }
                    for x in results
                ],
                indent=2,
            )
        )
        return
    table = Table(title=f"random games — {machine()}; rules core: {describe_core()}")
    for column in ("rules", "players", "interface", "games/s", "CPU games/s", "CPU µs/action", "actions/game"):
        table.add_column(column, justify="left" if column in ("rules", "interface") else "right")
    for x in results:
        table.add_row(
            x.rules,
            str(x.players),
            x.interface + (f" ×{x.jobs}" if x.jobs > 1 else ""),
            f"{x.games_per_second:,.0f}",
            f"{x.cpu_games_per_second:,.0f}",
            _us(x.cpu_microseconds_per_action),
            f"{x.actions_per_game:.0f}",
        )
    console.print(table)
    counts = sorted({(x.interface == "compiled", x.games) for x in results})
    console.print(
        f"{' and '.join(f'{n:,} games ({what})' for c, n in counts for what in ['compiled' if c else 'typed, json'])} "
        "per row. games/s by the wall clock; CPU: by the CPU time of the processes that played (the compiled "
        "workers' summed), the steadier figure on a shared machine."
    )


bench = bench_command


def _bench_bots(
    console: Console, bots: list[str], settings: list[tuple[str, int]], games: int, seed: int, as_json: bool
) -> None:
    """Time every bot on every setting's decision positions and print the table or JSON."""
    results: list[ThinkTime] = []
    with progress_bar(console) as progress:
        task = progress.add_task("finding positions", total=None)
        for rules_id, count in settings:
            progress.update(task, description=f"{rules_id} {count}p: {games} greedy game(s)", total=None, completed=0)
            positions = decision_positions(ruleset(rules_id), count, games, seed)
            for bot in bots:
                progress.update(task, description=f"{rules_id} {count}p: {bot}", total=len(positions), completed=0)
                results.append(think_time(bot, positions, seed, lambda: progress.advance(task)))
    if as_json:
        print(json.dumps([x.to_dict() for x in results], indent=2))
        return
    table = Table(title=f"think time per move decision, one core — {machine()}")
    for column in ("bot", "rules", "players", "decisions", "median ms", "p90 ms", "max ms"):
        table.add_column(column, justify="left" if column in ("bot", "rules") else "right")
    for x in results:
        table.add_row(x.bot, x.rules, str(x.players), str(x.decisions), _ms(x.median_ms), _ms(x.p90_ms), _ms(x.max_ms))
    console.print(table)


def _bench_review(
    console: Console,
    settings: list[tuple[str, int]],
    games: int,
    seed: int,
    serving_ms: float,
    as_json: bool,
    deep: bool = False,
) -> None:
    """Review seeded greedy games per setting (and, with ``deep``, deep-review them) and print
    CPU seconds per game and per action, and the review's CPU per action over the server's
    for serving it."""
    judges = ("fast", "deep") if deep else ("fast",)
    results: list[ReviewTime] = []
    with progress_bar(console) as progress:
        task = progress.add_task("reviewing", total=games * len(settings) * len(judges))
        for rules_id, count in settings:
            for judge in judges:
                progress.update(task, description=f"{rules_id} {count}p: {judge} review")
                results.append(
                    review_time(rules_id, count, games, seed, on_game=lambda: progress.advance(task), judge=judge)
                )
    rows = [x.to_dict() for x in results]
    for row in rows:
        row["core"] = describe_core()
        row["serving_ms_per_action"] = serving_ms
        row["review_per_serving"] = round(row["cpu_ms_per_action"] / serving_ms, 1)
    if as_json:
        print(json.dumps(rows, indent=2))
        return
    table = Table(
        title=f"game review, CPU per game and per action, one core — {machine()}; rules core: {describe_core()}",
        caption=f"serving: {serving_ms:g} ms of server CPU an action"
        + (" (documented, docs/performance.md)" if serving_ms == SERVING_MS_PER_ACTION else " (--serving-ms)"),
    )
    columns = ("review", "rules", "players", "games", "actions/game", "median s", "max s", "ms/action", "× serving")
    for column in columns:
        table.add_column(column, justify="left" if column in ("review", "rules") else "right")
    for x, d in zip(results, rows, strict=True):
        table.add_row(
            x.judge,
            x.rules,
            str(x.players),
            str(d["games"]),
            f"{d['mean_actions']:.0f}",
            f"{d['median_cpu_seconds']:.2f}",
            f"{d['max_cpu_seconds']:.2f}",
            f"{d['cpu_ms_per_action']:.1f}",
            f"{d['review_per_serving']:.0f}",
        )
    console.print(table)


def _us(value: float) -> str:
    """``9.87``, ``0.153``: microseconds with three significant digits."""
    return f"{value:#.3g}".rstrip(".")


def _ms(value: float) -> str:
    """``0.0081``, ``1.93``, ``98.4``, ``1,204``: three significant digits, no exponent."""
    return f"{value:,.0f}" if value >= 1000 else f"{value:#.3g}".rstrip(".")
