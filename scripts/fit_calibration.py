"""Fit the game review's win-chance calibration and measure it on held-out games.

    python scripts/fit_calibration.py --games 2000 --seed 1            # writes calibration.json
    python scripts/fit_calibration.py --games 2000 --seed 1 --search 300 --figure docs/review-calibration.png

For each rule set and number of players (2 … 8), ``--games`` self-play games are played
by the compiled simulator (:mod:`ghostparty.fast`): the first half with every seat on the
rules-aware ``safe`` policy, the second half with ``safe`` and ``random`` seats
alternating (good play and its mistakes). From each game ``--samples`` positions (any
phase but the end) are drawn; every seat's predicted final margin (the learned
evaluation with the review's leaf correction, :mod:`ghostparty.analysis.review.correction`,
as the review's leaf computes it) is labelled with its share of the win (1/k in a k-way
tie, RULES.md §7).
Every fourth game is held out. ``beta`` of :mod:`ghostparty.analysis.review.calibration`
is fitted on the others by maximum likelihood (a one-dimensional search) and the
held-out positions are scored: the Brier score (mean over seats of (p - share)²)
beside the uniform guess 1/n, and a reliability table (10 bins of predicted chance).
``--search N`` also scores the review's evaluator itself (search to ``--depth`` rolls
on the calibrated leaves) on N held-out positions of 2 and 4 players, and ``--figure``
draws the reliability diagrams of both (matplotlib). Needs the ``fast`` and
``analysis`` extras (numba, numpy, matplotlib).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from ghostparty.analysis.review.calibration import CALIBRATION_FILE, softmax_chances
from ghostparty.analysis.review.correction import load_correction
from ghostparty.bots.learned import learned_estimates
from ghostparty.fast.trace import recorded_games
from ghostparty.rules import OVER, Position, ruleset

PLAYERS = (2, 3, 4, 5, 6, 7, 8)
RULES = ("hugo", "midnight-party")
DEFAULT_OUT = Path(__file__).resolve().parents[1] / "src" / "ghostparty" / "analysis" / "review" / CALIBRATION_FILE
BINS = 10


@dataclass
class Data:
    """Sampled positions: each seat's predicted margins and its share of the win."""

    margins: list[list[float]] = field(default_factory=list)
    shares: list[list[float]] = field(default_factory=list)
    positions: list[Position] = field(default_factory=list)


def shares_of(final: Position) -> list[float]:
    """Each seat's share of the win of a finished game."""
    k = len(final.winners)
    return [1.0 / k if seat in final.winners else 0.0 for seat in range(final.players)]


def collect(rules: str, players: int, games: int, seed: int, samples: int) -> tuple[Data, Data]:
    """Training and held-out positions of one rule set and number of players."""
    rs = ruleset(rules)
    rng = random.Random(f"{seed}/{rules}/{players}")
    half = games // 2
    played = recorded_games(rs, players, half, seed=seed, policies=("safe",))
    played += recorded_games(rs, players, games - half, seed=seed + 1, policies=("safe", "random"))
    train, held = Data(), Data()
    correction = load_correction()
    for index, game in enumerate(played):
        final = game.positions[-1]
        if final.phase != OVER:
            raise RuntimeError(f"{rules} {players}p game {index} did not end")
        share = shares_of(final)
        open_positions = [game.start, *game.positions[:-1]]
        for position in rng.sample(open_positions, min(samples, len(open_positions))):
            out = held if index % 4 == 3 else train
            out.margins.append(list(correction.apply(position, learned_estimates(position))))
            out.shares.append(share)
            out.positions.append(position)
    return train, held


def log_likelihood(data: Data, beta: float) -> float:
    total = 0.0
    for margins, share in zip(data.margins, data.shares, strict=True):
        chances = softmax_chances(margins, beta)
        total += sum(y * math.log(max(p, 1e-300)) for p, y in zip(chances, share, strict=True) if y > 0)
    return total


def fit_beta(data: Data) -> float:
    """The ``beta`` of the highest likelihood, by golden-section search on [0, 2]."""
    lo, hi = 0.0, 2.0
    ratio = (math.sqrt(5) - 1) / 2
    a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
    fa, fb = log_likelihood(data, a), log_likelihood(data, b)
    for _ in range(40):
        if fa > fb:
            hi, b, fb = b, a, fa
            a = hi - ratio * (hi - lo)
            fa = log_likelihood(data, a)
        else:
            lo, a, fa = a, b, fb
            b = lo + ratio * (hi - lo)
            fb = log_likelihood(data, b)
    return round((lo + hi) / 2, 5)


def brier(predictions: list[tuple[float, ...]], shares: list[list[float]]) -> float:
    """Mean over seats of (predicted chance - share of the win)²."""
    errors = [
        (p - y) ** 2 for pred, share in zip(predictions, shares, strict=True) for p, y in zip(pred, share, strict=False)
    ]
    return sum(errors) / len(errors)


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson interval of a share won out of ``n`` seats (a tie's 1/k counted as
    such; seats of one position are not independent, so it is a little narrow)."""
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def reliability(predictions: list[tuple[float, ...]], shares: list[list[float]]) -> list[list[float]]:
    """Per bin of predicted chance: [mean predicted, mean share won, seats, low, high],
    the last two the share's 95 % interval (:func:`wilson`)."""
    sums = [[0.0, 0.0, 0.0] for _ in range(BINS)]
    for pred, share in zip(predictions, shares, strict=True):
        for p, y in zip(pred, share, strict=True):
            row = sums[min(BINS - 1, int(p * BINS))]
            row[0] += p
            row[1] += y
            row[2] += 1
    table = []
    for total, won, n in sums:
        if n:
            low, high = wilson(won / n, int(n))
            table.append([round(total / n, 4), round(won / n, 4), int(n), round(low, 4), round(high, 4)])
    return table


