"""``ghostparty serve``: the game server for play in the browser."""

from __future__ import annotations

import gc

import click


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (0.0.0.0: every interface).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on.")
@click.option(
    "--database",
    metavar="URL",
    help="SQLAlchemy URL of the store, e.g. sqlite:///games.db or postgresql://user@host/db "
    "[default: a SQLite file in ~/.local/share/ghostparty]",
)
@click.option(
    "--redis",
    metavar="URL",
    help="Redis URL (redis://127.0.0.1:6379/0) to share live updates between several server instances "
    "on one database [default: in-process]",
)
@click.option(
    "--bot-delay",
    default=0.5,
    show_default=True,
    type=click.FloatRange(0, 10),
    help="Seconds a bot waits before each action, so people can follow.",
)
@click.option(
    "--max-new-tables",
    default=30.0,
    show_default=True,
    type=click.FloatRange(1),
    help="Tables one address may create per minute.",
)
@click.option(
    "--log-level", default="info", show_default=True, type=click.Choice(["debug", "info", "warning", "error"])
)
def serve(
    host: str,
    port: int,
    database: str | None,
    redis: str | None,
    bot_delay: float,
    max_new_tables: float,
    log_level: str,
) -> None:
    """Run the game server: a lobby and live games in the browser, bots in empty seats.

    \b
    ghostparty serve                                  http://127.0.0.1:8000, SQLite
    ghostparty serve --database postgresql://127.0.0.1/ghostparty --redis redis://127.0.0.1:6379
    """
    import uvicorn
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    from ghostparty.server.app import create_app, default_database_url

    url = database or default_database_url()
    try:
        make_url(url)
    except ArgumentError:
        raise click.BadParameter(
            f"{url!r} is not a database URL (e.g. sqlite:///games.db)", param_hint="--database"
        ) from None
    app = create_app(url, redis_url=redis, bot_delay=bot_delay, tables_per_minute=max_new_tables)
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"Ghost Party: http://{shown}:{port}  (store: {_safe(url)})")
    click.echo("Press Ctrl-C to stop.")
    tune_gc()
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=1 << 16)


def tune_gc() -> None:
    """Make the garbage collector's pauses rare for a long-running server.

    Measured with ``ghostparty loadtest`` (200 games): CPython's default thresholds ran a
    full collection every few seconds that held the event loop for 75–160 ms, the whole
    of the round trip's 99th percentile. Everything alive at start-up (modules, boards,
    the app) is moved out of the collector's sight (``gc.freeze``), and the young
    generation is collected after 20,000 new objects instead of 700; cycles are still
    collected, just in fewer, larger batches.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 100)


def _safe(url: str) -> str:
    """The URL without its password."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
