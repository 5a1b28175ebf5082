"""Whether the leaf correction changes the review's best moves, and their agreement with a deeper search.

    nice -n 10 python scripts/leaf_correction_agreement.py --games 3 --decisions 30 --seed 2 --jobs 2

Per rule set and player count, ``--decisions`` decisions (more than one legal move) spread
over ``--games`` games of ``scripts/review_drift.py``'s bots: the review's best move with
and without :mod:`ghostparty.analysis.review.correction`, how often they are the same, and
how often each is the best move of a depth-3 search with every action searched (with and
without the correction). CPU seconds of the review's evaluators per decision too.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from ghostparty.analysis.review.correction import Correction, load_correction
from ghostparty.analysis.review.evaluator import Evaluator
from ghostparty.rules import MOVE, Position, legal_actions

sys.path.insert(0, str(Path(__file__).parent))
from review_drift import RULES, mixed_game

SETTINGS = [(rules, players) for rules in RULES for players in (2, 4)]


def best(evaluator: Evaluator, position: Position) -> object:
    return evaluator.best(position, evaluator.actions(position))[0]


def compare(job: tuple[str, int, int, int, int]) -> dict[str, Any]:
    rules, n, games, decisions, seed = job
    plain, fitted = Correction(), load_correction()
    positions = [
        p
        for g in range(games)
        for p in mixed_game(rules, n, g, seed).replay()
        if p.phase == MOVE and len(legal_actions(p)) > 1
    ]
    sample = positions[:: max(1, len(positions) // decisions)][:decisions]
    counts = dict.fromkeys(("same", "plain=ref", "fitted=ref", "plain=ref_fitted", "fitted=ref_fitted"), 0)
    seconds = {"plain": 0.0, "fitted": 0.0}
    for position in sample:
        chosen = {}
        for name, correction in (("plain", plain), ("fitted", fitted)):
            started = time.process_time()
            chosen[name] = best(Evaluator(correction=correction), position)
            seconds[name] += time.process_time() - started
        ref = best(Evaluator(depth=3, deepen=0, beam=None, horizon=0, gap=None, correction=plain), position)
        ref_fitted = best(Evaluator(depth=3, deepen=0, beam=None, horizon=0, gap=None, correction=fitted), position)
        counts["same"] += chosen["plain"] == chosen["fitted"]
        counts["plain=ref"] += chosen["plain"] == ref
        counts["fitted=ref"] += chosen["fitted"] == ref
        counts["plain=ref_fitted"] += chosen["plain"] == ref_fitted
        counts["fitted=ref_fitted"] += chosen["fitted"] == ref_fitted
    row = {"decisions": len(sample), **{k: round(v / len(sample), 3) for k, v in counts.items()}}
    row["cpu_seconds_per_decision"] = {k: round(v / len(sample), 3) for k, v in seconds.items()}
    print(f"{rules} {n}p", json.dumps(row), flush=True)
    return {"setting": f"{rules} {n}p", **row}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--decisions", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=1, choices=(1, 2))
    args = parser.parse_args()
    with Pool(args.jobs) as pool:
        pool.map(compare, [(r, p, args.games, args.decisions, args.seed) for r, p in SETTINGS], chunksize=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
