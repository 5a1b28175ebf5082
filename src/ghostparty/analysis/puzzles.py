"""Puzzles from real games: decisions where one action is clearly best, found and confirmed.

:func:`mine` looks at every decision of a game record where a choice exists — phase
``"move"`` (which guest the roll moves, RULES.md §3.1, §4; or a pass, §8.3) and phase
``"place"`` (where to place a guest, §2.2, §8.6.3) with at least two legal actions — and
values it with :func:`~ghostparty.analysis.explore.explore` (the game review's search).
A decision is a *candidate* when its best action's win chance beats every other by at
least ``margin``. A candidate becomes a puzzle when it is *confirmed* (``"deep"``): the deep
analysis (:func:`ghostparty.analysis.deep.analyze`: every legal action rolled out, common
random numbers) has the same best action, and for every other action the paired
difference best − other is above 0 with its 95 % interval: difference − 1.96 · standard
error > 0. A placement is rolled out as a move is: the placement, then the rest of the
placement phase and ``cut`` rolls by the policy, the same dice after every square. Two
squares that the rollouts cannot tell apart (the same outcome in every rollout) differ by
0 ± 0, so such a placement is never confirmed.

Where the evaluator has proven bounds (late positions: the solver), a puzzle is
``certified`` when they prove the answer: the answer's lower bound on the mover's win
chance is at least every other action's upper bound.

Each puzzle carries its themes and a one-line reason in English and German
(:mod:`ghostparty.analysis.themes`). Everything is a pure function of the record and the
settings; ``seed`` seeds each decision's rollouts together with its index.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ghostparty.analysis import deep as deep_analysis
from ghostparty.analysis.explore import explore
from ghostparty.analysis.review.evaluator import SOLVER_HORIZON, Evaluator
from ghostparty.analysis.themes import THEMES, reason, themes
from ghostparty.rules import (
    MOVE,
    PLACE,
    Action,
    GameRecord,
    IllegalAction,
    InvalidPosition,
    Position,
    action_from_dict,
    action_to_dict,
    legal_actions,
    position_from_dict,
    position_to_dict,
)

#: Format tag of a file of puzzles.
PUZZLES_FORMAT = "ghostparty-puzzles/1"
#: How a candidate was confirmed (the module's text).
CONFIRMATIONS = ("deep",)
#: Defaults of :func:`mine`: the win chance the best must beat every other action by; rollouts and cut of the deep look.
MARGIN, ROLLOUTS, CUT = 0.10, 48, deep_analysis.CUT
#: The 95 % interval's half-width in standard errors.
Z95 = 1.96
_FIELDS = (
    "id",
    "source",
    "rules",
    "players",
    "position",
    "roll",
    "answer",
    "alternatives",
    "margin",
    "confirmed",
    "certified",
    "themes",
    "reason",
)


class PuzzleError(ValueError):
    """A puzzle (or a file of puzzles) that cannot be read: says what was wrong and what was expected."""


@dataclass(frozen=True)
class Choice:
    """One action of a puzzle with the mover's win chance after it: the fast search's and,
    where the action was rolled out, the deep analysis' with its standard error."""

    action: Action
    win: float
    deep: tuple[float, float] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": action_to_dict(self.action),
            "win": round(self.win, 6),
            "deep": None if self.deep is None else {"win": round(self.deep[0], 6), "se": round(self.deep[1], 6)},
        }


