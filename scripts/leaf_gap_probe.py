"""How much of the review leaf's gap to its own one-roll search a model of the seat's features explains.

    nice -n 10 python scripts/leaf_gap_probe.py --games 16 --seed 101

The gap is what the review's drift at a roll is made of: at every roll of ``--games``
games of ``scripts/review_drift.py``'s bots, each seat's margin one roll deep (the mean
over the faces, the review's evaluator with its leaf correction) minus its margin at the
leaf. A least-squares fit of the gap on the seat's row of
:data:`~ghostparty.bots.features.FEATURES` and its seat relative to the seat to move, on
three games in four, is judged on the fourth: the mean absolute gap before and after and
the share of its variance explained (R²); so is a small neural network on the same inputs
(two hidden layers of 64 rectified units, Adam, 40 passes; numpy). A high share would
mean a leaf refitted by temporal differences (that model, fitted to its one-roll search)
could remove most of the drift; a low one that the features do not hold what the gap
depends on, and it needs a richer evaluation or a deeper search.

``--locations`` adds the whole position to the inputs (:func:`location_inputs`: the seat's
guests, the other seats' guests and Hugo, counted at every location of the board) and
fits the network with ``--hidden`` units per layer (64 by default) over ``--epochs``
passes: whether a richer evaluation could see what the features miss.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike

from ghostparty.analysis.review.evaluator import Evaluator
from ghostparty.bots.features import seat_features
from ghostparty.rules import ROLL, Position

sys.path.insert(0, str(Path(__file__).parent))
from review_drift import RULES, mixed_game


def location_inputs(position: Position, seat: int) -> list[float]:
    """The seat's guests, the other seats' guests and Hugo, counted at every location of the board."""
    size = position.board.size
    inputs = [0.0] * (3 * size)
    for owner, locations in enumerate(position.guests):
        for location in locations:
            inputs[location + (0 if owner == seat else size)] += 1.0
    inputs[2 * size + position.hugo] = 1.0
    return inputs


def inputs(position: Position, *, locations: bool) -> list[list[float]]:
    """Every seat's inputs: its row of features, its seat relative to the mover, and with
    ``locations`` the whole position (:func:`location_inputs`)."""
    players = position.players
    features = seat_features(position)
    return [
        features[seat]
        + [float((seat - position.to_move) % players == k) for k in range(players)]
        + (location_inputs(position, seat) if locations else [])
        for seat in range(players)
    ]


def probe(
    rules: str, players: int, games: int, seed: int, *, locations: bool = False, hidden: int = 64, epochs: int = 40
) -> dict[str, float]:
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
            rows += inputs(position, locations=locations)
            gaps += [deeper[seat] - leaf[seat] for seat in range(players)]
            held_out += [game % 4 == 0] * players
    x, y, test = np.array(rows), np.array(gaps), np.array(held_out)
    weights, *_ = np.linalg.lstsq(x[~test], y[~test], rcond=None)
    linear = y[test] - x[test] @ weights
    network = y[test] - fit_network(x[~test], y[~test], seed, hidden, epochs)(x[test])
    spread = np.sum((y[test] - y[test].mean()) ** 2)
    return {
        "samples": len(gaps),
        "held_out_mean_abs_gap": round(float(np.mean(np.abs(y[test]))), 3),
        "after_fit": round(float(np.mean(np.abs(linear))), 3),
        "r2": round(float(1 - np.sum(linear**2) / spread), 3),
        "after_network": round(float(np.mean(np.abs(network))), 3),
        "r2_network": round(float(1 - np.sum(network**2) / spread), 3),
    }


def fit_network(
    x: np.ndarray, y: np.ndarray, seed: int, hidden: int = 64, epochs: int = 40
) -> Callable[[ArrayLike], np.ndarray]:
    """A two-hidden-layer ReLU network fitted to ``(x, y)`` by Adam on the squared error
    (inputs standardised on ``x``; one constant there is only centred): its predictions."""
    mean, spread = x.mean(axis=0), x.std(axis=0)
    scale = np.where(spread > 0, spread, 1.0)  # an input constant in training (a location never used) stays 0
    x = (x - mean) / scale
    rng = np.random.default_rng(seed)
    params = [
        rng.normal(0, 1 / np.sqrt(x.shape[1]), (x.shape[1], hidden)),
        np.zeros(hidden),
        rng.normal(0, 1 / np.sqrt(hidden), (hidden, hidden)),
        np.zeros(hidden),
        rng.normal(0, 1 / np.sqrt(hidden), hidden),
        np.zeros(1),
    ]
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]

    def forward(batch: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        h1 = np.maximum(0.0, batch @ params[0] + params[1])
        h2 = np.maximum(0.0, h1 @ params[2] + params[3])
        return h1, h2, h2 @ params[4] + params[5][0]

    step = 0
    for _ in range(epochs):
        order = rng.permutation(len(x))
        for start in range(0, len(order), 256):
            batch, target = x[order[start : start + 256]], y[order[start : start + 256]]
            h1, h2, out = forward(batch)
            g = 2 * (out - target) / len(batch)
            g2 = np.outer(g, params[4]) * (h2 > 0)
            g1 = g2 @ params[2].T * (h1 > 0)
            grads = [batch.T @ g1, g1.sum(0), h1.T @ g2, g2.sum(0), h2.T @ g, np.array([g.sum()])]
            step += 1
            for i, grad in enumerate(grads):
                first[i] = 0.9 * first[i] + 0.1 * grad
                second[i] = 0.999 * second[i] + 0.001 * grad * grad
                params[i] -= 1e-3 * (first[i] / (1 - 0.9**step)) / (np.sqrt(second[i] / (1 - 0.999**step)) + 1e-8)
    return lambda rows: forward((np.asarray(rows, dtype=float) - mean) / scale)[2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--games", type=int, default=16, help="games per rule set and player count (a quarter held out)"
    )
    parser.add_argument("--seed", type=int, default=101)
    parser.add_argument("--players", default="2,4", help="player counts, e.g. 2,4")
    parser.add_argument("--locations", action="store_true", help="add every location's guests and Hugo to the inputs")
    parser.add_argument("--hidden", type=int, default=64, help="units per hidden layer of the network")
    parser.add_argument("--epochs", type=int, default=40, help="passes over the training positions")
    args = parser.parse_args()
    for rules in RULES:
        for players in (int(p) for p in args.players.split(",")):
            found = probe(
                rules, players, args.games, args.seed, locations=args.locations, hidden=args.hidden, epochs=args.epochs
            )
            print(f"{rules} {players}p", json.dumps(found), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
