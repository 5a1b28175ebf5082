"""One game loop: roll or choose, then apply.

:func:`next_action` is the one step every player of the game takes — the die's roll in
phase ``"roll"``, else the seat's policy's choice — used by the bulk loop here, by the
terminal game (``ghostparty play``) and by the server's bot runner, which interleave it
with people's turns. :func:`playout` is the loop: it plays a position to the end with a
policy per seat and yields every :class:`Step` (callers that follow a game: the think-time
positions, guest tracking for the heat-maps), and :func:`play_out` consumes it for
callers that need only the end. :func:`seeded_playout` seats the policies with the random
sources of the one seeding scheme (:mod:`ghostparty.sim.seeds`).

``ghostparty.sim.bench``'s timing loops are deliberately not built on this: a benchmark
of the engine should not pay for a generator and a step object per action.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from random import Random
from typing import NamedTuple

from ghostparty.bots import Bot
from ghostparty.rules import OVER, PLACE, ROLL, Action, Event, Position, Roll, apply, legal_actions, sample_roll
from ghostparty.sim.seeds import bot_rng, die_rng

__all__ = [
    "MAX_ACTIONS",
    "Die",
    "PlayoutError",
    "Step",
    "UniformPlacement",
    "next_action",
    "play_out",
    "playout",
    "rolls",
    "seeded_playout",
]

#: The default guard against a game that never ends (random games take 80 – 400 actions).
MAX_ACTIONS = 10_000

#: A die: each call rolls once.
Die = Callable[[], Roll]


def rolls(rng: Random) -> Die:
    """The die that rolls from ``rng`` (:func:`~ghostparty.rules.sample_roll`)."""
    return partial(sample_roll, rng)


class PlayoutError(Exception):
    """A game could not be played to the end: a policy failed (``seat`` is its seat), or
    the game ran too long (``seat`` is ``None``); ``actions`` were played before."""

    def __init__(self, message: str, *, seat: int | None = None, actions: int = 0) -> None:
        super().__init__(message)
        self.seat = seat
        self.actions = actions


class Step(NamedTuple):
    """One action of a game: who took it in which position, and what came of it."""

    #: The position the action was taken in.
    position: Position
    action: Action
    #: The position after it.
    after: Position
    #: The seat to move in :attr:`position` (for a roll, the seat that rolled).
    seat: int
    #: Whether the action is the die's roll, not a policy's decision.
    rolled: bool
    #: Seconds the policy took to choose (``0.0`` for a roll).
    think: float
    #: What happened (``ghostparty.rules.events``), when the playout was asked for events.
    events: list[Event] | None = None


_new = tuple.__new__  # a Step per action: built without NamedTuple's keyword-handling __new__


def next_action(position: Position, policy: Bot, rng: Random, die: Die) -> Action:
    """The next action in ``position``: the die's roll in phase ``"roll"``, else what
    ``policy`` (the seat to move's) chooses with ``rng``."""
    if position.phase == ROLL:
        return die()
    return policy.choose(position, rng)


def playout(
    position: Position,
    policies: Sequence[Bot],
    rngs: Sequence[Random],
    die: Die,
    *,
    events: bool = False,
    max_actions: int = MAX_ACTIONS,
) -> Iterator[Step]:
    """Play ``position`` to the end, yielding every :class:`Step`: the seat to move's
    ``policies[seat]`` chooses with ``rngs[seat]``, the die rolls in phase ``"roll"``.

    With ``events`` each step carries what happened (at some cost: events are built only
    when asked for).

    :raises PlayoutError: when a policy raises or chooses an illegal action (the error
        names the seat, the policy and the action count), or the game takes more than
        ``max_actions`` actions.
    """
    clock = time.perf_counter
    count = 0
    happened: list[Event] | None = None
    while True:
        phase = position.phase
        if phase == OVER:
            return
        if count >= max_actions:
            raise PlayoutError(f"did not end within {max_actions} actions", actions=count)
        seat = position.to_move
        if events:
            happened = []
        if phase == ROLL:
            action: Action = die()
            after = apply(position, action, happened)
            step = _new(Step, (position, action, after, seat, True, 0.0, happened))
        else:
            policy = policies[seat]
            try:
                started = clock()
                action = policy.choose(position, rngs[seat])
                think = clock() - started
                after = apply(position, action, happened)
            except Exception as error:  # any failure of a policy: say which seat and when
                name = getattr(policy, "name", type(policy).__name__)
                raise PlayoutError(
                    f"bot {name!r} in seat {seat} failed after {count} actions: {type(error).__name__}: {error}",
                    seat=seat,
                    actions=count,
                ) from error
            step = _new(Step, (position, action, after, seat, False, think, happened))
        count += 1
        yield step
        position = after


def play_out(
    position: Position,
    policies: Sequence[Bot],
    rngs: Sequence[Random],
    die: Die,
    *,
    max_actions: int = MAX_ACTIONS,
) -> Position:
    """The end of :func:`playout`: the final position."""
    for step in playout(position, policies, rngs, die, max_actions=max_actions):
        position = step.after
    return position


def seeded_playout(
    position: Position, policies: Sequence[Bot], seed: int, *, events: bool = False, max_actions: int = MAX_ACTIONS
) -> Iterator[Step]:
    """:func:`playout` with the random sources of the game seeded ``seed``
    (:mod:`ghostparty.sim.seeds`): the die's, and each seat's own."""
    rngs = [bot_rng(seed, seat) for seat in range(position.players)]
    return playout(position, policies, rngs, rolls(die_rng(seed)), events=events, max_actions=max_actions)


class UniformPlacement:
    """A policy that places every guest on a uniformly random empty square (with its own
    random source) and leaves the moves to ``policy``; for the random bot this changes nothing."""

    def __init__(self, policy: Bot) -> None:
        self.policy = policy
        self.name = f"{policy.name} (uniform placement)"

    def choose(self, position: Position, rng: Random) -> Action:
        if position.phase == PLACE:
            actions = legal_actions(position)
            return actions[int(rng.random() * len(actions))]
        return self.policy.choose(position, rng)