@dataclass(frozen=True)
class Puzzle:
    """A decision of a real game with one clearly best action (the module's text)."""

    id: str
    #: The record's seed, if it has one, and the index of the decision among its actions.
    seed: int | None
    index: int
    position: Position
    answer: Choice
    #: Every other legal action, best first.
    alternatives: tuple[Choice, ...]
    #: The answer's fast win chance minus the best alternative's.
    margin: float
    confirmed: str
    certified: bool
    themes: tuple[str, ...]
    #: ``{"en": …, "de": …}``.
    reason: Mapping[str, str] = field(default_factory=dict)
    #: The game it comes from, where the record came with a name for it (a server's table id).
    game: str | None = None

    @property
    def rules(self) -> str:
        return self.position.ruleset.id

    @property
    def players(self) -> int:
        return self.position.players

    @property
    def roll(self) -> int | None:
        return self.position.roll

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "source": self._source(),
            "rules": self.rules,
            "players": self.players,
            "position": position_to_dict(self.position),
            "roll": self.roll,
            "answer": self.answer.to_dict(),
            "alternatives": [choice.to_dict() for choice in self.alternatives],
            "margin": round(self.margin, 6),
            "confirmed": self.confirmed,
            "certified": self.certified,
            "themes": list(self.themes),
            "reason": dict(self.reason),
        }

    def _source(self) -> dict[str, Any]:
        """``{"seed", "index"}``, with ``"game"`` where the game is named."""
        source: dict[str, Any] = {"seed": self.seed, "index": self.index}
        if self.game is not None:
            source["game"] = self.game
        return source

    @classmethod
    def from_dict(cls, data: object) -> Puzzle:
        """Read a puzzle written by :meth:`to_dict`.

        :raises PuzzleError: naming the first field that is wrong and what was expected.
        """
        if not isinstance(data, Mapping):
            raise PuzzleError(f"a puzzle must be a JSON object, got {type(data).__name__}")
        missing = [name for name in _FIELDS if name not in data]
        if missing:
            raise PuzzleError(f"missing field {missing[0]!r} (a puzzle has {', '.join(_FIELDS)})")
        unknown = sorted(str(name) for name in data if name not in _FIELDS)
        if unknown:
            raise PuzzleError(f"unknown field {unknown[0]!r} (a puzzle has {', '.join(_FIELDS)})")
        try:
            position = position_from_dict(data["position"])
        except InvalidPosition as error:
            raise PuzzleError(f"position: {error}") from None
        if position.phase not in (MOVE, PLACE):
            raise PuzzleError(f"position: expected a decision (phase 'move' or 'place'), got phase {position.phase!r}")
        for name, value in (("rules", position.ruleset.id), ("players", position.players), ("roll", position.roll)):
            if data[name] != value or type(data[name]) is not type(value):
                raise PuzzleError(f"{name}: the puzzle says {data[name]!r} but its position says {value!r}")
        if data["id"] != puzzle_id(position):
            raise PuzzleError(f"id: expected {puzzle_id(position)!r} (the hash of the position), got {data['id']!r}")
        source = data["source"]
        if not isinstance(source, Mapping) or set(source) - {"game"} != {"seed", "index"}:
            raise PuzzleError(
                f"source: expected {{'seed': integer or null, 'index': integer}} and maybe 'game': text, got {source!r}"
            )
        seed, index, game = source["seed"], source["index"], source.get("game")
        if (seed is not None and type(seed) is not int) or type(index) is not int or index < 0:
            raise PuzzleError(f"source: expected a seed (integer or null) and an index (integer >= 0), got {source!r}")
        if "game" in source and (not isinstance(game, str) or not game):
            raise PuzzleError(f"source.game: expected the game's name (non-empty text), got {game!r}")
        answer = _choice(data["answer"], "answer")
        alternatives = data["alternatives"]
        if not isinstance(alternatives, list) or not alternatives:
            raise PuzzleError(f"alternatives: expected a non-empty list of choices, got {alternatives!r}")
        others = tuple(_choice(item, f"alternatives[{i}]") for i, item in enumerate(alternatives))
        legal = legal_actions(position)
        named = [answer.action, *(choice.action for choice in others)]
        if sorted(map(repr, named)) != sorted(map(repr, legal)):
            raise PuzzleError(
                "answer and alternatives: expected every legal action of the position once "
                f"({', '.join(sorted(map(repr, legal)))}), got {', '.join(map(repr, named))}"
            )
        margin = data["margin"]
        if type(margin) not in (int, float) or not 0 <= margin <= 1:
            raise PuzzleError(f"margin: expected a win chance difference 0 … 1, got {margin!r}")
        if data["confirmed"] not in CONFIRMATIONS:
            raise PuzzleError(f"confirmed: expected one of {', '.join(CONFIRMATIONS)}, got {data['confirmed']!r}")
        if type(data["certified"]) is not bool:
            raise PuzzleError(f"certified: expected true or false, got {data['certified']!r}")
        found = data["themes"]
        if not isinstance(found, list) or any(theme not in THEMES for theme in found):
            raise PuzzleError(f"themes: expected a list of {', '.join(THEMES)}, got {found!r}")
        said = data["reason"]
        if (
            not isinstance(said, Mapping)
            or set(said) != {"en", "de"}
            or not all(isinstance(v, str) for v in said.values())
        ):
            raise PuzzleError(f"reason: expected {{'en': text, 'de': text}}, got {said!r}")
        return cls(
            id=data["id"],
            seed=seed,
            index=index,
            position=position,
            answer=answer,
            alternatives=others,
            margin=float(margin),
            confirmed=data["confirmed"],
            certified=data["certified"],
            themes=tuple(found),
            reason=dict(said),
            game=game,
        )


@dataclass(frozen=True)
class Mined:
    """One game's mining: its puzzles and what was looked at."""

    puzzles: tuple[Puzzle, ...]
    #: Decisions with a choice (two or more legal actions).
    decisions: int
    #: Decisions whose best beat every other action by the margin (the fast search).
    candidates: int


