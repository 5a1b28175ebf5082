"""Game review: every seat's win chance through a game, each decision judged, each roll's luck.

* :mod:`.calibration` — win chances from the learned evaluation's margins (a fitted softmax);
* :mod:`.solver` — proven bounds on win chances, expectimax over every die face cut off after H rolls;
* :mod:`.evaluator` — the value of any position: search on the calibrated leaves, the solver's bounds late;
* :mod:`.judge` — marks, accuracy and PR of decisions;
* :mod:`.review` — :func:`review_game`: a game record to a JSON-ready :class:`GameReview`;
* :mod:`.deep_review` — the same review with the decisions judged by the deep analysis' rollouts.
"""

from ghostparty.analysis.review.evaluator import Evaluator, Value
from ghostparty.analysis.review.review import REVIEW_FORMAT, GameReview, PlayerReview, Step, review_game
from ghostparty.analysis.review.solver import Bounds, Solver

__all__ = [
    "REVIEW_FORMAT",
    "Bounds",
    "Evaluator",
    "GameReview",
    "PlayerReview",
    "Solver",
    "Step",
    "Value",
    "review_game",
]
