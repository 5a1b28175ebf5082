"""How often each bot's choice is one the solver proves best, on late 2-player decisions.

    python scripts/deep_measure.py --games 60 --last 6 --out docs/deep-measure.json

For hugo and midnight-party with 2 players, ``--games`` seeded games of ``learned`` bots
are played (:func:`ghostparty.analysis.review.timing.bot_game`); every decision with more
than one legal move in the last ``--last`` rolls of a game is a candidate. Each of its
actions gets the solver's proven bounds on the mover's win chance
(:class:`~ghostparty.analysis.review.solver.Solver`, ``--horizon`` rolls, ``--budget``
nodes; a position over budget is skipped). The bounds *separate* the actions when some
action is provably not best (its ``high`` is below another's ``low``), or some but not
every action is provably best (its ``low`` reaches every other's ``high``). On the separated decisions,
each bot chooses (its random source seeded per position), and the table counts, where
some action is provably worse, how often the choice **may be best** (is not provably
worse than another action) and, where one exists, how often it is **provably best**,
with Wilson 95 % intervals, and each bot's CPU per decision.

``--cost`` measures instead, on every third move decision (more than one legal move)
of two seeded ``greedy`` games per rule set: the CPU per decision of :data:`LEVELS`
(and of the ``deep`` bot's placements, on every third placement with a choice), and
the paired standard error of the difference between each rolled-out move and the best
(common random numbers) as a share of the unpaired one, ``sqrt(se_a² + se_b²)``, that
independent dice would give. Writes JSON to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from random import Random

from ghostparty.analysis.deep import DeepBot, analyze
from ghostparty.analysis.review.solver import EPSILON, Bounds, Solver
from ghostparty.analysis.review.timing import bot_game
from ghostparty.bots import Bot, make_bot
from ghostparty.rules import MOVE, PLACE, ROLL, Action, Position, apply, legal_actions
from ghostparty.sim.seeds import game_seed
from ghostparty.sim.stats import wilson_interval

BOTS = ("deep", "mcts", "expectimax", "learned", "greedy")
LEVELS = (
    "deep",
    "deep:rollouts=24,width=3",
    "deep:rollouts=12,width=3",
    "deep:rollouts=24,width=3,cut=3",
    "mcts",
    "expectimax",
)


def think_ms(bot: Bot, positions: list[Position]) -> dict[str, int]:
    """The median and maximum CPU ms of ``bot``'s choice in each of ``positions``."""
    times = []
    for index, position in enumerate(positions):
        started = time.process_time()
        bot.choose(position, Random(index))
        times.append(1000 * (time.process_time() - started))
    return {"median_ms": round(statistics.median(times)), "max_ms": round(max(times))}


def cost(rules: str, seed: int) -> dict[str, object]:
    """CPU per decision of :data:`LEVELS` and the common random numbers' gain (the module's text)."""
    games = [bot_game(rules, 2, "greedy", game_seed(seed, g)).replay() for g in range(2)]
    decisions = [p for game in games for p in game if p.phase == MOVE and len(legal_actions(p)) > 1][::3]
    placements = [p for game in games for p in game if p.phase == PLACE and len(legal_actions(p)) > 1][::3]
    found: dict[str, object] = {"decisions": len(decisions)}
    for spec in LEVELS:
        found[spec] = think_ms(make_bot(spec), decisions)
    found["deep placements"] = {"decisions": len(placements), **think_ms(make_bot("deep"), placements)}
    ratios = []
    for index, position in enumerate(p for p in decisions if len(legal_actions(p)) > 2):
        result = analyze(position, seed=index)
        for option in result.options[1:]:
            unpaired = math.hypot(option.se, result.best.se)
            if unpaired > 0:
                ratios.append(result.difference(option, result.best)[1] / unpaired)
    quartiles = statistics.quantiles(ratios, n=4)
    found["paired_over_unpaired_se"] = {"n": len(ratios), "quartiles": [round(q, 2) for q in quartiles]}
    return found


