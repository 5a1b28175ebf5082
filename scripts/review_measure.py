"""Measure the game review's solver domain, bounds and move agreement on bot games.

    python scripts/review_measure.py --games 6 --agreement 40 --figure docs/review-agreement.png

For hugo and midnight-party with 2 and 4 players, ``--games`` seeded games of greedy
bots (:func:`ghostparty.analysis.review.timing.bot_game`) are played. **Solver domain**:
every position of phase roll or move is counted; the late ones (:func:`is_late`) get
the solver's bounds (horizon 2, as the analysis board asks; the review asks none by
default), and the table says how many
were late, how many stayed within the node budget, how many came out tight enough to
replace the search (width at most ``TIGHT``), the mean width and the CPU per call.
**Bounds check**: every game is reviewed with the solver and each value checked against
its proven bounds (a value outside them is a bug). **Whole games**: every game is
reviewed as the review runs and two rolls deep throughout (``depth=2, deepen=0, beam=3``), in
turn, and the judged decisions compared: the same best action, the same mark, the mean
difference of the losses, and each one's CPU. **Agreement**: on ``--agreement`` decisions
(more than one legal move) from the last third of the games, the best move one roll
deep, two rolls deep with every action searched in full (no ``gap``), and as the review
runs is compared with a deeper search (depth 3, every action searched); ``--figure``
draws the agreement per level.
Writes the results as JSON to ``--out`` (default ``docs/review-measure.json``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from ghostparty.analysis.review.evaluator import BUDGET, LEADERS, SCREEN, SOLVER_HORIZON, TIGHT, Evaluator, is_late
from ghostparty.analysis.review.review import review_game
from ghostparty.analysis.review.solver import Solver
from ghostparty.analysis.review.timing import bot_game
from ghostparty.rules import MOVE, Position, legal_actions
from ghostparty.sim.seeds import game_seed

SETTINGS = (("hugo", 2), ("hugo", 4), ("midnight-party", 2), ("midnight-party", 4))
REFERENCE_DEPTH = 3


def best_action(evaluator: Evaluator, position: Position) -> object:
    return evaluator.best(position, evaluator.actions(position))[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--agreement", type=int, default=40, help="late decisions per setting")
    parser.add_argument("--figure", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=Path("docs/review-measure.json"))
    args = parser.parse_args()
    results: dict[str, object] = {"command": "python " + " ".join(["scripts/review_measure.py", *sys.argv[1:]])}
    for rules, players in SETTINGS:
        records = [bot_game(rules, players, "greedy", game_seed(args.seed, g)) for g in range(args.games)]
        solver = Solver(SOLVER_HORIZON, BUDGET)
        counts = {"positions": 0, "late": 0, "within_budget": 0, "tight": 0}
        widths: list[float] = []
        solver_seconds = 0.0
        late_decisions: list[Position] = []
        for record in records:
            positions = record.replay()
            third = len(positions) * 2 // 3
            for index, position in enumerate(positions):
                if position.phase not in ("roll", "move"):
                    continue
                counts["positions"] += 1
                if index >= third and position.phase == MOVE and len(legal_actions(position)) > 1:
                    late_decisions.append(position)
                if not is_late(position):
                    continue
                counts["late"] += 1
                started = time.process_time()
                bounds = solver.bounds(position)
                solver_seconds += time.process_time() - started
                if bounds is not None:
                    counts["within_budget"] += 1
                    widths.append(bounds.width)
                    counts["tight"] += bounds.width <= TIGHT
        outside = 0
        checked = 0
        review_seconds = []
        whole = dict.fromkeys(("decisions", "same_best", "same_mark", "loss_difference", "cpu", "cpu_depth_2"), 0.0)
        for game, record in enumerate(records):
            for step in review_game(record, evaluator=Evaluator(horizon=SOLVER_HORIZON)).steps:
                checked += 1
                outside += not step.after.bounds.contains(step.after.win)
            timed = {}
            for name in ("cpu", "cpu_depth_2") if game % 2 == 0 else ("cpu_depth_2", "cpu"):
                started = time.process_time()
                timed[name] = review_game(
                    record, evaluator=Evaluator() if name == "cpu" else Evaluator(depth=2, deepen=0)
                )
                whole[name] += time.process_time() - started
            review_seconds.append(timed["cpu"].stats["cpu_seconds"])
            for mine, deeper in zip(timed["cpu"].steps, timed["cpu_depth_2"].steps, strict=True):
                if deeper.judged:
                    whole["decisions"] += 1
                    whole["same_best"] += mine.best == deeper.best
                    whole["same_mark"] += mine.mark == deeper.mark
                    whole["loss_difference"] += abs(mine.loss - deeper.loss)
        step = max(1, len(late_decisions) // args.agreement)
        sample = late_decisions[::step][: args.agreement]
        reference = Evaluator(depth=REFERENCE_DEPTH, deepen=0, beam=None, horizon=0, gap=None)
        levels = {
            "depth 1": Evaluator(depth=1, deepen=0),
            "depth 2 (beam 3), every action in full": Evaluator(depth=2, deepen=0, beam=3, gap=None),
            f"depth 1, close decisions 2 (screen {SCREEN}, {LEADERS} leaders, beam 1: the review)": Evaluator(),
        }
        agree = dict.fromkeys(levels, 0)
        seconds = dict.fromkeys(levels, 0.0)
        started = time.process_time()
        for position in sample:
            truth = best_action(reference, position)
            for name, evaluator in levels.items():
                began = time.process_time()
                agree[name] += best_action(evaluator, position) == truth
                seconds[name] += time.process_time() - began
        key = f"{rules} {players}p"
        results[key] = {
            **counts,
            "mean_width": round(sum(widths) / len(widths), 4) if widths else None,
            "solver_ms_per_call": round(1000 * solver_seconds / max(1, counts["late"]), 2),
            "values_checked": checked,
            "values_outside_bounds": outside,
            "review_cpu_seconds_per_game": round(sum(review_seconds) / len(review_seconds), 2),
            "actions_per_game": round(sum(len(r.actions) for r in records) / len(records), 1),
            "against_depth_2": {
                "decisions": int(whole["decisions"]),
                "same_best": round(whole["same_best"] / max(1, whole["decisions"]), 3),
                "same_mark": round(whole["same_mark"] / max(1, whole["decisions"]), 3),
                "mean_loss_difference": round(whole["loss_difference"] / max(1, whole["decisions"]), 4),
                "cpu_ratio": round(whole["cpu"] / whole["cpu_depth_2"], 3),
            },
            "agreement_positions": len(sample),
            "agreement": {name: round(n / len(sample), 3) for name, n in agree.items()},
            "agreement_cpu_seconds_per_level": {name: round(t, 2) for name, t in seconds.items()},
            "agreement_cpu_seconds": round(time.process_time() - started, 1),
        }
        print(key, json.dumps(results[key]))
    args.out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    if args.figure is not None:
        draw(results, args.figure)
    return 0


def draw(results: dict[str, object], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    keys = [k for k in results if k != "command"]
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
    names = list(results[keys[0]]["agreement"])  # type: ignore[index]
    width = 0.8 / len(names)
    for i, name in enumerate(names):
        values = [100 * results[k]["agreement"][name] for k in keys]  # type: ignore[index]
        axes[0].bar([x + i * width for x in range(len(keys))], values, width, label=name)
    axes[0].set_xticks([x + width * (len(names) - 1) / 2 for x in range(len(keys))], keys, fontsize=8)
    axes[0].set_ylabel(f"% same best move as depth {REFERENCE_DEPTH}")
    axes[0].set_ylim(0, 100)
    axes[0].legend(fontsize=8)
    axes[0].set_title("late decisions: agreement with a deeper search", fontsize=10)
    late = [100 * results[k]["late"] / results[k]["positions"] for k in keys]  # type: ignore[index]
    budget = [100 * results[k]["within_budget"] / results[k]["positions"] for k in keys]  # type: ignore[index]
    tight = [100 * results[k]["tight"] / results[k]["positions"] for k in keys]  # type: ignore[index]
    xs = range(len(keys))
    axes[1].bar([x - 0.27 for x in xs], late, 0.27, label="late (solver tried)")
    axes[1].bar(list(xs), budget, 0.27, label="within its node budget")
    axes[1].bar([x + 0.27 for x in xs], tight, 0.27, label=f"bounds ≤ {TIGHT} wide (exact)")
    axes[1].set_xticks(list(xs), keys, fontsize=8)
    axes[1].set_ylabel("% of positions (roll, move)")
    axes[1].legend(fontsize=8)
    axes[1].set_title("the solver's domain in greedy games", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"figure: {path}")


if __name__ == "__main__":
    sys.exit(main())
