"""REINFORCE on a linear softmax policy, trained through the PettingZoo environment.

    python examples/reinforce.py                      # hugo, 2 players: a few minutes on one core
    python examples/reinforce.py --rules midnight-party --players 3 --episodes 3000

The learner plays one seat (alternating every game) of the PettingZoo AEC environment
(``ghostparty.rl.aec``); the other seats are bots from ``ghostparty.bots`` (``random``
and ``greedy`` in turn during training). Its policy scores each legal action by a
weighted sum of a few features read from the observation and the action's id — where
the guest stands and where it ends relative to Hugo (captured on the spot, within one
or two of his moves, or safe), rooms and their shields, expelling, leaving the cellar —
and picks one with softmax probabilities. After each game the weights move along
REINFORCE's gradient: (the game's reward − a running mean) × Σ ∇ log π(action). The
reward is the environment's ``"win"`` reward: the seat's share of the win.

It prints the win rates with 95 % intervals, before training (all weights 0: a
uniformly random policy) and after, against ``random`` and against ``greedy``, and the
learned weights.
"""

from __future__ import annotations

import argparse
import math
import time
from random import Random
from typing import Any

import numpy as np

from ghostparty.bots import make_bot
from ghostparty.rl import aec
from ghostparty.rl.actions import MOVE_ID, N_TARGETS, PASS_ID, PLACE_ID, action_id
from ghostparty.rl.observation import fields
from ghostparty.rules import Board, ruleset
from ghostparty.sim.stats import interval

FEATURES = (
    "pass",
    "ends on Hugo's square",
    "ends within one Hugo move",
    "ends within two Hugo moves",
    "ends beyond two Hugo moves",
    "leaves a square within one Hugo move",
    "leaves a square within two Hugo moves",
    "enters a neutral room",
    "enters a green room",
    "enters a red room",
    "expels a guest",
    "leaves a room",
    "leaves the cellar",
    "ends beside another own guest",
    "places on a door square",
)
F = {name: i for i, name in enumerate(FEATURES)}


class Features:
    """The feature vector of every legal action, from an observation and the board."""

    def __init__(self, board: Board) -> None:
        self.board = board
        rooms = board.rooms
        self.shield = {40 + k: room.shield for k, room in enumerate(rooms)}
        self.doors = {room.door for room in rooms}
        self.steps = len(board.steps)

    def hugo_distance(self, hugo: int, square: int) -> int:
        """Move points Hugo needs to reach gallery ``square`` (0: he stands on it)."""
        if hugo < 40:
            return (square - hugo) % 40
        climb = self.steps + 1 if hugo == 60 else self.steps - (hugo - 51)  # START, or step slot 51 + j
        return climb + square

    def __call__(self, observation: dict[str, Any]) -> tuple[list[int], np.ndarray[Any, Any]]:
        view = fields(observation["observation"])
        ids = np.flatnonzero(observation["action_mask"]).tolist()
        hugo = int(np.flatnonzero(view["hugo"])[0])
        speed = max(1.0, float(view["hugo_speed"][0]))
        mine = view["guests"][0]
        others = view["guests"][1:].sum(axis=0)
        table = np.zeros((len(ids), len(FEATURES)))
        for row, id in enumerate(ids):
            f = table[row]
            if id == PASS_ID:
                f[F["pass"]] = 1
                continue
            if id < MOVE_ID:  # a placement: judged like a move that ends there
                source, target = -1, id - PLACE_ID
                f[F["places on a door square"]] = target in self.doors
            else:
                source, target = divmod(id - MOVE_ID, N_TARGETS)
                f[F["leaves a room"]] = 40 <= source < 51
                f[F["leaves the cellar"]] = source >= 51
                if 0 <= source < 40:
                    d = self.hugo_distance(hugo, source)
                    f[F["leaves a square within one Hugo move"]] = 0 < d <= speed
                    f[F["leaves a square within two Hugo moves"]] = speed < d <= 2 * speed
            if target >= 40:
                f[F[f"enters a {self.shield[target]} room"]] = 1
                f[F["expels a guest"]] = others[target] > 0
            else:
                d = self.hugo_distance(hugo, target)
                if d == 0:
                    f[F["ends on Hugo's square"]] = 1
                elif d <= speed:
                    f[F["ends within one Hugo move"]] = 1
                elif d <= 2 * speed:
                    f[F["ends within two Hugo moves"]] = 1
                else:
                    f[F["ends beyond two Hugo moves"]] = 1
                f[F["ends beside another own guest"]] = mine[target] - (source == target) > 0
        return ids, table


