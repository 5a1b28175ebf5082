"""Fit the review's leaf correction (:mod:`ghostparty.analysis.review.correction`) on bot games.

    nice -n 10 python scripts/fit_leaf_correction.py --games 6 --seed 101 --jobs 2

For hugo and midnight-party with 2 to 8 players (``--players``), ``--games`` games of a mix of bots
(as ``scripts/review_drift.py`` plays them; use another ``--seed`` than the measurement's).
Every roll and placement of them is a sample: a roll's target is the mean over the faces
of its one-roll search, a placement's the value (one roll deep) of its best placement, both
on the corrected leaves. The shifts are fitted by Gauss–Newton on the mean of
leaf − target per phase and seat relative to the seat to move; a shift common to a
phase's seats changes no win chance, so each phase's shifts add up to 0 (the mean gap
left is the evaluation's own trend in margins, which no correction per seat removes). Writes the JSON the
evaluator loads, with the mean |leaf − target| before and after; the player counts not fitted keep
the file's shifts (``--out``'s, if it exists).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np

from ghostparty.analysis.review.correction import CORRECTION_FILE, PHASES, Correction
from ghostparty.analysis.review.evaluator import Evaluator, _preference
from ghostparty.bots.leaf import LearnedLeaf
from ghostparty.rules import PLACE, ROLL, Position, apply, legal_actions

sys.path.insert(0, str(Path(__file__).parent))
from review_drift import RULES, mixed_game

PLAYERS = (2, 3, 4, 5, 6, 7, 8)

OUT = Path(__file__).parent.parent / "src/ghostparty/analysis/review" / CORRECTION_FILE


def target(evaluator: Evaluator, position: Position) -> tuple[float, ...]:
    """The margins a leaf at ``position`` should agree with (the module's text)."""
    if position.phase == ROLL:
        return evaluator.search(position, 1)[1]
    prefer = _preference(position.to_move)
    return max((evaluator.search(apply(position, a), 1) for a in legal_actions(position)), key=prefer)[1]


def gaps(positions: list[Position], raw: list[list[float]], shift: np.ndarray, rules: str, n: int) -> np.ndarray:
    """Mean (corrected leaf − target) per (phase, relative seat), flattened; and mean |…| last."""
    correction = Correction({(rules, n, phase): tuple(shift[i * n : (i + 1) * n]) for i, phase in enumerate(PHASES)})
    evaluator = Evaluator(horizon=0, correction=correction)
    sums = np.zeros(len(PHASES) * n)
    counts = np.zeros(len(PHASES) * n)
    absolute = 0.0
    for position, leaf in zip(positions, raw, strict=True):
        goal = target(evaluator, position)
        base = PHASES.index(position.phase) * n
        for seat in range(n):
            rel = (seat - position.to_move) % n
            gap = leaf[seat] + shift[base + rel] - goal[seat]
            sums[base + rel] += gap
            counts[base + rel] += 1
            absolute += abs(gap)
    return np.append(sums / np.maximum(counts, 1), absolute / (len(positions) * n))


def fit(job: tuple[str, int, int, int, int]) -> dict[str, Any]:
    rules, n, games, seed, rounds = job
    started = time.process_time()
    positions = [p for g in range(games) for p in mixed_game(rules, n, g, seed).replay() if p.phase in (ROLL, PLACE)]
    leaf = LearnedLeaf()
    raw = [leaf(p) for p in positions]
    shift = np.zeros(len(PHASES) * n)
    first = now = gaps(positions, raw, shift, rules, n)
    for _ in range(rounds):
        jacobian = np.empty((len(shift), len(shift)))
        for j in range(len(shift)):
            step = shift.copy()
            step[j] += 1.0
            jacobian[:, j] = gaps(positions, raw, step, rules, n)[:-1] - now[:-1]
        shift = shift - np.linalg.lstsq(jacobian, now[:-1], rcond=1e-6)[0]
        for i in range(len(PHASES)):  # a shift common to a phase's seats changes no win chance
            shift[i * n : (i + 1) * n] -= shift[i * n : (i + 1) * n].mean()
        now = gaps(positions, raw, shift, rules, n)
        print(rules, n, "shift", np.round(shift, 3).tolist(), "mean gaps", np.round(now, 3).tolist(), file=sys.stderr)
    return {
        "rules": rules,
        "players": n,
        "shifts": {phase: [round(float(x), 4) for x in shift[i * n : (i + 1) * n]] for i, phase in enumerate(PHASES)},
        "samples": len(positions),
        "mean_abs_gap_before": round(float(first[-1]), 4),
        "mean_abs_gap_after": round(float(now[-1]), 4),
        "largest_mean_gap_before": round(float(np.abs(first[:-1]).max()), 4),
        "largest_mean_gap_after": round(float(np.abs(now[:-1]).max()), 4),
        "cpu_seconds": round(time.process_time() - started, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=6, help="games per rule set and player count")
    parser.add_argument("--seed", type=int, default=101)
    parser.add_argument("--rounds", type=int, default=2, help="Gauss–Newton steps")
    parser.add_argument("--jobs", type=int, default=1, choices=(1, 2))
    parser.add_argument("--players", default=",".join(map(str, PLAYERS)), help="player counts, e.g. 2,4")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    players = [int(p) for p in args.players.split(",")]
    if not players or any(p not in PLAYERS for p in players):
        parser.error(f"--players: counts among {PLAYERS}, got {args.players!r}")
    jobs = [(r, p, args.games, args.seed, args.rounds) for r in RULES for p in players]
    with Pool(args.jobs) as pool:
        fitted = pool.map(fit, sorted(jobs, key=lambda job: -job[1]), chunksize=1)
    document: dict[str, Any] = json.loads(args.out.read_text(encoding="utf-8")) if args.out.exists() else {}
    document.update(
        about="Added to the learned evaluation's predicted margin of each seat at the review's leaves, "
        "per rule set, players, phase and seat relative to the seat to move (ghostparty.analysis.review.correction).",
    )
    document.setdefault("shifts", {})
    document.setdefault("fit", {})
    commands = document.setdefault("commands", {})
    for rules in RULES:
        for p in players:
            commands[f"{rules} {p}"] = "python " + " ".join(["scripts/fit_leaf_correction.py", *sys.argv[1:]])
    for row in sorted(fitted, key=lambda row: (row["rules"], row["players"])):
        document["shifts"].setdefault(row["rules"], {})[str(row["players"])] = row.pop("shifts")
        document["fit"].setdefault(row.pop("rules"), {})[str(row.pop("players"))] = row
    for key in ("shifts", "fit"):
        document[key] = {
            r: dict(sorted(per.items(), key=lambda item: int(item[0]))) for r, per in document[key].items()
        }
    document["commands"] = dict(sorted(commands.items()))
    args.out.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(document["fit"], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
