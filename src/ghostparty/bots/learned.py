"""The learned evaluation, and ``learned``: the one-move-deep bot that plays by it.

Each seat's final margin — its final spooky points minus the best other seat's, what
every bot minimises — is predicted as a dot product of its row of
:mod:`~ghostparty.bots.features` with weights fitted to the outcomes of self-play games
of the compiled simulator (``scripts/fit_learned.py``; docs/analysis.md, The learned evaluation):
least squares with the hand-made estimate's weight held at 1 and the signs of the danger
measures fixed, so that the fit learns a correction to the hand-made evaluation (how
close Hugo is, guests he cannot reach before 5:00, the time left, the other seats'
lead) rather than undoing it. One weight vector per rule set and number of players,
shipped as ``learned_weights.json`` beside this module and read with the standard
library only.

:func:`learned_estimates` has the signature of
:func:`~ghostparty.bots.evaluation.estimates`, so anything that reads the hand-made
evaluation can read this one: the ``learned`` bot (one move deep, as ``greedy``), and
``expectimax`` and ``mcts`` with the option ``eval=learned`` at their leaves
(:func:`evaluation_named`).
"""

from __future__ import annotations

import json
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from random import Random

from ghostparty.bots.base import register
from ghostparty.bots.evaluation import Evaluation, estimates
from ghostparty.bots.features import FEATURES, seat_features
from ghostparty.bots.greedy import best_actions, choose_best
from ghostparty.rules import OVER, Action, Position

#: The weights file, in this package.
WEIGHTS_FILE = "learned_weights.json"
#: The ``eval`` option's values: the hand-made evaluation, or the learned one.
HAND, LEARNED = "hand", "learned"
EVALUATIONS = (HAND, LEARNED)


@dataclass(frozen=True)
class Weights:
    """Fitted weights: per ``(rule set id, players)``, one weight per feature."""

    features: tuple[str, ...]
    models: dict[tuple[str, int], tuple[float, ...]]
    #: How they were made (the command, the data, the held-out fit), from the file.
    about: dict[str, object]

    def model(self, rules: str, players: int) -> tuple[float, ...]:
        """The weights for a game of ``rules`` with ``players``.

        :raises ValueError: if the file has none for that game.
        """
        weights = self.models.get((rules, players))
        if weights is None:
            have = ", ".join(f"{r} {p}p" for r, p in sorted(self.models))
            raise ValueError(f"no learned weights for {rules} with {players} players: the file has {have}")
        return weights


def parse_weights(data: object) -> Weights:
    """:class:`Weights` from the JSON document of a weights file.

    :raises ValueError: if the document is not of that form, or was fitted with other
        features than :data:`~ghostparty.bots.features.FEATURES`.
    """
    if not isinstance(data, dict) or not isinstance(data.get("models"), dict):
        raise ValueError("a weights file is an object with 'features' and 'models'")
    features = tuple(data.get("features", ()))
    if features != FEATURES:
        raise ValueError(f"weights fitted for features {list(features)}, expected {list(FEATURES)}: fit them again")
    models: dict[tuple[str, int], tuple[float, ...]] = {}
    for rules, per_players in data["models"].items():
        for players, weights in per_players.items():
            if not isinstance(weights, list) or len(weights) != len(FEATURES):
                raise ValueError(f"{rules} {players}p: expected {len(FEATURES)} weights, got {weights!r:.80}")
            models[rules, int(players)] = tuple(float(w) for w in weights)
    about = {key: value for key, value in data.items() if key not in ("features", "models")}
    return Weights(features, models, about)


@cache
def load_weights() -> Weights:
    """The weights shipped with the package (read once)."""
    text = (files("ghostparty.bots") / WEIGHTS_FILE).read_text(encoding="utf-8")
    return parse_weights(json.loads(text))


def margins(values: Sequence[float]) -> list[float]:
    """Each value minus the lowest of the others (a sole winner's is negative)."""
    items = list(values)
    if len(items) < 2:
        return [0.0 for _ in items]
    lowest = min(items)
    first = items.index(lowest)
    second = min(items[:first] + items[first + 1 :])
    return [float(v - (second if seat == first else lowest)) for seat, v in enumerate(items)]


def learned_estimates(position: Position, weights: Weights | None = None) -> list[float]:
    """Each seat's predicted final margin (:func:`margins` of the scores once the game is over)."""
    if position.phase == OVER:
        return margins(position.scores)
    w = (weights or load_weights()).model(position.ruleset.id, position.players)
    return [sum(map(operator.mul, w, row)) for row in seat_features(position)]


def evaluation_named(name: str) -> Evaluation:
    """The evaluation an ``eval`` option names: ``hand`` or ``learned``.

    :raises ValueError: for another name.
    """
    if name == HAND:
        return estimates
    if name == LEARNED:
        load_weights()  # fail now, not at the first leaf, if the file is unusable
        return learned_estimates
    raise ValueError(f"eval must be one of {', '.join(EVALUATIONS)}, got {name!r}")


class LearnedBot:
    """Plays, and places, the action whose resulting position the learned evaluation
    judges best for itself: its predicted margin against the best other seat's. Ties go
    to the first action in the documented order, then to the random source."""

    name = "learned"

    def __init__(self) -> None:
        load_weights()

    def choose(self, position: Position, rng: Random) -> Action:
        return choose_best(position, best_actions(position, evaluate=learned_estimates), rng)


register("learned", LearnedBot, level=1)
