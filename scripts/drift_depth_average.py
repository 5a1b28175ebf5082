"""Drift against luck with a roll's value averaged over two depths, with and without the leaf correction.

    nice -n 10 python scripts/drift_depth_average.py --games 3 --seed 2

An experiment, not the review: :class:`Averaged` values a roll searched ``d >= 1`` rolls
deep as the mean of its values ``d`` and ``d - 1`` rolls deep (inside the search too), so
the seat to move at the leaves alternates within one value; its luck is measured against
the mean over the faces of the value after them, so it still averages to exactly 0 over
the die. Per rule set and player count (the games of ``scripts/review_drift.py``, every
evaluator on each game in turn, the order alternating): Σ|drift| / Σ|luck| (all, rolls',
placements') and CPU seconds per game for the review as it is (with the fitted leaf
correction, :mod:`ghostparty.analysis.review.correction`), without the correction,
averaged, and averaged without the correction.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

from ghostparty.analysis.review.correction import Correction
from ghostparty.analysis.review.evaluator import Evaluator, Pair
from ghostparty.analysis.review.review import review_game
from ghostparty.rules import DIE, ROLL, Position, apply

sys.path.insert(0, str(Path(__file__).parent))
from review_drift import RULES, mixed_game

SETTINGS = [(rules, players) for rules in RULES for players in (2, 4)]


class Averaged(Evaluator):
    """The review's evaluator with a roll's value the mean of two depths (the module's text)."""

    def search(self, position: Position, depth: int) -> Pair:
        if position.phase != ROLL or depth < 1:
            return super().search(position, depth)
        (w1, m1), (w0, m0) = super().search(position, depth), super().search(position, depth - 1)
        return (
            tuple((a + b) / 2 for a, b in zip(w1, w0, strict=True)),
            tuple((a + b) / 2 for a, b in zip(m1, m0, strict=True)),
        )

    def luck(self, position: Position, after: Position) -> Pair:
        n = position.players
        win, margin = [0.0] * n, [0.0] * n
        for roll, p in DIE:
            w, m = self.search(apply(position, roll), self.depth - 1)
            for seat in range(n):
                win[seat] += float(p) * w[seat]
                margin[seat] += float(p) * m[seat]
        got_win, got_margin = self.search(after, self.depth - 1)
        return (
            tuple(a - b for a, b in zip(got_win, win, strict=True)),
            tuple(a - b for a, b in zip(got_margin, margin, strict=True)),
        )


KINDS: dict[str, Callable[[], Evaluator]] = {
    "review": Evaluator,
    "uncorrected": lambda: Evaluator(correction=Correction()),
    "averaged": Averaged,
    "averaged uncorrected": lambda: Averaged(correction=Correction()),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2)
    args = parser.parse_args()
    for rules, players in SETTINGS:
        sums = {kind: dict.fromkeys(("luck", "roll", "place", "cpu"), 0.0) for kind in KINDS}
        for game in range(args.games):
            record = mixed_game(rules, players, game, args.seed)
            for kind in list(KINDS) if game % 2 == 0 else list(reversed(KINDS)):
                started = time.process_time()
                review = review_game(record, evaluator=KINDS[kind]())
                total = sums[kind]
                total["cpu"] += time.process_time() - started
                for step in review.steps:
                    if step.luck is not None:
                        total["luck"] += sum(abs(x) for x in step.luck)
                        total["roll"] += sum(abs(d) for d in step.drift)
                    elif step.kind == "place":
                        total["place"] += sum(abs(d) for d in step.drift)
        row = {
            kind: {
                "all": round((t["roll"] + t["place"]) / t["luck"], 3),
                "rolls": round(t["roll"] / t["luck"], 3),
                "placements": round(t["place"] / t["luck"], 3),
                "cpu_seconds_per_game": round(t["cpu"] / args.games, 2),
            }
            for kind, t in sums.items()
        }
        print(f"{rules} {players}p", json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
