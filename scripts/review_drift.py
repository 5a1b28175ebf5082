"""Measure the game review's drift against its luck, and its accounting, on bot games.

    nice -n 10 python scripts/review_drift.py --games 25 --jobs 2 --timing 4

For hugo and midnight-party with 2 and 4 players (``--players``: others), ``--games`` seeded games are played
by a mix of bots (seat ``s`` of game ``g`` plays greedy, expectimax or random in turn)
and reviewed with the review's defaults; the settings take turns, so a run stopped early
has nearly as many games of each (every game also prints a line of its sums). Per
setting: Σ|drift| / Σ|luck| over every seat of every step (the drift of rolls and of
placements apart), with the review's luck (one roll shallower than ``V`` after the roll:
``E_{D-1}(after) - E_D(before)``, which leaves the search's deepening at the face that
came up in the drift) and with luck measured with the values the review shows
(:func:`faces_luck`, which leaves in the drift only the deepening expected over the
faces); per seat and game, as the review's table shows them,
Σ|drift| / Σ|luck of every roll|; the correlation of a roll's luck and drift per seat;
the accounting identity's largest error and the largest gap between the sum of the
luck-adjusted results and the sum of the results. ``--timing`` reviews that many
four-player hugo games with both measures of luck (each first in turn, each with a fresh
evaluator) and reports CPU seconds per game and their ratio (the review's over faces'). ``--uncorrected``
reviews without the fitted leaf correction (:mod:`ghostparty.analysis.review.correction`); ``--no-faces``
skips the second measure of luck (its columns then repeat the review's). ``--depth`` and
``--deepen`` change how deep the review searches (every position, and more at a close
decision). Writes JSON to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from ghostparty.analysis.review.correction import Correction
from ghostparty.analysis.review.evaluator import DEEPEN, DEPTH, Evaluator, Pair
from ghostparty.analysis.review.review import review_game
from ghostparty.bots import make_bot
from ghostparty.rules import DIE, ROLL, GameRecord, Position, apply, ruleset, start_position
from ghostparty.sim.playout import seeded_playout
from ghostparty.sim.seeds import game_seed

RULES = ("hugo", "midnight-party")
BOTS = ("greedy", "expectimax", "random")


def faces_luck(evaluator: Evaluator, position: Position, after: Position) -> Pair:
    """Luck measured with the values the review shows: ``V(after) - sum_face p(face) * V(after
    the face)``, every face's decision valued with every action (the drift left at the roll
    is then the same whatever the face; it costs every face's full value)."""
    n = position.players
    mean_win, mean_margin = [0.0] * n, [0.0] * n
    for roll, p in DIE:
        face = evaluator.value(apply(position, roll))
        for seat in range(n):
            mean_win[seat] += float(p) * face.win[seat]
            mean_margin[seat] += float(p) * face.margin[seat]
    got = evaluator.value(after)
    return (
        tuple(a - b for a, b in zip(got.win, mean_win, strict=True)),
        tuple(a - b for a, b in zip(got.margin, mean_margin, strict=True)),
    )


class FacesLuck(Evaluator):
    """An evaluator with :func:`faces_luck`, for the timing."""

    def luck(self, position: Position, after: Position) -> Pair:
        return faces_luck(self, position, after)


def mixed_game(rules: str, players: int, game: int, seed: int) -> GameRecord:
    """One seeded game, seat ``s`` played by ``BOTS[(game + s) % 3]``."""
    start = start_position(ruleset(rules), players)
    bots = [make_bot(BOTS[(game + s) % len(BOTS)]) for s in range(players)]
    s = game_seed(seed, game)
    return GameRecord(start=start, actions=tuple(step.action for step in seeded_playout(start, bots, s)), seed=s)


def measure(job: tuple[str, int, int, int, bool, bool, int, int]) -> dict[str, Any]:
    """One game's sums (both definitions of luck, from one evaluator, or the review's only
    without ``faces``; without the leaf correction if asked; searched ``depth`` rolls deep
    and ``deepen`` more at close decisions)."""
    rules, players, game, seed, uncorrected, faces_too, depth, deepen = job
    record = mixed_game(rules, players, game, seed)
    evaluator = Evaluator(depth, deepen=deepen, correction=Correction() if uncorrected else None)
    started = time.process_time()
    review = review_game(record, evaluator=evaluator)
    cpu = time.process_time() - started
    positions = record.replay()
    out: dict[str, Any] = {"luck": 0.0, "drift_roll": 0.0, "drift_place": 0.0, "drift_move": 0.0}
    out.update(faces_luck=0.0, faces_drift_roll=0.0, pairs=[], faces_pairs=[], cpu=cpu)
    for step in review.steps:
        if step.luck is None:
            out[f"drift_{step.kind}"] += sum(abs(d) for d in step.drift)
            continue
        position = positions[step.index]
        assert position.phase == ROLL
        faces = faces_luck(evaluator, position, positions[step.index + 1])[0] if faces_too else step.luck
        faces_drift = [c - x for c, x in zip(step.change, faces, strict=True)]
        out["luck"] += sum(abs(x) for x in step.luck)
        out["drift_roll"] += sum(abs(d) for d in step.drift)
        out["faces_luck"] += sum(abs(x) for x in faces)
        out["faces_drift_roll"] += sum(abs(d) for d in faces_drift)
        out["pairs"] += list(zip(step.luck, step.drift, strict=True))
        out["faces_pairs"] += list(zip(faces, faces_drift, strict=True))
    out["seat_drift"] = sum(abs(s.drift) for s in review.summaries)
    out["seat_luck"] = sum(abs(s.luck + s.luck_from_others) for s in review.summaries)
    out["identity_error"] = max(
        abs(s.start + s.skill + s.skill_of_others + s.luck + s.luck_from_others + s.drift - s.result)
        for s in review.summaries
    )
    out["adjusted_gap"] = abs(sum(s.luck_adjusted for s in review.summaries) - sum(s.result for s in review.summaries))
    brief = {k: round(v, 5) for k, v in out.items() if isinstance(v, float)}
    print(f"{rules} {players}p game {game}", json.dumps(brief), file=sys.stderr, flush=True)
    return out


