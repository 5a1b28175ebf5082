"""The first player's advantage in real games, from Ghost Party's open game data, with DuckDB.

    python examples/open_data.py https://ghostparty.example/open-data    # a server's files
    python examples/open_data.py open-data/                             # a folder ghostparty export wrote

Downloads every month's Parquet file listed in the server's index (``GET /open-data``)
into ``./open-data-cache`` — only those whose SHA-256 changed — and checks each against
the index; or reads the folder's. Then one DuckDB query: per rule set and number of
players, the games and the first player's share of the wins (a win shared by k players
counts 1/k) with a 95 % Wilson interval beside the fair share 1/n. The figure of docs/analysis.md
from simulated random play (``ghostparty analyze seats``: seat 0 wins 25.1 % of 4-player
hugo games) is the same measure, from bots' games instead of people's.
(``pip install 'ghostparty[data]'`` brings DuckDB.)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import urllib.request
from pathlib import Path

import duckdb

QUERY = """
SELECT rules, players, count(*) AS games,
       sum(CASE WHEN list_contains(winners, first_player) THEN 1.0 / len(winners) ELSE 0 END) AS first_wins
FROM read_parquet(?)
GROUP BY rules, players
ORDER BY rules, players
"""


def fetch(base: str, cache: Path) -> list[Path]:
    """The server's Parquet files, downloaded into ``cache`` where missing or changed."""
    cache.mkdir(parents=True, exist_ok=True)
    with urllib.request.urlopen(base.rstrip("/"), timeout=30) as response:
        index = json.load(response)
    files = []
    for month in index["months"]:
        for entry in month["files"]:
            if not entry["name"].endswith(".parquet"):
                continue
            path = cache / entry["name"]
            if not path.exists() or hashlib.sha256(path.read_bytes()).hexdigest() != entry["sha256"]:
                with urllib.request.urlopen(f"{base.rstrip('/')}/{entry['name']}", timeout=120) as response:
                    data = response.read()
                if hashlib.sha256(data).hexdigest() != entry["sha256"]:
                    raise SystemExit(f"{entry['name']}: the download doesn't match the index's SHA-256")
                path.write_bytes(data)
            files.append(path)
    return files


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """A 95 % Wilson score interval for a share of ``n``."""
    p = successes / n
    middle = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return middle - half, middle + half


def first_player_advantage(files: list[Path]) -> list[tuple[str, int, int, float, float, float]]:
    """(rules, players, games, first player's share of the wins, interval low, high)."""
    rows = duckdb.connect().execute(QUERY, [[str(f) for f in files]]).fetchall()
    return [(rules, players, games, wins / games, *wilson(wins, games)) for rules, players, games, wins in rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", help="a server's /open-data URL, or a folder of ghostparty export's files")
    parser.add_argument("--cache", default="open-data-cache", help="where downloads are kept")
    args = parser.parse_args()
    if args.source.startswith(("http://", "https://")):
        files = fetch(args.source, Path(args.cache))
    else:
        files = sorted(Path(args.source).glob("ghostparty-games-*.parquet"))
    if not files:
        sys.exit(f"no ghostparty-games-*.parquet in {args.source}")
    print(f"{'rules':15} {'players':>7} {'games':>7}  first player's share of the wins (fair)")
    for rules, players, games, share, low, high in first_player_advantage(files):
        print(
            f"{rules:15} {players:7d} {games:7d}  {100 * share:5.1f} % [{100 * low:.1f}–{100 * high:.1f}] ({100 / players:.1f} %)"
        )


if __name__ == "__main__":
    main()