def late_decisions(rules: str, games: int, seed: int, last: int) -> list[Position]:
    """Decisions with a choice in the last ``last`` rolls of ``games`` learned games."""
    found = []
    for game in range(games):
        positions = bot_game(rules, 2, "learned", game_seed(seed, game)).replay()
        rolls = [i for i, p in enumerate(positions) if p.phase == ROLL]
        start = rolls[-last] if len(rolls) >= last else 0
        found += [p for p in positions[start:] if p.phase == MOVE and len(legal_actions(p)) > 1]
    return found


def verdicts(position: Position, solver: Solver) -> tuple[set[Action], set[Action]] | None:
    """(actions that may be best, actions provably best) by the bounds, or ``None`` if
    the bounds are over budget or do not separate the actions."""
    seat = position.to_move
    bounds: dict[Action, Bounds] = {}
    for action in legal_actions(position):
        found = solver.bounds(apply(position, action))
        if found is None:
            return None
        bounds[action] = found
    best_low = max(b.low[seat] for b in bounds.values())
    maybe = {a for a, b in bounds.items() if b.high[seat] >= best_low - EPSILON}
    proven = {
        a
        for a, b in bounds.items()
        if all(b.low[seat] >= other.high[seat] - EPSILON for o, other in bounds.items() if o != a)
    }
    if proven == set(bounds):  # all alike: no choice to judge
        proven = set()
    if len(maybe) == len(bounds) and not proven:
        return None
    return maybe, proven


def rate(hits: int, total: int) -> dict[str, object]:
    if total == 0:
        return {"n": 0}
    low, high = wilson_interval(hits, total)
    return {"n": total, "hits": hits, "rate": round(hits / total, 3), "ci": [round(low, 3), round(high, 3)]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--last", type=int, default=6, help="rolls at the end of each game whose decisions count")
    parser.add_argument("--horizon", type=int, default=3)
    parser.add_argument("--budget", type=int, default=20_000)
    parser.add_argument("--rules", default="hugo,midnight-party")
    parser.add_argument("--cost", action="store_true", help="measure CPU per decision and the CRN gain instead")
    parser.add_argument("--out", type=Path, default=Path("docs/deep-measure.json"))
    args = parser.parse_args()
    results: dict[str, object] = {"command": "python " + " ".join(["scripts/deep_measure.py", *sys.argv[1:]])}
    if args.cost:
        for rules in args.rules.split(","):
            results[f"{rules} 2p"] = cost(rules, args.seed)
            print(rules, json.dumps(results[f"{rules} 2p"]), flush=True)
        args.out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
        return 0
    for rules in args.rules.split(","):
        candidates = late_decisions(rules, args.games, args.seed, args.last)
        solver = Solver(args.horizon, args.budget)
        separated: list[tuple[Position, set[Action], set[Action]]] = []
        started = time.process_time()
        for position in candidates:
            found = verdicts(position, solver)
            if found is not None:
                separated.append((position, *found))
        solver_seconds = time.process_time() - started
        per_bot: dict[str, object] = {}
        for name in BOTS:
            bot = DeepBot() if name == "deep" else make_bot(name)
            maybe_hits = maybe_total = proven_hits = proven_total = 0
            seconds = 0.0
            for index, (position, maybe, proven) in enumerate(separated):
                started = time.process_time()
                choice = bot.choose(position, Random(f"deep-measure:{args.seed}:{index}"))
                seconds += time.process_time() - started
                if len(maybe) < len(legal_actions(position)):
                    maybe_total += 1
                    maybe_hits += choice in maybe
                if proven:
                    proven_total += 1
                    proven_hits += choice in proven
            per_bot[name] = {
                "may_be_best": rate(maybe_hits, maybe_total),
                "provably_best": rate(proven_hits, proven_total),
                "cpu_ms_per_decision": round(1000 * seconds / max(1, len(separated)), 1),
            }
        key = f"{rules} 2p"
        results[key] = {
            "decisions": len(candidates),
            "separated": len(separated),
            "with_a_provably_best": sum(1 for _, _, proven in separated if proven),
            "solver_cpu_seconds": round(solver_seconds, 1),
            "bots": per_bot,
        }
        print(key, json.dumps(results[key]), flush=True)
    args.out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
