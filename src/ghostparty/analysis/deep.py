"""Deep analysis: truncated rollouts of each candidate action, with common random numbers.

A decision — phase ``"move"`` (which guest the roll moves, RULES.md §3.1, §4; or a pass,
§8.3) or phase ``"place"`` (where to place a guest, §2.2, §8.6.3) — is judged as GNU
Backgammon judges one: each candidate action is played, then the game is continued
``rollouts`` times by a fast policy (the ``learned`` bot by default) for ``cut`` rolls
of the die, and the position reached is judged by the learned evaluation
(:func:`~ghostparty.bots.learned.learned_estimates`) turned into win chances by the
review's fitted softmax (:func:`~ghostparty.analysis.review.calibration.softmax_chances`);
a game that ends before the cut counts its exact shares of the win (RULES.md §7, §8.7).
An action's value is the mover's mean win chance over its rollouts, with the standard
error of that mean. After a placement the policy first places every guest still to be
placed (no die is rolled in placement), so the ``cut`` rolls count from the first roll
after the placement phase; a placement the policy made without breaking a tie is kept
and reused by the later rollouts (:func:`_choose`: the same numbers, a tenth of the CPU).

Variance reduction:

* **common random numbers** — rollout ``i`` rolls the same dice for every candidate
  (its own stream, seeded from the analysis' seed and ``i``), and the policy draws its
  tie-breaks from another stream shared the same way, so two actions are compared on
  the same luck: the difference of their means is far less noisy than either mean
  (:meth:`DeepAnalysis.difference` gives its paired standard error);
* **a stratified first roll** — the first roll after the action (after a placement: the
  first once every guest is placed) is not drawn: in every block of six rollouts each
  of the die's six faces (RULES.md §1.4) comes first once, in an order drawn per block,
  so the roll that matters most is sampled evenly.

Only the ``width`` actions that the learned evaluation judges best one move deep are
rolled out (all of them with ``width=none``); a forced move is not rolled out at all.
Everything is a pure function of the position, the settings and ``seed``.

The ``deep`` bot (:class:`DeepBot`, ``deep:rollouts=48,cut=6,width=none,place=4,policy=learned``)
plays the best move of this analysis, seeded from its random source, and places its
guests on the best of the four squares the learned evaluation likes best, each rolled
out likewise (``place=none`` places as the ``learned`` bot does; the rolled-out
placements are most of its edge in ``midnight-party``, docs/analysis.md). It is registered
with the bots when this module is imported — by the command line, by
:mod:`ghostparty.sim.tournament` and by the server's tables — since the bots' own layer
may not import the analysis.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from random import Random

from ghostparty.analysis.review.calibration import load_calibration, softmax_chances
from ghostparty.analysis.review.solver import shares
from ghostparty.bots import Bot, make_bot, register
from ghostparty.bots.collector import collector_paused
from ghostparty.bots.learned import LearnedBot, learned_estimates
from ghostparty.rules import MOVE, OVER, PLACE, ROLL, Action, Position, apply, legal_actions
from ghostparty.rules.actions import DIE_FACES, Roll

#: Defaults of :func:`analyze`: rollouts per action, rolls before the cut, actions rolled out.
ROLLOUTS, CUT, WIDTH = 24, 6, 3
#: The policy that continues the games.
POLICY = "learned"
#: The ``deep`` bot's defaults: rollouts per move, every move rolled out, and placements
#: rolled out too (the ``place`` best squares); the top level (docs/analysis.md, Strength).
BOT_ROLLOUTS, BOT_WIDTH, BOT_PLACE = 48, None, 4
#: The phases the analysis judges: a move (or pass) after a roll, and a placement.
DECISIONS = (MOVE, PLACE)
#: Faces of the die, each equally likely (the stratified first roll cycles through them).
FACES = len(DIE_FACES)


@dataclass(frozen=True)
class ActionValue:
    """One candidate action's rollouts."""

    action: Action
    #: The mover's mean win chance over the rollouts (a k-way tie counts 1/k).
    win: float
    #: The standard error of :attr:`win`.
    se: float
    #: The mover's win chance one move deep, by the learned evaluation (the ranking that pruned).
    prior: float
    #: The mover's win chance at the end of each rollout, in rollout order.
    samples: tuple[float, ...]
    #: Every seat's mean win chance over the rollouts (the mover's is :attr:`win`).
    seats: tuple[float, ...] = ()


