"""Many reviews at once: game records from files, and the bots' own games judged in the
same terms as a person's (accuracy and PR per level), on local processes or a Dask
cluster (:func:`ghostparty.sim.parallel.workers`).

Each task is a module-level function of plain arguments, so a worker process or a Dask
worker runs it by name; each builds its own :class:`Evaluator` (its caches are per game).
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ghostparty.analysis.deep import CUT
from ghostparty.analysis.review.deep_review import deep_review_game, review_afresh
from ghostparty.analysis.review.evaluator import DEPTH, HORIZON, Evaluator
from ghostparty.analysis.review.judge import PR_SCALE
from ghostparty.analysis.review.review import GameReview, review_game
from ghostparty.bots import make_bot
from ghostparty.rules import GameRecord, InvalidRecord, ruleset, start_position
from ghostparty.sim.playout import seeded_playout
from ghostparty.sim.seeds import game_seed

__all__ = ["LevelStanding", "SeatScore", "bot_lineups", "judge_bot_game", "review_bot_game", "review_file", "standings"]


def read_record(path: str) -> GameRecord | str:
    """The game record in the file at ``path``, or why there is none (a sentence)."""
    try:
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
    except OSError as error:
        return f"cannot read it: {error.strerror or error}"
    except ValueError as error:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        return f"not JSON: {error}"
    try:
        return GameRecord.from_dict(data)
    except InvalidRecord as error:
        return f"not a game record that replays: {error}"


def review_file(path: str, depth: int = DEPTH, horizon: int = HORIZON, rollouts: int | None = None) -> dict[str, Any]:
    """The review of the record in ``path`` as JSON (``ghostparty-review/1``) with its
    ``"source"``; a file that is no record that replays gives ``{"source", "error"}``.
    With ``rollouts``, the deep review (:mod:`.deep_review`) with that many rollouts an action."""
    record = read_record(path)
    if isinstance(record, str):
        return {"source": path, "error": record}
    settings: dict[str, Any] = {"depth": depth, "horizon": horizon}
    if rollouts is not None:
        settings["deep"] = {"rollouts": rollouts}
    reviewed = review_afresh(record, settings, "fast" if rollouts is None else "deep")
    return {"source": path, **reviewed.as_dict()}


@dataclass(frozen=True)
class SeatScore:
    """How one seat of one reviewed game played: ``loss`` is the sum of its decisions'
    losses of win chance (0 to 1 each), so PR = :data:`PR_SCALE` × loss / decisions."""

    level: str
    seat: int
    decisions: int
    loss: float
    accuracy: float | None
    marks: dict[str, int] = field(default_factory=dict)


def bot_lineups(levels: Sequence[str], players: int, games: int, seed: int) -> list[tuple[tuple[str, ...], int]]:
    """``games`` (lineup, seed) pairs: every set of ``players`` distinct levels in turn (all
    the levels' pairs, triples …), each seated in every rotation in turn, so every level
    plays as often as the others and from every seat."""
    if not 2 <= players <= len(levels):
        raise ValueError(f"{players} players need at least as many distinct levels, got {len(levels)}")
    groups = list(itertools.combinations(levels, players))
    lineups = []
    for game in range(games):
        group = groups[game % len(groups)]
        turn = (game // len(groups)) % players
        lineups.append((group[turn:] + group[:turn], game_seed(seed, game)))
    return lineups


def review_bot_game(
    rules: str, lineup: Sequence[str], seed: int, depth: int = DEPTH, horizon: int = HORIZON
) -> list[SeatScore]:
    """One seeded game of the levels in ``lineup`` (seat order), reviewed: a score a seat."""
    return judge_bot_game(rules, lineup, seed, depth, horizon)["fast"]


def judge_bot_game(
    rules: str,
    lineup: Sequence[str],
    seed: int,
    depth: int = DEPTH,
    horizon: int = HORIZON,
    rollouts: int | None = None,
    cut: int = CUT,
) -> dict[str, list[SeatScore]]:
    """One seeded game of the levels in ``lineup`` (seat order), reviewed: a score a seat
    under ``"fast"``, and with ``rollouts`` also under ``"deep"``, by the deep review
    (:mod:`.deep_review`, that many rollouts an action and ``cut`` rolls) of the same game
    with the same evaluator, so its values along the game are computed once."""
    start = start_position(ruleset(rules), len(lineup))
    actions = tuple(step.action for step in seeded_playout(start, [make_bot(name) for name in lineup], seed))
    record = GameRecord(start=start, actions=actions, seed=seed)
    evaluator = Evaluator(depth, horizon)
    reviews = {"fast": review_game(record, evaluator=evaluator)}
    if rollouts is not None:
        reviews["deep"] = deep_review_game(record, rollouts=rollouts, cut=cut, evaluator=evaluator)
    return {judge: _seat_scores(reviewed, lineup) for judge, reviewed in reviews.items()}


def _seat_scores(reviewed: GameReview, lineup: Sequence[str]) -> list[SeatScore]:
    return [
        SeatScore(
            lineup[summary.seat],
            summary.seat,
            summary.decisions,
            (summary.pr or 0.0) * summary.decisions / PR_SCALE,
            summary.accuracy,
            dict(summary.marks),
        )
        for summary in reviewed.summaries
    ]


@dataclass(frozen=True)
class LevelStanding:
    """A level's record over many reviewed games, with 95 % intervals (± 1.96 standard
    errors over games): PR pooled over every decision (XG's: 500 × the mean loss per
    non-forced decision), accuracy the mean of the games' accuracies (lichess's)."""

    level: str
    games: int
    decisions: int
    pr: float
    pr_margin: float
    accuracy: float
    accuracy_margin: float
    #: Inaccuracies, mistakes and blunders per 100 decisions.
    marks_per_100: dict[str, float]

    def as_dict(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "games": self.games,
            "decisions": self.decisions,
            "pr": round(self.pr, 2),
            "pr_margin": round(self.pr_margin, 2),
            "accuracy": round(self.accuracy, 1),
            "accuracy_margin": round(self.accuracy_margin, 1),
            "marks_per_100": {name: round(count, 2) for name, count in self.marks_per_100.items()},
        }


def standings(scores: Iterable[SeatScore]) -> list[LevelStanding]:
    """Per level, best (lowest PR) first; a game's seat with no decision is left out."""
    by_level: dict[str, list[SeatScore]] = {}
    for score in scores:
        if score.decisions:
            by_level.setdefault(score.level, []).append(score)
    found = [_standing(level, seats) for level, seats in by_level.items()]
    return sorted(found, key=lambda standing: (standing.pr, standing.level))


