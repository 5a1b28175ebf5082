"""``ghostparty serve``: the game server for play in the browser."""

from __future__ import annotations

import json
import os
from typing import Any

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
    help="Tables one address or account may bring into being a minute (created, from quick-match, "
    "played again); ten times as many an hour.",
)
@click.option(
    "--max-sockets-per-address",
    default=20,
    show_default=True,
    type=click.IntRange(1),
    help="WebSockets one address may hold open on each instance.",
)
@click.option(
    "--allow-origin",
    "allowed_origins",
    multiple=True,
    metavar="ORIGIN",
    help="Another site (https://example.org) whose pages may post here; repeatable. Pages of this "
    "server's own address always may.",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Server processes on this port, sharing one database; more than one needs --redis.",
)
@click.option(
    "--log-level",
    default="warning",
    show_default=True,
    type=click.Choice(["debug", "info", "warning", "error"]),
    help="info logs every request and WebSocket connection (about 3 % of the server's CPU under load).",
)
@click.option(
    "--log-format",
    default="text",
    show_default=True,
    type=click.Choice(["text", "json"]),
    help="json: one JSON object a line (time, level, logger, message, fields), the access log too.",
)
@click.option(
    "--metrics-token",
    envvar="GHOSTPARTY_METRICS_TOKEN",
    metavar="TOKEN",
    help="A scraper of /metrics must send Authorization: Bearer TOKEN (then from anywhere) "
    "[default: /metrics answers only this machine's loopback address; env GHOSTPARTY_METRICS_TOKEN]",
)
@click.option(
    "--admin-token",
    envvar="GHOSTPARTY_ADMIN_TOKEN",
    metavar="TOKEN",
    help="Lets `ghostparty admin close --server` close tables with this token "
    "[default: no admin endpoint; env GHOSTPARTY_ADMIN_TOKEN]",
)
@click.option(
    "--open-data",
    metavar="DIR",
    type=click.Path(file_okay=False),
    help="Serve the files `ghostparty export --out DIR` writes at /open-data [default: none]",
)
@click.option(
    "--tournaments",
    metavar="FILE|hourly",
    help="Recurring tournaments the server makes: a JSON file of events (docs/tournaments.md), "
    "or 'hourly' for an hourly 2-player hugo arena and a daily bot ladder [default: none]",
)
@click.option(
    "--smtp",
    metavar="URL",
    help='Send email (address confirmations, password resets, "your move" reminders) through this '
    "SMTP server: smtp://[user:password@]host[:port], smtps://… (TLS), smtp+starttls://… "
    "[default: no email; the account page says so]",
)
@click.option("--mail-from", metavar="ADDRESS", help="The emails' sender [default: ghostparty@<the SMTP host>].")
@click.option(
    "--email-secret",
    envvar="GHOSTPARTY_EMAIL_SECRET",
    metavar="SECRET",
    help="Seals stored addresses and signs email links; the same on every instance, never in the "
    "database; needed with --smtp [env GHOSTPARTY_EMAIL_SECRET]",
)
@click.option(
    "--public-url",
    metavar="URL",
    help="This server's address as players reach it, for the links in emails [default: http://HOST:PORT]",
)
@click.option(
    "--remind-hours",
    default=12.0,
    show_default=True,
    type=click.FloatRange(0.1, 720),
    help='At most one "your move" email per turn-based game and player in this many hours (at most 720).',
)
@click.option(
    "--vapid-key",
    type=click.Path(exists=True, dir_okay=False),
    metavar="FILE",
    help="The server's VAPID key for Web Push (a P-256 private key, PEM) [default: made on the first "
    "start and kept in the database]",
)
@click.option(
    "--push-subject",
    metavar="mailto:ADDRESS|URL",
    help="Who runs the server, for the browsers' push services [default: mailto:<--mail-from>, else --public-url]",
)
@click.option(
    "--review-workers",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Processes that review finished games (each review is seconds of one core's time).",
)
@click.option(
    "--review-finished/--review-on-demand",
    default=True,
    show_default=True,
    help="Review every game as it ends, or only when someone opens its review.",
)
def serve(
    host: str,
    port: int,
    database: str | None,
    redis: str | None,
    bot_delay: float,
    max_new_tables: float,
    max_sockets_per_address: int,
    allowed_origins: tuple[str, ...],
    workers: int,
    log_level: str,
    log_format: str,
    metrics_token: str | None,
    admin_token: str | None,
    open_data: str | None,
    tournaments: str | None,
    smtp: str | None,
    mail_from: str | None,
    email_secret: str | None,
    public_url: str | None,
    remind_hours: float,
    vapid_key: str | None,
    push_subject: str | None,
    review_workers: int,
    review_finished: bool,
) -> None:
    """Run the game server: a lobby and live games in the browser, bots in empty seats.

    \b
    ghostparty serve                                  http://127.0.0.1:8000, SQLite
    ghostparty serve --database postgresql://127.0.0.1/ghostparty --redis redis://127.0.0.1:6379
    ghostparty serve --workers 2 --database postgresql://127.0.0.1/ghostparty --redis redis://127.0.0.1:6379

    Several instances (--workers here, or servers on other machines behind HAProxy or
    nginx: deploy/) serve every table from any of them: updates and presence go through
    Redis, and each game's bots and timers run on exactly one instance, taken over by
    another within seconds if it dies.

    /metrics (Prometheus) answers this machine alone unless --metrics-token is given;
    with --workers N each scrape is answered by one of the workers, so run instances
    on ports of their own to watch each (docs/operating.md, "What to watch").
    """
    import uvicorn
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    from ghostparty.server.app import SETTINGS_VARIABLE, create_app, tune_gc
    from ghostparty.server.http.ws_protocol import PROTOCOL as WS_PROTOCOL
    from ghostparty.server.infra.logs import json_log_config
    from ghostparty.server.wiring import default_database_url

    url = database or default_database_url()
    try:
        make_url(url)
    except ArgumentError:
        raise click.BadParameter(
            f"{url!r} is not a database URL (e.g. sqlite:///games.db)", param_hint="--database"
        ) from None
    if workers > 1 and not redis:
        raise click.BadParameter(
            "several workers tell each other's clients of changes through Redis: give --redis redis://…",
            param_hint="--workers",
        )
    shown = f"[{host}]" if ":" in host else host
    settings: dict[str, Any] = {
        "database_url": url,
        "redis_url": redis,
        "bot_delay": bot_delay,
        "tables_per_minute": max_new_tables,
        "sockets_per_address": max_sockets_per_address,
        "allowed_origins": list(allowed_origins),
        "metrics_token": _token(metrics_token, "--metrics-token"),
        "admin_token": _token(admin_token, "--admin-token"),
        "open_data": open_data,
        "tournament_events": tournaments,
        **_email(smtp, mail_from, email_secret, public_url or f"http://{shown}:{port}", remind_hours),
        "vapid_key": vapid_key,
        "push_subject": push_subject or (f"mailto:{mail_from}" if mail_from else public_url),
        "review_workers": review_workers,
        "review_finished": review_finished,
    }
    click.echo(
        f"Ghost Party: http://{shown}:{port}  (store: {_safe(url)}{f', {workers} workers' if workers > 1 else ''})"
    )
    click.echo("Press Ctrl-C to stop.")
    options: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_level": log_level,
        "access_log": log_level in ("debug", "info"),
        "ws_max_size": 1 << 16,
        "ws_per_message_deflate": False,
        "ws": WS_PROTOCOL,
    }
    if log_format == "json":
        options["log_config"] = json_log_config(log_level)
    if workers == 1:
        tune_gc()
        uvicorn.run(create_app(**settings), **options)
        return
    os.environ[SETTINGS_VARIABLE] = json.dumps(settings)
    uvicorn.run("ghostparty.server.app:app_from_environment", factory=True, workers=workers, **options)


