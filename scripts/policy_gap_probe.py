"""How much drift values of a fixed policy would leave at the decisions: the policy's own improvement.

    nice -n 10 python scripts/policy_gap_probe.py --games 6 --every 3 --players 2

Values that are one policy's expected results (rollouts of ``learned`` in every seat) are
consistent across a roll on average, but not across a decision: the value before it is
the policy's choice's, and the review's best action is the best there is. What the best
adds over the policy's choice is drift at every decision where they differ, however many
rollouts remove the noise. At every ``--every``-th move with a choice in ``--games`` games
of ``scripts/review_drift.py``'s bots, the deep analysis (:func:`~ghostparty.analysis.deep.analyze`,
every move, ``--rollouts`` rollouts of ``learned`` cut after ``--cut`` rolls) picks the
best move with one seed of dice, and values it and ``learned``'s choice with another (so
the pick's own luck does not count). The mean of that difference (the mover's win
chance) per move, times the games' moves with a choice, is set beside the sum of the
roller's own luck over every roll in the fast review of the same games: with two players
the seats' absolute drift and luck are twice the mover's and the roller's, so the ratio
is what Σ|drift| / Σ|luck| would be at the moves alone (placements counted as none: a
lower bound, before any noise of the rollouts).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from random import Random

from ghostparty.analysis.deep import analyze
from ghostparty.analysis.review.review import review_game
from ghostparty.bots import make_bot
from ghostparty.rules import MOVE, legal_actions

sys.path.insert(0, str(Path(__file__).parent))
from review_drift import RULES, mixed_game


def probe(rules: str, players: int, games: int, seed: int, every: int, rollouts: int, cut: int) -> dict[str, float]:
    """The improvement over ``learned`` at the moves against the luck of the rolls (the module's text)."""
    learned = make_bot("learned")
    gaps: list[float] = []
    differs = 0
    choices = 0
    luck: list[float] = []
    for game in range(games):
        record = mixed_game(rules, players, game, seed)
        luck += [abs(step.luck[step.seat]) for step in review_game(record).steps if step.luck is not None]
        moves = [p for p in record.replay() if p.phase == MOVE and len(legal_actions(p)) > 1]
        choices += len(moves)
        for position in moves[every - 1 :: every]:
            chosen = learned.choose(position, Random(0))
            best = analyze(position, rollouts=rollouts, width=None, cut=cut, seed=1).best.action
            values = {
                o.action: o.win for o in analyze(position, rollouts=rollouts, width=None, cut=cut, seed=2).options
            }
            gaps.append(values[best] - values[chosen])
            differs += best != chosen
    gap = sum(gaps) / len(gaps)
    return {
        "moves": len(gaps),
        "moves_with_a_choice": choices,
        "rolls": len(luck),
        "learned_differs": round(differs / len(gaps), 3),
        "mean_gap": round(gap, 4),
        "mean_own_luck": round(sum(luck) / len(luck), 4),
        "gap_over_luck": round(gap * choices / sum(luck), 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=6, help="games per rule set")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--every", type=int, default=3, help="sample every so many moves with a choice")
    parser.add_argument("--rollouts", type=int, default=48)
    parser.add_argument("--cut", type=int, default=6, help="rolls each rollout makes before the leaf")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    for rules in RULES:
        found = probe(rules, args.players, args.games, args.seed, args.every, args.rollouts, args.cut)
        print(f"{rules} {args.players}p", json.dumps(found), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