def missed(table: list[list[float]]) -> int:
    """Bins whose mean prediction lies outside the 95 % interval of the share won there."""
    return sum(1 for mean, _, _, low, high in table if not low <= mean <= high)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="games per rule set and number of players")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=4, help="positions drawn per game")
    parser.add_argument("--search", type=int, default=0, help="held-out positions to score the searching evaluator on")
    parser.add_argument("--depth", type=int, default=None, help="the evaluator's search depth (default: the review's)")
    parser.add_argument(
        "--search-players", default="2,3,4,5,6,7,8", help="the player counts --search scores (comma-separated)"
    )
    parser.add_argument("--figure", type=Path, default=None, help="where to draw the reliability diagrams")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    started = time.process_time()
    searched = {int(n) for n in args.search_players.split(",") if n.strip()}
    betas: dict[str, dict[str, float]] = {}
    held_out: dict[str, dict[str, object]] = {}
    panels: dict[tuple[str, int], dict[str, list[list[float]]]] = {}
    for rules in RULES:
        for players in PLAYERS:
            train, held = collect(rules, players, args.games, args.seed, args.samples)
            beta = fit_beta(train)
            betas.setdefault(rules, {})[str(players)] = beta
            predicted = [softmax_chances(m, beta) for m in held.margins]
            uniform = [tuple(1.0 / players for _ in range(players))] * len(held.shares)
            report: dict[str, object] = {
                "positions": len(held.shares),
                "brier_leaf": round(brier(predicted, held.shares), 5),
                "brier_uniform": round(brier(uniform, held.shares), 5),
                "reliability_leaf": reliability(predicted, held.shares),
            }
            report["bins_missed_leaf"] = missed(report["reliability_leaf"])  # type: ignore[arg-type]
            if args.search and players in searched:
                report.update(score_search(rules, players, held, beta, args.search, args.depth, panels))
            panels.setdefault((rules, players), {})["leaf"] = report["reliability_leaf"]  # type: ignore[assignment]
            held_out.setdefault(rules, {})[str(players)] = report
            print(
                f"{rules} {players}p: beta {beta}, " + ", ".join(f"{k} {v}" for k, v in report.items() if "brier" in k)
            )
    document = {
        "about": "Win chance = softmax over seats of -beta x the learned evaluation's predicted margin "
        "(ghostparty.analysis.review.calibration), beta fitted by maximum likelihood per rule set and players.",
        "command": "python " + " ".join(["scripts/fit_calibration.py", *sys.argv[1:]]),
        "games": args.games,
        "samples_per_game": args.samples,
        "seed": args.seed,
        "cpu_seconds": round(time.process_time() - started, 1),
        "held_out": held_out,
        "betas": betas,
    }
    args.out.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    if args.figure is not None:
        draw(panels, args.figure)
    return 0


def score_search(
    rules: str, players: int, held: Data, beta: float, count: int, depth: int | None,
    panels: dict[tuple[str, int], dict[str, list[list[float]]]],
) -> dict[str, object]:  # fmt: skip
    """Brier score and reliability of the review's evaluator on ``count`` held-out positions."""
    from ghostparty.analysis.review.calibration import Calibration
    from ghostparty.analysis.review.evaluator import Evaluator

    calibration = Calibration({(rules, players): beta}, {})
    evaluator = Evaluator(calibration=calibration, **({} if depth is None else {"depth": depth}))
    step = max(1, len(held.positions) // count)
    chosen = list(range(0, len(held.positions), step))[:count]
    started = time.process_time()
    predicted = [evaluator.value(held.positions[i]).win for i in chosen]
    seconds = time.process_time() - started
    shares = [held.shares[i] for i in chosen]
    leaf = [softmax_chances(held.margins[i], beta) for i in chosen]
    table = reliability(predicted, shares)
    panels.setdefault((rules, players), {})["search"] = table
    return {
        "search_positions": len(chosen),
        "search_depth": evaluator.depth,
        "brier_search": round(brier(predicted, shares), 5),
        "brier_leaf_same_positions": round(brier(leaf, shares), 5),
        "search_ms_per_position": round(1000 * seconds / len(chosen), 1),
        "reliability_search": table,
        "bins_missed_search": missed(table),
    }


def draw(panels: dict[tuple[str, int], dict[str, list[list[float]]]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    keys = [(r, p) for r in RULES for p in (2, 4) if (r, p) in panels]
    fig, axes = plt.subplots(1, len(keys), figsize=(3.6 * len(keys), 3.8), squeeze=False)
    for ax, key in zip(axes[0], keys, strict=True):
        ax.plot([0, 1], [0, 1], color="grey", linewidth=0.8, linestyle="--")
        for name, style in (("leaf", "o-"), ("search", "s-")):
            table = panels[key].get(name)
            if table:
                errors = [[r[1] - r[3] for r in table], [r[4] - r[1] for r in table]]
                xs, ys = [r[0] for r in table], [r[1] for r in table]
                ax.errorbar(xs, ys, yerr=errors, fmt=style, markersize=4, capsize=2, label=name)
        ax.set_title(f"{key[0]}, {key[1]} players", fontsize=10)
        ax.set_xlabel("predicted win chance")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.legend(fontsize=8)
    axes[0][0].set_ylabel("share of wins (held-out games)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"figure: {path}")


if __name__ == "__main__":
    sys.exit(main())
