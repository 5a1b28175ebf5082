"""``python -m ghostparty`` and the ``ghostparty`` command: the command line, or the
extra to install for it (the rules core installs with nothing; click and rich come
with ``ghostparty[cli]``, the server's packages with ``ghostparty[server]``)."""

from __future__ import annotations

import sys

#: The extra that brings each package the command line may miss, and what needs it.
EXTRAS = {
    "click": ("cli", "command line"),
    "rich": ("cli", "command line"),
    **dict.fromkeys(
        [
            "starlette",
            "uvicorn",
            "sqlalchemy",
            "pydantic",
            "orjson",
            "websockets",
            "alembic",
            "argon2",
            "openskill",
            "zxcvbn",
            "prometheus_client",
            "aiosmtplib",
            "email_validator",
            "cryptography",
            "babel",
            "pywebpush",
            "glicko2",
        ],
        ("server", "game server"),
    ),
    "httpx2": ("bot", "Bot API client (ghostparty connect)"),
    "numba": ("fast", "compiled simulator"),
    "gymnasium": ("rl", "reinforcement-learning environments"),
    "pettingzoo": ("rl", "reinforcement-learning environments"),
    "matplotlib": ("analysis", "drawing"),
    "psycopg": ("postgres", "PostgreSQL store"),
    "redis": ("redis", "Redis link between servers"),
}


def main() -> None:
    """Console-script entry point: run the command line, or say which extra it misses."""
    try:
        from ghostparty.cli.main import main as run

        run()
    except ModuleNotFoundError as error:
        missing = (error.name or "").partition(".")[0]
        if missing not in EXTRAS:
            raise
        extra, what = EXTRAS[missing]
        sys.exit(f"ghostparty's {what} needs: pip install 'ghostparty[{extra}]' ({missing} is not installed)")


if __name__ == "__main__":
    main()
