"""Drift of a review whose leaf a network corrects, fitted by temporal differences to its own one-roll search.

    nice -n 10 python scripts/leaf_td_drift.py --rules midnight-party --players 2 --games 60 --test 12 --rounds 3

An experiment, not the review. Each round plays ``--games`` new games of
``scripts/review_drift.py``'s bots and, at every roll, sets each seat's target to the
network's correction so far plus the gap of the corrected leaf to its own one-roll
search (the mean over the faces, :meth:`~ghostparty.analysis.review.evaluator.Evaluator.search`);
a new network (:func:`leaf_gap_probe.fit_network` on :func:`leaf_gap_probe.inputs`, the
whole position included, ``--hidden`` units) is fitted to those targets: fitted value
iteration on the leaf's margins. After each round the same ``--test`` games, of a seed
no round trained on, are reviewed with the leaf as it is and with the network's
correction added to every roll's leaf (:class:`NetworkLeaf`): Σ|drift| / Σ|luck| and the
CPU seconds a game of each.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike

from ghostparty.analysis.review.evaluator import Evaluator, Pair
from ghostparty.analysis.review.review import review_game
from ghostparty.bots.leaf import LearnedLeaf, shifted_chances
from ghostparty.rules import ROLL, GameRecord, Position

sys.path.insert(0, str(Path(__file__).parent))
from leaf_gap_probe import fit_network, inputs
from review_drift import mixed_game

#: Predicted corrections of the seats' margins from their rows of :func:`leaf_gap_probe.inputs`.
Network = Callable[[ArrayLike], np.ndarray]


class NetworkLeaf(Evaluator):
    """The review's evaluator with ``network``'s correction added to every roll's predicted margins."""

    def __init__(self, network: Network) -> None:
        super().__init__()
        self.network = network
        self._corrected: dict[Position, Pair] = {}
        self._margins = LearnedLeaf()

    def leaf(self, position: Position) -> Pair:
        if position.phase != ROLL:
            return super().leaf(position)
        found = self._corrected.get(position)
        if found is None:
            self.stats["leaves"] += 1
            shift = self.network(inputs(position, locations=True))
            margins = [m + float(s) for m, s in zip(self._margins(position), shift, strict=True)]
            beta = self.calibration.beta(position.ruleset.id, position.players)
            found = self._corrected[position] = shifted_chances(margins, self.correction.by_seat(position), beta)
        return found


def drift_and_luck(record: GameRecord, evaluator: Evaluator) -> tuple[float, float, float]:
    """Σ|drift|, Σ|luck| and the CPU seconds of ``record``'s review by ``evaluator``."""
    started = time.process_time()
    review = review_game(record, evaluator=evaluator)
    cpu = time.process_time() - started
    luck = sum(abs(x) for step in review.steps if step.luck is not None for x in step.luck)
    return sum(abs(x) for step in review.steps for x in step.drift), luck, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="midnight-party", choices=("hugo", "midnight-party"))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=60, help="new games a round trains on")
    parser.add_argument("--test", type=int, default=12, help="held-out games reviewed after each round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--hidden", type=int, default=256, help="units per hidden layer")
    parser.add_argument("--seed", type=int, default=101, help="round r trains on seed + r; the test games on seed - 1")
    args = parser.parse_args()
    tests = [mixed_game(args.rules, args.players, g, args.seed - 1) for g in range(args.test)]
    network: Network | None = None
    for round_ in range(args.rounds):
        rows: list[list[float]] = []
        targets: list[float] = []
        for game in range(args.games):
            evaluator = Evaluator() if network is None else NetworkLeaf(network)
            for position in mixed_game(args.rules, args.players, game, args.seed + round_).replay():
                if position.phase != ROLL:
                    continue
                seats = inputs(position, locations=True)
                leaf, deeper = evaluator.leaf(position)[1], evaluator.search(position, 1)[1]
                before = network(seats) if network is not None else np.zeros(args.players)
                rows += seats
                targets += [float(before[s]) + deeper[s] - leaf[s] for s in range(args.players)]
        network = fit_network(np.array(rows), np.array(targets), round_, args.hidden)
        sums = {"as is": [0.0, 0.0, 0.0], "network": [0.0, 0.0, 0.0]}
        for record in tests:
            for name, evaluator in (("as is", Evaluator()), ("network", NetworkLeaf(network))):
                sums[name] = [a + b for a, b in zip(sums[name], drift_and_luck(record, evaluator), strict=True)]
        print(
            f"{args.rules} {args.players}p round {round_ + 1}: {len(targets)} targets;",
            "; ".join(
                f"{name}: drift/luck {d / l:.3f}, {cpu / len(tests):.2f} s a game" for name, (d, l, cpu) in sums.items()
            ),
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