def softmax_choice(theta: np.ndarray[Any, Any], table: np.ndarray[Any, Any], rng: Random) -> tuple[int, Any]:
    """A row drawn with softmax probabilities, and ∇ log π of that choice."""
    scores = table @ theta
    p = np.exp(scores - scores.max())
    p /= p.sum()
    row = rng.choices(range(len(p)), weights=p.tolist())[0]
    return row, table[row] - p @ table


def play(
    env: Any, seed: int, seat: int, bots: dict[int, Any], features: Features, theta: np.ndarray[Any, Any], rng: Random
) -> tuple[float, np.ndarray[Any, Any]]:
    """One game through the AEC API; the learner's reward and its summed ∇ log π."""
    raw = env.unwrapped
    board = raw.ruleset.board
    env.reset(seed=seed)
    learner = f"player_{seat}"
    grad = np.zeros(len(FEATURES))
    reward = 0.0
    for agent in env.agent_iter():
        observation, got, terminated, truncated, _ = env.last()
        if agent == learner:
            reward += got
        if terminated or truncated:
            env.step(None)
        elif agent == learner:
            ids, table = features(observation)
            row, g = softmax_choice(theta, table, rng)
            grad += g
            env.step(ids[row])
        else:
            bot, bot_rng = bots[int(agent.removeprefix("player_"))]
            env.step(action_id(board, bot.choose(raw.position, bot_rng)))
    return reward, grad


def evaluate(env: Any, theta: np.ndarray[Any, Any], opponent: str, games: int, seed: int) -> tuple[float, float, float]:
    """Win rate (shared wins count 1/k) and its 95 % interval against ``opponent``."""
    raw = env.unwrapped
    features = Features(raw.ruleset.board)
    rng = Random(seed)
    outcomes = []
    for game in range(games):
        seat = game % raw.players
        bots = {s: (make_bot(opponent), Random(rng.random())) for s in range(raw.players) if s != seat}
        reward, _ = play(env, seed * 1_000_003 + game, seat, bots, features, theta, rng)
        outcomes.append(reward)
    low, high, _ = interval(outcomes)
    return sum(outcomes) / games, low, high


def train(env: Any, episodes: int, lr: float, seed: int, log_every: int) -> np.ndarray[Any, Any]:
    raw = env.unwrapped
    features = Features(raw.ruleset.board)
    theta = np.zeros(len(FEATURES))
    rng = Random(seed)
    baseline = 1.0 / raw.players
    recent: list[float] = []
    for episode in range(episodes):
        seat = episode % raw.players
        opponent = ("random", "greedy")[(episode // raw.players) % 2]
        bots = {s: (make_bot(opponent), Random(rng.random())) for s in range(raw.players) if s != seat}
        reward, grad = play(env, 10_000_000 + seed * 100_000 + episode, seat, bots, features, theta, rng)
        theta += lr * (reward - baseline) * grad
        baseline += 0.01 * (reward - baseline)
        recent.append(reward)
        if log_every and (episode + 1) % log_every == 0:
            print(f"  episode {episode + 1}: mean reward of the last {len(recent)} {sum(recent) / len(recent):.3f}")
            recent = []
    return theta


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="hugo", choices=["hugo", "midnight-party"])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--episodes", type=int, default=4000, help="training games")
    parser.add_argument("--eval", type=int, default=1000, help="evaluation games per opponent")
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    ruleset(args.rules)
    env = aec.env(rules=args.rules, players=args.players)
    fair = 1 / args.players
    print(f"{args.rules}, {args.players} players; fair share {fair:.1%}")

    wall, cpu = time.perf_counter(), time.process_time()
    theta = train(env, args.episodes, args.lr, args.seed, log_every=max(1, args.episodes // 8))
    train_cpu = time.process_time() - cpu
    print(f"trained on {args.episodes} games in {time.perf_counter() - wall:.0f} s ({train_cpu:.0f} s CPU)")

    print(f"win rate over {args.eval} games per row, seats alternating [95 % interval]:")
    for label, weights in (("untrained (uniform)", np.zeros(len(FEATURES))), ("trained", theta)):
        for opponent in ("random", "greedy"):
            rate, low, high = evaluate(env, weights, opponent, args.eval, seed=args.seed + 7)
            print(f"  {label:20} vs {opponent:7} {rate:6.1%} [{low:.1%}, {high:.1%}]")
    print("weights:")
    for name, weight in sorted(zip(FEATURES, theta, strict=True), key=lambda item: -abs(item[1])):
        if not math.isclose(weight, 0.0):
            print(f"  {weight:+7.2f}  {name}")


if __name__ == "__main__":
    main()