def _token(token: str | None, option: str) -> str | None:
    """A token long enough not to be guessed, or none."""
    if token is None or token == "":
        return None
    if len(token) < 16 or not token.isprintable() or " " in token:
        raise click.BadParameter(
            "a token needs at least 16 printable characters and no spaces (e.g. python -c "
            "'import secrets; print(secrets.token_urlsafe())')",
            param_hint=option,
        )
    return token


def _email(
    smtp: str | None, mail_from: str | None, secret: str | None, public_url: str, remind_hours: float
) -> dict[str, Any]:
    """The settings of email, checked; none without --smtp."""
    if not smtp:
        return {}
    from ghostparty.server.mail.outbox import SmtpSettings

    try:
        SmtpSettings.from_url(smtp, mail_from)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--smtp") from None
    _token(secret, "--email-secret")
    if not secret:
        raise click.BadParameter(
            "email needs a secret to seal addresses and sign links (the same on every instance)",
            param_hint="--email-secret",
        )
    if not public_url.startswith(("http://", "https://")):
        raise click.BadParameter(f"{public_url!r} is not an http(s) URL", param_hint="--public-url")
    return {
        "smtp_url": smtp,
        "mail_from": mail_from,
        "email_secret": secret,
        "public_url": public_url,
        "remind_hours": remind_hours,
    }


def _safe(url: str) -> str:
    """The URL without its password."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
