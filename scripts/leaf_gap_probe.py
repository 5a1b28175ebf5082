"""How much of the review leaf's gap to its own one-roll search a linear model on the seat's features explains.

    nice -n 10 python scripts/leaf_gap_probe.py --games 16 --seed 101

The gap is what the review's drift at a roll is made of: at every roll of ``--games``
games of ``scripts/review_drift.py``'s bots, each seat's margin one roll deep (the mean
over the faces, the review's evaluator with its leaf correction) minus its margin at the
leaf. A least-squares fit of the gap on the seat's row of
:data:`~ghostparty.bots.features.FEATURES` and its seat relative to the seat to move, on
three games in four, is judged on the fourth: the mean absolute gap before and after and
the share of its variance explained (R²). A high share would mean a leaf refitted by
temporal differences (the same linear model, fitted to its one-roll search) could remove
most of the drift; a low one that it needs a richer evaluation or a deeper search.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from ghostparty.analysis.review.evaluator import Evaluator
from ghostparty.bots.features import seat_features
from ghostparty.rules import ROLL

sys.path.insert(0, str(Path(__file__).parent))
from review_drift import RULES, mixed_game


def probe(rules: str, players: int, games: int, seed: int) -> dict[str, float]:
    """The held-out fit of one rule set and player count (the module's text)."""
    rows: list[list[float]] = []
    gaps: list[float] = []
    held_out: list[bool] = []
    for game in range(games):
        evaluator = Evaluator()
        for position in mixed_game(rules, players, game, seed).replay():
            if position.phase != ROLL:
                continue
            leaf, deeper = evaluator.leaf(position)[1], evaluator.search(position, 1)[1]
            features = seat_features(position)
            for seat in range(players):
                relative = [float((seat - position.to_move) % players == k) for k in range(players)]
                rows.append(features[seat] + relative)
                gaps.append(deeper[seat] - leaf[seat])
                held_out.append(game % 4 == 0)
    x, y, test = np.array(rows), np.array(gaps), np.array(held_out)
    weights, *_ = np.linalg.lstsq(x[~test], y[~test], rcond=None)
    left = y[test] - x[test] @ weights
    return {
        "samples": len(gaps),
        "held_out_mean_abs_gap": round(float(np.mean(np.abs(y[test]))), 3),
        "after_fit": round(float(np.mean(np.abs(left))), 3),
        "r2": round(float(1 - np.sum(left**2) / np.sum((y[test] - y[test].mean()) ** 2)), 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--games", type=int, default=16, help="games per rule set and player count (a quarter held out)"
    )
    parser.add_argument("--seed", type=int, default=101)
    parser.add_argument("--players", default="2,4", help="player counts, e.g. 2,4")
    args = parser.parse_args()
    for rules in RULES:
        for players in (int(p) for p in args.players.split(",")):
            print(f"{rules} {players}p", json.dumps(probe(rules, players, args.games, args.seed)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