def timing(job: tuple[int, int]) -> tuple[float, float]:
    """CPU seconds of one four-player hugo game reviewed with :func:`faces_luck` and with the review's luck."""
    game, seed = job
    record = mixed_game("hugo", 4, game, seed)
    seconds: dict[type[Evaluator], float] = {}
    for kind in (FacesLuck, Evaluator) if game % 2 == 0 else (Evaluator, FacesLuck):
        started = time.process_time()
        review_game(record, evaluator=kind())
        seconds[kind] = time.process_time() - started
    return seconds[FacesLuck], seconds[Evaluator]


def correlation(pairs: list[tuple[float, float]]) -> float | None:
    if len(pairs) < 3:
        return None
    xs, ys = zip(*pairs, strict=True)
    if statistics.pstdev(xs) == 0 or statistics.pstdev(ys) == 0:
        return 0.0
    return round(statistics.correlation(xs, ys), 3)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10, help="games per rule set and player count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, choices=(1, 2))
    parser.add_argument("--timing", type=int, default=0, help="four-player hugo games timed, both definitions")
    parser.add_argument("--uncorrected", action="store_true", help="without the fitted leaf correction (correction.py)")
    parser.add_argument("--players", default="2,4", help="player counts, e.g. 3,5,6,8")
    parser.add_argument("--depth", type=int, default=DEPTH, help="rolls searched for every position")
    parser.add_argument("--deepen", type=int, default=DEEPEN, help="rolls more at a close decision")
    parser.add_argument(
        "--faces", action=argparse.BooleanOptionalAction, default=True, help="also luck with every face's shown value"
    )
    parser.add_argument("--out", type=Path, default=Path("docs/review-drift.json"))
    args = parser.parse_args()
    settings = [(rules, int(players)) for rules in RULES for players in args.players.split(",")]
    results: dict[str, Any] = {"command": "python " + " ".join(["scripts/review_drift.py", *sys.argv[1:]])}
    jobs = [
        (rules, players, g, args.seed, args.uncorrected, args.faces, args.depth, args.deepen)
        for g in range(args.games)
        for rules, players in settings
    ]
    with Pool(args.jobs) as pool:
        games = pool.map(measure, jobs, chunksize=1)
        pairs = pool.map(timing, [(g, args.seed + 1) for g in range(args.timing)], chunksize=1)
    for rules, players in settings:
        mine = [m for (r, p, *_), m in zip(jobs, games, strict=True) if (r, p) == (rules, players)]
        if not mine:
            continue
        total = {k: sum(m[k] for m in mine) for k in mine[0] if isinstance(mine[0][k], float)}
        luck = total["luck"]
        drift = total["drift_roll"] + total["drift_place"] + total["drift_move"]
        faces_drift = total["faces_drift_roll"] + total["drift_place"] + total["drift_move"]
        results[f"{rules} {players}p"] = row = {
            "games": len(mine),
            "drift_over_luck": round(drift / luck, 3),
            "roll_drift_over_luck": round(total["drift_roll"] / luck, 3),
            "placement_drift_over_luck": round(total["drift_place"] / luck, 3),
            "faces_drift_over_luck": round(faces_drift / total["faces_luck"], 3),
            "seat_totals_drift_over_luck": round(total["seat_drift"] / total["seat_luck"], 3),
            "faces_roll_drift_over_luck": round(total["faces_drift_roll"] / total["faces_luck"], 3),
            "luck_drift_correlation": correlation([x for m in mine for x in m["pairs"]]),
            "faces_luck_drift_correlation": correlation([x for m in mine for x in m["faces_pairs"]]),
            "identity_max_error": max(m["identity_error"] for m in mine),
            "adjusted_sum_max_gap": max(m["adjusted_gap"] for m in mine),
            "review_cpu_seconds_per_game": round(total["cpu"] / len(mine), 2),
        }
        print(f"{rules} {players}p", json.dumps(row), flush=True)
    if pairs:
        faces_seconds, review_seconds = zip(*pairs, strict=True)
        results["timing hugo 4p"] = timed = {
            "games": len(pairs),
            "faces_cpu_seconds_per_game": round(statistics.fmean(faces_seconds), 2),
            "cpu_seconds_per_game": round(statistics.fmean(review_seconds), 2),
            "ratio": round(sum(review_seconds) / sum(faces_seconds), 2),
        }
        print("timing hugo 4p", json.dumps(timed), flush=True)
    args.out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
