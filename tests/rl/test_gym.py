"""The Gymnasium environment: one seat against bots, registered, passing check_env."""

from __future__ import annotations

from random import Random

import pytest

pytest.importorskip("numpy", reason="the rl extra is not installed: pip install -e '.[rl]'")
pytest.importorskip("gymnasium", reason="the rl extra is not installed: pip install -e '.[rl]'")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed: pip install -e '.[rl]'")

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env

import ghostparty.rl
from ghostparty.rl.actions import legal_ids
from ghostparty.rl.gym_env import SeatEnv
from ghostparty.rl.observation import encode
from ghostparty.rl.rewards import final_rewards
from ghostparty.rules import OVER


@pytest.mark.parametrize("env_id", sorted(ghostparty.rl.GYM_IDS))
@pytest.mark.parametrize(("players", "opponents"), [(2, "greedy"), (5, "random")])
def test_check_env_passes(env_id: str, players: int, opponents: str) -> None:
    env = gymnasium.make(env_id, players=players, opponents=opponents)
    check_env(env.unwrapped)  # render_mode "ansi" checked through the registered spec
    env.close()


def test_registered_with_the_rule_set() -> None:
    assert gymnasium.spec("ghostparty/Hugo-v0").kwargs == {"rules": "hugo"}
    env = gymnasium.make("ghostparty/MidnightParty-v0", players=3)
    assert env.unwrapped.ruleset.id == "midnight-party"
    assert gymnasium.make("ghostparty.rl:ghostparty/Hugo-v0").unwrapped.ruleset.id == "hugo"  # imports the package


@pytest.mark.parametrize(
    ("rules", "players", "opponents"), [("hugo", 2, "greedy"), ("midnight-party", 4, ["random", "greedy", "random"])]
)
@pytest.mark.parametrize("reward", ["win", "points"])
def test_episodes_are_the_seats_games_with_their_result(
    rules: str, players: int, opponents: object, reward: str
) -> None:
    env = SeatEnv(rules, players, opponents, reward=reward)  # type: ignore[arg-type]
    rng = Random(1)
    seats = set()
    for seed in range(4):
        observation, info = env.reset(seed=seed)
        seat = info["seat"]
        seats.add(seat)
        total, terminated, steps = 0.0, False, 0
        while not terminated:
            position = env.position
            assert position.phase in ("place", "move") and position.to_move == seat  # only the learner's turns
            assert (observation["observation"] == encode(position, seat)).all()
            assert sorted(np.flatnonzero(observation["action_mask"]).tolist()) == sorted(legal_ids(position))
            action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
            observation, reward_, terminated, truncated, info = env.step(action)
            assert not truncated and info["seat"] == seat
            total += reward_
            steps += 1
            if not terminated:
                assert reward_ == 0.0
        final = env.position
        assert final.phase == OVER and observation["action_mask"].sum() == 0
        assert total == final_rewards(final, reward)[seat]  # type: ignore[arg-type]
        assert info["scores"] == list(final.scores) and info["winners"] == list(final.winners)
        with pytest.raises(RuntimeError, match=r"the episode is over: call reset\(\) before step\(\)"):
            env.step(0)
    assert len(seats) > 1  # seat None: drawn from the seed


def test_the_same_seed_gives_the_same_seat_dice_and_bot_moves() -> None:
    def episode(seed: int) -> list[bytes]:
        env = SeatEnv("hugo", 4, "greedy")
        observation, _ = env.reset(seed=seed)
        seen = [observation["observation"].tobytes()]
        terminated = False
        while not terminated:
            action = int(np.flatnonzero(observation["action_mask"])[0])
            observation, _, terminated, _, _ = env.step(action)
            seen.append(observation["observation"].tobytes())
        return seen

    assert episode(5) == episode(5)
    assert episode(5) != episode(6)


def test_an_illegal_action_ends_the_episode_with_the_penalty() -> None:
    env = SeatEnv("hugo", 2, "random", seat=1, illegal_reward=-2.5)
    env.reset(seed=0)
    observation, reward, terminated, truncated, info = env.step(0)  # a roll: never the learner's
    assert (reward, terminated, truncated, info) == (-2.5, True, False, {"seat": 1, "illegal_action": True})
    assert observation["action_mask"].sum() == 0


def test_bad_arguments_say_what_was_expected() -> None:
    with pytest.raises(ValueError, match=r"opponents: expected one bot spec or 3, got 2: \['random', 'greedy'\]"):
        SeatEnv("hugo", 4, ["random", "greedy"])
    with pytest.raises(ValueError, match=r"unknown bot 'grumpy'"):
        SeatEnv("hugo", 2, "grumpy")
    with pytest.raises(ValueError, match=r"seat must be None or a seat 0 to 1, got 2"):
        SeatEnv("hugo", 2, seat=2)
    with pytest.raises(ValueError, match=r"unknown reward 'rank'"):
        SeatEnv("hugo", 2, reward="rank")
    env = SeatEnv("midnight-party", 2, render_mode="ansi")
    env.reset(seed=1)
    assert (env.render() or "").startswith("midnight-party 2p, place")
