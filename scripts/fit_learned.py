"""Fit the learned evaluation's weights from self-play games of the compiled simulator.

    python scripts/fit_learned.py --games 1000000 --seed 1        # per rule set; writes the package's file

For each rule set, games are played in chunks of ``--chunk`` by :mod:`ghostparty.fast`
(numba): chunk ``i`` has ``2 + i % 7`` players and, drawn from the seed, either every
seat on the rules-aware ``safe`` policy or (half the chunks) ``safe`` and ``random``
seats alternating, so that the data hold good play and its mistakes. From each game
``--samples`` positions (any phase but the end) are drawn, each seat's row of
:func:`ghostparty.bots.features.seat_features` computed from the typed position, and
labelled with that seat's final margin: its final points minus the best other seat's,
what the bots minimise (a fit of the points themselves judged moves no better than the
hand-made evaluation: 25.1 % against greedy's 24.9 %, hugo, 4 players, 1,000 duplicate
games). Every tenth round of chunks (one chunk per
number of players), from the second on, is held out; the others are summed into
least-squares normal equations per rule set and number of players, so memory stays
flat however many games are played. The fit is reported on the held-out positions
beside the hand-made evaluation's (the margins of its estimates as the prediction): R²
of the final margins, and how often the seat predicted lowest is a winner.

The same arguments give the same file (every random draw comes from the seed). Needs
the ``fast`` and ``cli`` extras (numba, numpy, rich).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from ghostparty.bots.evaluation import estimates
from ghostparty.bots.features import FEATURES, WIDTH, seat_features
from ghostparty.bots.learned import WEIGHTS_FILE, margins
from ghostparty.fast import engine as e
from ghostparty.fast.play import RECORD_WIDTH, batch
from ghostparty.fast.tables import tables
from ghostparty.fast.trace import policy_codes, position_of
from ghostparty.rules import GUESTS_PER_PLAYER, Ruleset, ruleset

PLAYERS = (2, 3, 4, 5, 6, 7, 8)
RULES = ("hugo", "midnight-party")
#: Every HOLDOUT-th round of chunks (one chunk per number of players), from the second, is held out.
HOLDOUT = 10
#: Share of chunks with safe and random seats alternating.
MIXED = 0.5
#: Ridge penalty per training row (keeps rarely used features' weights finite).
RIDGE = 1e-4
#: Features whose weight must be >= 0 (+1) or <= 0 (-1): more danger, points or time
#: exposed cannot lower a seat's final margin, more chance to escape cannot raise them.
#: Unconstrained, the fit lets correlated measures of danger cancel (the hand-made
#: estimate came out negative beside the capture chances), and a bot choosing by the
#: fitted value walks into the danger those weights reward.
SIGNS = {
    "score": 1,
    "hand": 1,
    "gallery_cost": 1,
    "closeness": 1,
    "escape": -1,
    "caught_now": 1,
    "caught_now_cost": 1,
    "caught_round": 1,
    "caught_round_stay": 1,
    "caught_2": 1,
    "caught_4": 1,
    "safe_gallery": -1,
}
#: Weights held fixed. The hand-made estimate (with the score) at 1: the fit learns
#: corrections to it. The counts of guests on the gallery, in rooms and on the steps at
#: 0: fitted, they took the sign of what self-play positions happen to hold (a guest in a
#: room came out costly), and the bot left rooms (16 % of the wins against greedy).
FIXED = {"score": 1.0, "hand": 1.0, "gallery": 0.0, "rooms": 0.0, "gallery_time": 0.0, "steps": 0.0, "steps_time": 0.0}
#: Sweeps of coordinate descent for the sign-constrained least squares.
SWEEPS = 2000
DEFAULT_OUT = Path(__file__).resolve().parents[1] / "src" / "ghostparty" / "bots" / WEIGHTS_FILE

Matrix = npt.NDArray[np.float64]


def record_chunk(
    rules: Ruleset, players: int, policies: tuple[str, ...], seed: int, first: int, games: int
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int64]]:
    """Games ``first … first+games-1`` of a compiled run, every action's row recorded
    (:func:`ghostparty.fast.play.batch`), and each game's number of actions."""
    t = tables(rules)
    per = GUESTS_PER_PLAYER[players]
    codes = policy_codes(policies, players)
    seed64 = np.uint64(seed % 2**64)
    nothing = np.zeros((0, 0), dtype=np.int32)
    no_tally = np.zeros(0, dtype=np.int64)
    sizes = np.zeros((games, 2), dtype=np.int64)
    batch(t, players, per, codes, seed64, first, games, 1, nothing, no_tally, sizes, nothing, nothing)
    record = np.zeros((int(sizes[:, 0].sum()) + games, RECORD_WIDTH), dtype=np.int32)
    legal = np.zeros((int(sizes[:, 1].sum()), 2), dtype=np.int32)
    batch(
        t,
        players,
        per,
        codes,
        seed64,
        first,
        games,
        1,
        nothing,
        no_tally,
        np.zeros((0, 2), dtype=np.int64),
        record,
        legal,
    )
    return record, sizes[:, 0]