@dataclass(frozen=True)
class DeepAnalysis:
    """Every candidate's rollouts, best first; ``pruned`` were not rolled out."""

    position: Position
    options: tuple[ActionValue, ...]
    pruned: tuple[Action, ...]
    rollouts: int
    cut: int

    @property
    def best(self) -> ActionValue:
        return self.options[0]

    def difference(self, a: ActionValue, b: ActionValue) -> tuple[float, float]:
        """``a``'s win chance minus ``b``'s and the standard error of that difference,
        paired rollout by rollout (the same dice: common random numbers)."""
        return _mean_se([x - y for x, y in zip(a.samples, b.samples, strict=True)])


def win_chances(position: Position) -> tuple[float, ...]:
    """Every seat's win chance: exact shares once the game is over, else the learned
    evaluation's margins through the fitted softmax."""
    if position.phase == OVER:
        return shares(position)
    beta = load_calibration().beta(position.ruleset.id, position.players)
    return softmax_chances(learned_estimates(position), beta)


def check_settings(rollouts: object, cut: object, width: object) -> None:
    """:raises ValueError: for settings :func:`analyze` cannot use, saying what was expected."""
    if type(rollouts) is not int or rollouts < 1:
        raise ValueError(f"rollouts must be a whole number of at least 1, got {rollouts!r}")
    if type(cut) is not int or cut < 0:
        raise ValueError(f"cut must be a whole number of rolls of at least 0, got {cut!r}")
    if width is not None and (type(width) is not int or width < 1):
        raise ValueError(f"width must be a whole number of at least 1 or none, got {width!r}")


def rank(position: Position, actions: Sequence[Action] | None = None) -> list[tuple[float, Action]]:
    """Each action with the mover's learned win chance after it, best first (ties keep
    the rules core's order)."""
    seat = position.to_move
    scored = [
        (win_chances(apply(position, action))[seat], index, action)
        for index, action in enumerate(legal_actions(position) if actions is None else actions)
    ]
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [(value, action) for value, _, action in scored]


def analyze(
    position: Position,
    *,
    rollouts: int = ROLLOUTS,
    cut: int = CUT,
    width: int | None = WIDTH,
    policy: str | Bot = POLICY,
    seed: int = 0,
    include: Sequence[Action] = (),
) -> DeepAnalysis:
    """Roll out the candidate actions of ``position`` (phase ``"move"`` or ``"place"``): the module's text.

    ``policy`` is a bot (or a bot spec for :func:`~ghostparty.bots.make_bot`) that
    plays every seat's decisions in the rollouts. The legal actions in ``include`` are
    rolled out whatever their rank (the review measures the action played so).

    :raises ValueError: for a position that is not a decision, or bad settings.
    """
    if position.phase not in DECISIONS:
        raise ValueError(f"deep analysis judges a decision (phase 'move' or 'place'), not phase {position.phase!r}")
    check_settings(rollouts, cut, width)
    bot = make_bot(policy) if isinstance(policy, str) else policy
    ranked = rank(position)
    if not ranked:
        raise ValueError(f"no legal action in {position.describe()}")
    keep = ranked if width is None else ranked[:width] + [item for item in ranked[width:] if item[1] in include]
    pruned = tuple(action for value, action in ranked if (value, action) not in keep)
    if len(ranked) == 1:  # forced: nothing to compare
        value, action = ranked[0]
        return DeepAnalysis(position, (ActionValue(action, value, 0.0, value, ()),), pruned, 0, cut)
    seat = position.to_move
    orders = _first_faces(rollouts, seed)
    ends: list[list[tuple[float, ...]]] = [[] for _ in keep]
    placements: dict[Position, Action] = {}
    for i in range(rollouts):
        for slot, (_, action) in enumerate(keep):
            dice = Random(f"ghostparty-deep-dice:{seed}:{i}")
            choices = Random(f"ghostparty-deep-policy:{seed}:{i}")
            end = rollout(apply(position, action), bot, cut, dice, choices, first=orders[i], placements=placements)
            ends[slot].append(win_chances(end))
    options = []
    for (prior, action), chances in zip(keep, ends, strict=True):
        mean, se = _mean_se([c[seat] for c in chances])
        seats = tuple(math.fsum(c[s] for c in chances) / rollouts for s in range(position.players))
        options.append(ActionValue(action, mean, se, prior, tuple(c[seat] for c in chances), seats))
    order = sorted(range(len(options)), key=lambda k: (-options[k].win, k))
    return DeepAnalysis(position, tuple(options[k] for k in order), pruned, rollouts, cut)


