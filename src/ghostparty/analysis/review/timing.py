"""How long a review takes: seeded bot games reviewed one after the other on one core,
by the fast review or the deep one (:mod:`.deep_review`)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ghostparty.analysis.review.deep_review import review_afresh
from ghostparty.analysis.review.evaluator import DEPTH, HORIZON
from ghostparty.bots import make_bot
from ghostparty.rules import GameRecord, ruleset, start_position
from ghostparty.sim.playout import seeded_playout
from ghostparty.sim.seeds import game_seed


@dataclass(frozen=True)
class ReviewTime:
    """CPU seconds per reviewed game, for one rule set and number of players."""

    rules: str
    players: int
    bot: str
    actions: list[int]
    seconds: list[float]
    #: ``"fast"`` (the review) or ``"deep"`` (the deep review, its default rollouts).
    judge: str = "fast"

    def to_dict(self) -> dict[str, Any]:
        return {
            "judge": self.judge,
            "rules": self.rules,
            "players": self.players,
            "bot": self.bot,
            "games": len(self.seconds),
            "mean_actions": round(statistics.fmean(self.actions), 1),
            "median_cpu_seconds": round(statistics.median(self.seconds), 2),
            "max_cpu_seconds": round(max(self.seconds), 2),
            "cpu_ms_per_action": round(1000 * sum(self.seconds) / sum(self.actions), 1),
        }


def bot_game(rules: str, players: int, bot: str, seed: int) -> GameRecord:
    """One seeded game of ``bot`` in every seat, as a record."""
    start = start_position(ruleset(rules), players)
    bots = [make_bot(bot)] * players
    actions = tuple(step.action for step in seeded_playout(start, bots, seed))
    return GameRecord(start=start, actions=actions, seed=seed)


def review_time(
    rules: str,
    players: int,
    games: int,
    seed: int = 0,
    bot: str = "greedy",
    depth: int = DEPTH,
    horizon: int = HORIZON,
    on_game: Callable[[], None] | None = None,
    judge: str = "fast",
) -> ReviewTime:
    """Review ``games`` seeded games of ``bot`` with a fresh evaluator each (as a job would),
    by ``judge``: ``"fast"`` or ``"deep"``."""
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if judge not in ("fast", "deep"):
        raise ValueError(f"judge must be 'fast' or 'deep', got {judge!r}")
    actions, seconds = [], []
    for game in range(games):
        record = bot_game(rules, players, bot, game_seed(seed, game))
        started = time.process_time()
        review_afresh(record, {"depth": depth, "horizon": horizon}, judge)  # as a review job makes it
        seconds.append(time.process_time() - started)
        actions.append(len(record.actions))
        if on_game is not None:
            on_game()
    return ReviewTime(rules, players, bot, actions, seconds, judge)