@dataclass
class Samples:
    """Rows of features with their labels (final margins) and the hand-made estimates' margins, one
    row per seat of each sampled position (``groups`` of them), in order."""

    x: list[list[float]] = field(default_factory=list)
    y: list[float] = field(default_factory=list)
    hand: list[float] = field(default_factory=list)
    groups: int = 0


@dataclass
class HeldOut:
    """Held-out samples of one number of players, kept as arrays (a tenth of the data)."""

    players: int
    parts: list[tuple[Matrix, Matrix, Matrix]] = field(default_factory=list)
    groups: int = 0

    def add(self, samples: Samples) -> None:
        self.parts.append(
            (
                np.asarray(samples.x, dtype=np.float64).reshape(-1, WIDTH),
                np.asarray(samples.y, dtype=np.float64),
                np.asarray(samples.hand, dtype=np.float64),
            )
        )
        self.groups += samples.groups


def sample_chunk(
    rules: Ruleset, players: int, record: npt.NDArray[np.int32], actions: npt.NDArray[np.int64], k: int,
    rng: np.random.Generator, out: Samples,
) -> None:  # fmt: skip
    """Add ``k`` positions of every game of a recorded chunk to ``out``, one row per seat."""
    scores = 5 + e.SCORES
    j = 0
    for n in actions.tolist():
        final = margins(record[j + n - 1, scores : scores + players].tolist())
        for row in sorted(rng.choice(n - 1, size=min(k, n - 1), replace=False).tolist()):
            position = position_of(rules, record[j + row, 5:].tolist())
            hand = estimates(position)
            out.x.extend(seat_features(position, hand))
            out.y.extend(final)
            out.hand.extend(margins(hand))
            out.groups += 1
        j += n + 1


@dataclass
class Normal:
    """Least squares' normal equations, summed chunk by chunk."""

    xtx: Matrix = field(default_factory=lambda: np.zeros((WIDTH, WIDTH)))
    xty: Matrix = field(default_factory=lambda: np.zeros(WIDTH))
    rows: int = 0

    def add(self, samples: Samples) -> None:
        x = np.asarray(samples.x, dtype=np.float64).reshape(-1, WIDTH)
        y = np.asarray(samples.y, dtype=np.float64)
        self.xtx += x.T @ x
        self.xty += x.T @ y
        self.rows += len(y)

    def solve(self) -> Matrix:
        """The weights minimising the squared error (plus a small ridge off the bias)
        with the signs of :data:`SIGNS`."""
        return solve_signed(self.xtx, self.xty, self.rows)


def solve_signed(xtx: Matrix, xty: Matrix, rows: int) -> Matrix:
    """Least squares from its normal equations, each weight of :data:`SIGNS` kept on its
    side of 0: cyclic coordinate descent on the (convex) quadratic, from the unconstrained
    solution clipped."""
    a = xtx + np.diag(np.r_[0.0, np.full(WIDTH - 1, RIDGE * max(1, rows))])
    a[0, 0] = max(a[0, 0], 1e-12)
    sign = np.array([SIGNS.get(name, 0) for name in FEATURES])
    w: Matrix = np.linalg.lstsq(a, xty, rcond=None)[0]
    w = np.where(sign * w < 0, 0.0, w)
    fixed = [FEATURES.index(name) for name in FIXED]
    w[fixed] = list(FIXED.values())
    free = [j for j in range(WIDTH) if j not in fixed]
    diagonal = np.maximum(np.diag(a), 1e-12)
    for _ in range(SWEEPS):
        largest = 0.0
        for j in free:
            value = w[j] + (xty[j] - a[j] @ w) / diagonal[j]
            if sign[j] * value < 0:
                value = 0.0
            largest = max(largest, abs(value - w[j]))
            w[j] = value
        if largest < 1e-9:
            break
    return w


