"""Measure the deep review against the fast one: CPU per game and agreement on the best action.

    nice -n 10 python scripts/deep_review_measure.py --games 2 --jobs 2 --out docs/deep-review-measure.json

For hugo and midnight-party with 2 and 4 players, ``--games`` seeded games are played by
greedy and expectimax in turn (seat ``s`` of game ``g`` plays ``BOTS[(g + s) % 2]``) and
reviewed twice, each with a fresh evaluator: by the fast review (the defaults) and by the
deep review (:mod:`ghostparty.analysis.review.deep_review`, its defaults or
``--rollouts``). Per game: the CPU seconds of each and their ratio; of the decisions the
deep analysis judged, how often both reviews name the same best action, how often they
give the same mark, and the mean loss of each. Writes JSON to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from ghostparty.analysis.review.deep_review import ROLLOUTS, deep_review_game
from ghostparty.analysis.review.evaluator import Evaluator
from ghostparty.analysis.review.review import review_game
from ghostparty.bots import make_bot
from ghostparty.rules import GameRecord, ruleset, start_position
from ghostparty.sim.playout import seeded_playout
from ghostparty.sim.seeds import game_seed

SETTINGS = (("hugo", 2), ("hugo", 4), ("midnight-party", 2), ("midnight-party", 4))
BOTS = ("greedy", "expectimax")


def bot_game(rules: str, players: int, game: int, seed: int) -> GameRecord:
    """One seeded game, seat ``s`` played by ``BOTS[(game + s) % 2]``."""
    start = start_position(ruleset(rules), players)
    bots = [make_bot(BOTS[(game + s) % len(BOTS)]) for s in range(players)]
    s = game_seed(seed, game)
    return GameRecord(start=start, actions=tuple(step.action for step in seeded_playout(start, bots, s)), seed=s)


def measure(job: tuple[str, int, int, int, int]) -> dict[str, Any]:
    """One game reviewed both ways."""
    rules, players, game, seed, rollouts = job
    record = bot_game(rules, players, game, seed)
    fast = review_game(record, evaluator=Evaluator())
    deep = deep_review_game(record, rollouts=rollouts, evaluator=Evaluator())
    pairs = [(f, d) for f, d in zip(fast.steps, deep.steps, strict=True) if d.rollouts]
    result = {
        "rules": rules,
        "players": players,
        "game": game,
        "actions": len(record.actions),
        "deep_decisions": len(pairs),
        "fast_cpu": fast.stats["cpu_seconds"],
        "deep_cpu": deep.stats["cpu_seconds"],
        "same_best": sum(1 for f, d in pairs if f.best == d.best),
        "same_mark": sum(1 for f, d in pairs if f.mark == d.mark),
        "fast_marks": sum(1 for f, _ in pairs if f.mark),
        "deep_marks": sum(1 for _, d in pairs if d.mark),
        "fast_mean_loss": statistics.fmean(f.loss for f, _ in pairs) if pairs else 0.0,
        "deep_mean_loss": statistics.fmean(d.loss for _, d in pairs) if pairs else 0.0,
        "deep_mean_loss_se": statistics.fmean(d.loss_se or 0.0 for _, d in pairs) if pairs else 0.0,
    }
    print(json.dumps(result), file=sys.stderr, flush=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rollouts", type=int, default=ROLLOUTS)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("docs/deep-review-measure.json"))
    options = parser.parse_args()
    jobs = [(r, p, g, options.seed, options.rollouts) for g in range(options.games) for r, p in SETTINGS]
    with Pool(options.jobs) as pool:
        games = pool.map(measure, jobs, chunksize=1)
    table = []
    for rules, players in SETTINGS:
        mine = [g for g in games if g["rules"] == rules and g["players"] == players]
        decisions = sum(g["deep_decisions"] for g in mine)
        fast_cpu = statistics.fmean(g["fast_cpu"] for g in mine)
        deep_cpu = statistics.fmean(g["deep_cpu"] for g in mine)
        row = {
            "rules": rules,
            "players": players,
            "games": len(mine),
            "fast_cpu_per_game": round(fast_cpu, 2),
            "deep_cpu_per_game": round(deep_cpu, 2),
            "ratio": round(deep_cpu / fast_cpu, 1),
            "deep_decisions": decisions,
            "same_best": sum(g["same_best"] for g in mine),
            "same_mark": sum(g["same_mark"] for g in mine),
            "fast_marks": sum(g["fast_marks"] for g in mine),
            "deep_marks": sum(g["deep_marks"] for g in mine),
        }
        table.append(row)
        print(json.dumps(row))
    options.out.write_text(
        json.dumps({"settings": vars(options) | {"out": str(options.out)}, "table": table, "games": games}, indent=1)
        + "\n",
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()