def rollout(
    position: Position,
    policy: Bot,
    cut: int,
    dice: Random,
    choices: Random,
    first: Roll | None = None,
    placements: dict[Position, Action] | None = None,
) -> Position:
    """``position`` played on by ``policy`` in every seat until the game ends or ``cut``
    rolls have been made and the next roll is due. The rolls come from ``dice`` (one
    draw each; ``first``, if given, is the first roll), the policy's choices from ``choices``.

    ``placements`` remembers the policy's placements across rollouts (:func:`_choose`)."""
    rolled = 0
    while position.phase != OVER:
        if position.phase == ROLL:
            if rolled >= cut:
                break
            if rolled == 0 and first is not None:
                roll = first
                dice.random()  # keep the later rolls where they are without the stratum
            else:
                roll = DIE_FACES[int(dice.random() * FACES)]
            position = apply(position, roll)
            rolled += 1
        else:
            position = apply(position, _choose(policy, position, choices, placements))
    return position


def _choose(policy: Bot, position: Position, choices: Random, placements: dict[Position, Action] | None) -> Action:
    """The policy's action. A placement it chose without drawing from ``choices`` (no tie
    to break) is a function of the position alone, so it is kept in ``placements`` and
    reused: no die is rolled in placement, and every rollout after the same square would
    otherwise place the rest of the guests again, one evaluation of every square each."""
    if placements is None or position.phase != PLACE:
        return policy.choose(position, choices)
    known = placements.get(position)
    if known is not None:
        return known
    state = choices.getstate()
    action = policy.choose(position, choices)
    if choices.getstate() == state:
        placements[position] = action
    return action


def _first_faces(rollouts: int, seed: int) -> list[Roll]:
    """The first roll of each rollout: every block of six takes each face once, in an order
    drawn per block (so each rollout's first roll is still a fair roll)."""
    rng = Random(f"ghostparty-deep-strata:{seed}")
    faces: list[Roll] = []
    while len(faces) < rollouts:
        block = list(DIE_FACES)
        rng.shuffle(block)
        faces += block
    return faces[:rollouts]


def _mean_se(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = math.fsum(values) / n
    if n < 2:
        return mean, 0.0
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(variance / n)


class DeepBot:
    """Plays the move with the best rollouts (:func:`analyze`), and places on the best of
    the ``place`` squares ``learned`` likes best, each rolled out through the rest of the
    placement and ``cut`` rolls (``place=none``: as ``learned`` places)."""

    name = "deep"

    def __init__(
        self,
        rollouts: int = BOT_ROLLOUTS,
        cut: int = CUT,
        width: int | None = BOT_WIDTH,
        policy: str = POLICY,
        place: int | None = BOT_PLACE,
    ) -> None:
        check_settings(rollouts, cut, width)
        if place is not None and (type(place) is not int or place < 2):
            raise ValueError(f"place must be a whole number of squares of at least 2 or none, got {place!r}")
        if not isinstance(policy, str) or policy.partition(":")[0] == self.name:
            raise ValueError(f"policy must be another bot's name, e.g. learned or greedy, got {policy!r}")
        self.rollouts = rollouts
        self.cut = cut
        self.width = width
        self.place = place
        self.policy = make_bot(policy)  # raises for an unknown bot
        self._placement = LearnedBot()
        #: The analysis behind the last decision (``None`` after a forced one or a placement as ``learned``).
        self.last: DeepAnalysis | None = None

    def choose(self, position: Position, rng: Random) -> Action:
        self.last = None
        if (position.phase == PLACE and self.place is None) or position.phase not in DECISIONS:
            return self._placement.choose(position, rng)
        actions = legal_actions(position)
        if len(actions) == 1:
            return actions[0]
        with collector_paused():  # the rollouts make no cycles (bots.collector)
            self.last = analyze(
                position,
                rollouts=self.rollouts,
                cut=self.cut,
                width=self.width if position.phase == MOVE else self.place,
                policy=self.policy,
                seed=rng.getrandbits(64),
            )
        return self.last.best.action


register("deep", DeepBot, level=4)