def held_out_fit(held: HeldOut, weights: Matrix) -> dict[str, float]:
    """R² of the final margins and the share of positions whose predicted lowest seat
    won, for the learned weights and for the hand-made estimates."""
    x = np.concatenate([part[0] for part in held.parts])
    y = np.concatenate([part[1] for part in held.parts])
    predictions = {"learned": x @ weights, "hand": np.concatenate([part[2] for part in held.parts])}
    total = float(((y - y.mean()) ** 2).sum()) or 1.0
    result: dict[str, float] = {"positions": float(held.groups)}
    finals = y.reshape(-1, held.players)
    lowest = finals.min(axis=1)
    for name, p in predictions.items():
        result[f"r2_{name}"] = round(1 - float(((y - p) ** 2).sum()) / total, 4)
        picked = finals[np.arange(len(finals)), p.reshape(-1, held.players).argmin(axis=1)]
        result[f"winner_{name}"] = round(float(np.mean(picked == lowest)), 4)
    return result


def fit(
    rules_ids: tuple[str, ...], games: int, seed: int, samples: int, chunk: int, players: tuple[int, ...] = PLAYERS
) -> dict[str, object]:
    """Play, sample and fit; the weights file's document."""
    started = time.process_time()
    models: dict[str, dict[str, list[float]]] = {}
    fits: dict[str, dict[str, dict[str, float]]] = {}
    chunks = -(-games // chunk)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, transient=False) as progress:
        for r, rules_id in enumerate(rules_ids):
            rules = ruleset(rules_id)
            normal = {p: Normal() for p in players}
            held = {p: HeldOut(p) for p in players}
            task = progress.add_task(f"{rules_id}: games", total=games)
            for i in range(chunks):
                rng = np.random.default_rng([seed, r, i])
                count = min(chunk, games - i * chunk)
                n = players[i % len(players)]
                policies = ("safe", "random") if rng.random() < MIXED else ("safe",)
                record, actions = record_chunk(rules, n, policies, seed, i * chunk, count)
                part = Samples()
                sample_chunk(rules, n, record, actions, samples, rng, part)
                if (i // len(players)) % HOLDOUT == 1:
                    held[n].add(part)
                else:
                    normal[n].add(part)
                progress.advance(task, count)
            models[rules_id] = {}
            fits[rules_id] = {}
            for n in players:
                if normal[n].rows == 0:
                    continue
                weights = normal[n].solve()
                models[rules_id][str(n)] = [round(float(w), 6) for w in weights]
                if held[n].groups:
                    fits[rules_id][str(n)] = held_out_fit(held[n], weights)
    return {
        "about": "Learned evaluation: each seat's final margin (its final points minus the best other seat's) as a dot product of its features "
        "(ghostparty.bots.features) with these weights, per rule set and number of players.",
        "command": "python scripts/fit_learned.py " + " ".join(_arguments(rules_ids, games, seed, samples, chunk)),
        "games_per_rule_set": games,
        "samples_per_game": samples,
        "seed": seed,
        "cpu_seconds": round(time.process_time() - started, 1),
        "held_out": fits,
        "features": list(FEATURES),
        "models": models,
    }


def _arguments(rules_ids: tuple[str, ...], games: int, seed: int, samples: int, chunk: int) -> list[str]:
    rules = [f"--rules {r}" for r in rules_ids] if rules_ids != RULES else []
    return [f"--games {games}", f"--seed {seed}", f"--samples {samples}", f"--chunk {chunk}", *rules]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1_000_000, help="games per rule set (default 1,000,000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=4, help="positions drawn from each game (default 4)")
    parser.add_argument("--chunk", type=int, default=1000, help="games per compiled batch (default 1000)")
    parser.add_argument("--rules", action="append", choices=RULES, help="a rule set (default both)")
    parser.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help=f"the weights file (default the package's {WEIGHTS_FILE})"
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.samples < 1 or args.chunk < 1:
        parser.error("--games, --samples and --chunk must be at least 1")
    rules = tuple(args.rules) if args.rules else RULES
    document = fit(rules, args.games, args.seed, args.samples, args.chunk)
    args.out.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out} in {document['cpu_seconds']} s of CPU; held-out fit:")
    print(json.dumps(document["held_out"], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