def puzzle_id(position: Position) -> str:
    """A stable short id: 12 hex digits of SHA-256 of the position's JSON (keys sorted)."""
    text = json.dumps(position_to_dict(position), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def mine(
    record: GameRecord,
    *,
    margin: float = MARGIN,
    rollouts: int = ROLLOUTS,
    cut: int = CUT,
    seed: int = 0,
) -> list[Puzzle]:
    """The confirmed puzzles of ``record`` in game order (the module's text)."""
    return list(mine_game(record, margin=margin, rollouts=rollouts, cut=cut, seed=seed).puzzles)


def mine_game(
    record: GameRecord, *, margin: float = MARGIN, rollouts: int = ROLLOUTS, cut: int = CUT, seed: int = 0
) -> Mined:
    """:func:`mine` with the count of decisions and candidates.

    :raises ValueError: for a margin outside 0 … 1 or bad deep settings.
    """
    if type(margin) not in (int, float) or not 0 < margin <= 1:
        raise ValueError(f"margin must be a win chance difference above 0 and at most 1, got {margin!r}")
    deep_analysis.check_settings(rollouts, cut, None)
    evaluator = Evaluator(horizon=SOLVER_HORIZON)
    puzzles: list[Puzzle] = []
    decisions = candidates = 0
    for index, position in enumerate(record.replay()[: len(record.actions)]):
        if position.phase not in (MOVE, PLACE) or len(legal_actions(position)) < 2:
            continue
        decisions += 1
        options = explore(position, evaluator=evaluator).options
        best, runner_up = options[0], options[1]
        if best.win - runner_up.win < margin:
            continue
        candidates += 1
        looked = deep_analysis.analyze(
            position, rollouts=rollouts, cut=cut, width=None, seed=_decision_seed(seed, index)
        )
        if not _deep_agrees(looked, best.action):
            continue
        rolled = {value.action: (value.win, value.se) for value in looked.options}
        answer = _rounded(best.action, best.win, rolled.get(best.action))
        others = tuple(_rounded(o.action, o.win, rolled.get(o.action)) for o in options[1:])
        found = themes(position, best.action, [choice.action for choice in others])
        puzzles.append(
            Puzzle(
                id=puzzle_id(position),
                seed=record.seed,
                index=index,
                position=position,
                answer=answer,
                alternatives=others,
                margin=round(answer.win - others[0].win, 6),
                confirmed="deep",
                certified=_certified(evaluator, position, best.action),
                themes=tuple(found),
                reason=reason(position, best.action, found, best.win, (runner_up.action, runner_up.win)),
            )
        )
    return Mined(tuple(puzzles), decisions, candidates)


def _rounded(action: Action, win: float, deep: tuple[float, float] | None) -> Choice:
    """A choice with the precision its JSON keeps (so a puzzle reads back equal)."""
    return Choice(action, round(win, 6), None if deep is None else (round(deep[0], 6), round(deep[1], 6)))


def _decision_seed(seed: int, index: int) -> int:
    digest = hashlib.sha256(f"ghostparty-puzzle:{seed}:{index}".encode("ascii")).digest()
    return int.from_bytes(digest[:6], "big")


def _deep_agrees(looked: deep_analysis.DeepAnalysis, best: Action) -> bool:
    """The deep best is ``best`` and beats every other action with 95 % confidence, paired."""
    if looked.best.action != best or looked.pruned:
        return False
    for other in looked.options[1:]:
        difference, se = looked.difference(looked.best, other)
        if difference - Z95 * se <= 0:
            return False
    return True


def _certified(evaluator: Evaluator, position: Position, best: Action) -> bool:
    """Whether the proven bounds put ``best`` at least as high as every other action can be."""
    seat = position.to_move
    valued = dict(evaluator.actions(position))
    low = valued[best].bounds.low[seat]
    return all(value.bounds.high[seat] <= low for action, value in valued.items() if action != best)


def _choice(data: object, where: str) -> Choice:
    if not isinstance(data, Mapping) or set(data) != {"action", "win", "deep"}:
        raise PuzzleError(f"{where}: expected {{'action', 'win', 'deep'}}, got {data!r}")
    try:
        action = action_from_dict(data["action"])
    except IllegalAction as error:
        raise PuzzleError(f"{where}.action: {error}") from None
    win = data["win"]
    if type(win) not in (int, float) or not 0 <= win <= 1:
        raise PuzzleError(f"{where}.win: expected a win chance 0 … 1, got {win!r}")
    deep = data["deep"]
    if deep is None:
        return Choice(action, float(win))
    if (
        not isinstance(deep, Mapping)
        or set(deep) != {"win", "se"}
        or not all(type(deep[k]) in (int, float) and deep[k] >= 0 for k in ("win", "se"))
    ):
        raise PuzzleError(f"{where}.deep: expected null or {{'win': 0 … 1, 'se': >= 0}}, got {deep!r}")
    return Choice(action, float(win), (float(deep["win"]), float(deep["se"])))