def _standing(level: str, seats: list[SeatScore]) -> LevelStanding:
    games = len(seats)
    decisions = sum(s.decisions for s in seats)
    ratio = sum(s.loss for s in seats) / decisions
    # the ratio estimator's standard error: residuals of each game's loss from ratio × its decisions
    mean_decisions = decisions / games
    spread = sum((s.loss - ratio * s.decisions) ** 2 for s in seats)
    ratio_se = math.sqrt(spread / (games * (games - 1))) / mean_decisions if games > 1 else math.inf
    accuracies = [s.accuracy for s in seats if s.accuracy is not None]
    mean_accuracy = sum(accuracies) / len(accuracies) if accuracies else math.nan
    accuracy_se = (
        math.sqrt(sum((a - mean_accuracy) ** 2 for a in accuracies) / (len(accuracies) - 1) / len(accuracies))
        if len(accuracies) > 1
        else math.inf
    )
    names = sorted({name for s in seats for name in s.marks})
    marks = {name: 100 * sum(s.marks.get(name, 0) for s in seats) / decisions for name in names}
    return LevelStanding(
        level,
        games,
        decisions,
        PR_SCALE * ratio,
        1.96 * PR_SCALE * ratio_se,
        mean_accuracy,
        1.96 * accuracy_se,
        marks,
    )
