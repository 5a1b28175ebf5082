"""The PettingZoo environment: PettingZoo's own API and seed tests, masks, rewards, the die."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from random import Random
from typing import Any

import pytest

pytest.importorskip("numpy", reason="the rl extra is not installed: pip install -e '.[rl]'")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed: pip install -e '.[rl]'")

import numpy as np
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.wrappers import TerminateIllegalWrapper

from ghostparty.rl import aec
from ghostparty.rl.actions import N_ACTIONS, legal_ids
from ghostparty.rl.observation import encode
from ghostparty.rl.rewards import final_rewards
from ghostparty.rules import OVER, ROLL, IllegalAction, apply, legal_actions, ruleset, start_position
from ghostparty.rules.actions import DIE_FACES

SETTINGS = [("hugo", 2), ("hugo", 5), ("midnight-party", 3), ("midnight-party", 8)]


@contextmanager
def pettingzoo_advice_ignored() -> Iterator[None]:
    """api_test's advice that does not apply here, and nothing else.

    PettingZoo exempts its own classic games (chess, go, …) from these by name: their
    observations are, like ours, a dict of ``observation`` and ``action_mask``; and the
    chance agent is called ``chance``, not ``<descriptor>_<number>``.
    """
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        warnings.filterwarnings("ignore", message="We recommend agents to be named in the format")
        yield


@pytest.mark.parametrize(("rules", "players"), SETTINGS)
@pytest.mark.parametrize("chance", ["env", "agent"])
def test_pettingzoo_api_test(rules: str, players: int, chance: aec.Chance) -> None:
    env = aec.env(rules=rules, players=players, chance=chance, render_mode="ansi")
    with pettingzoo_advice_ignored():
        api_test(env, num_cycles=400)


@pytest.mark.parametrize(("rules", "players"), SETTINGS)
@pytest.mark.parametrize("chance", ["env", "agent"])
def test_pettingzoo_seed_test(rules: str, players: int, chance: aec.Chance) -> None:
    seed_test(lambda: aec.env(rules=rules, players=players, chance=chance), num_cycles=400)


def play(env: Any, seed: int, rng: Random) -> Iterator[tuple[str, Any, float, bool]]:
    """A whole game, every agent choosing uniformly among its mask; yields each ``last()``."""
    env.reset(seed=seed)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        yield agent, observation, reward, terminated
        if terminated or truncated:
            env.step(None)
        else:
            env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))


@pytest.mark.parametrize(("rules", "players"), SETTINGS)
@pytest.mark.parametrize("reward", ["win", "points"])
def test_whole_games_masks_observations_and_rewards(rules: str, players: int, reward: str) -> None:
    """The mask is the engine's legal actions, the observation the agent's view, and the
    game's result arrives once, at the end, to every seat."""
    env = aec.env(rules=rules, players=players, reward=reward)
    raw = env.unwrapped
    for seed in range(3):
        total = dict.fromkeys(raw.possible_agents, 0.0)
        finished: set[str] = set()
        final = None
        for agent, observation, reward_, terminated in play(env, seed, Random(seed)):
            total[agent] += reward_
            position = raw.position
            seat = int(agent.removeprefix("player_"))
            assert (observation["observation"] == encode(position, seat)).all()
            if terminated:
                final = position
                finished.add(agent)
                continue
            assert position.phase in ("place", "move") and position.to_move == seat
            mask = observation["action_mask"]
            assert mask.shape == (N_ACTIONS,) and mask.dtype == np.int8
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(legal_ids(position))
            assert len(legal_ids(position)) == len(legal_actions(position))
            for other in raw.agents:  # only the agent to move has a mask
                if other != agent:
                    assert raw.observe(other)["action_mask"].sum() == 0
        assert final is not None and final.phase == OVER
        assert finished == set(raw.possible_agents) and env.agents == []
        results = final_rewards(final, reward)  # type: ignore[arg-type]
        assert [total[f"player_{s}"] for s in range(players)] == pytest.approx(list(results))
        if reward == "win":
            assert sum(results) == pytest.approx(1.0)
            assert {s for s in range(players) if results[s] > 0} == set(final.winners)
        else:
            assert results == tuple(-float(score) for score in final.scores)


def test_the_same_seed_plays_the_same_game_and_another_seed_another() -> None:
    def game(seed: int) -> list[Any]:
        env = aec.env(rules="hugo", players=4)
        return [(agent, obs["observation"].tobytes()) for agent, obs, *_ in play(env, seed, Random(0))]

    assert game(7) == game(7)
    assert game(7) != game(8)


def test_the_chance_agent_takes_every_roll() -> None:
    env = aec.env(rules="midnight-party", players=2, chance="agent")
    raw = env.unwrapped
    env.reset(seed=3)
    assert raw.possible_agents == ["player_0", "player_1", "chance"]
    rng = Random(3)
    rolls = 0
    for agent in env.agent_iter():
        observation, reward, terminated, _, _ = env.last()
        if terminated:
            env.step(None)
            continue
        mask = np.flatnonzero(observation["action_mask"]).tolist()
        if agent == "chance":
            rolls += 1
            assert raw.position.phase == ROLL and reward == 0.0
            assert mask == [0, 1, 2, 3, 4]
            outcomes = raw.chance_outcomes()
            assert outcomes == [(0, 1 / 6), (1, 1 / 6), (2, 1 / 6), (3, 1 / 6), (4, 1 / 3)]
            ids, probabilities = zip(*outcomes, strict=True)
            env.step(rng.choices(ids, probabilities)[0])
        else:
            assert raw.position.phase != ROLL and raw.chance_outcomes() == []
            env.step(rng.choice(mask))
    assert rolls > 20


@pytest.mark.parametrize(("rules", "players"), [("hugo", 3), ("midnight-party", 2)])
def test_the_die_is_the_seeded_generators(rules: str, players: int) -> None:
    """With ``chance="env"`` every roll is ``DIE_FACES[np_random.integers(6)]`` from the
    generator ``reset(seed)`` made: the engine, fed the same faces and decisions, replays
    the environment's game position by position."""
    env = aec.env(rules=rules, players=players)
    raw = env.unwrapped
    generator = np.random.default_rng(21)  # what gymnasium's seeding.np_random(21) makes
    replay = start_position(ruleset(rules), players)
    rng = Random(5)
    env.reset(seed=21)
    rolls = 0
    for _ in env.agent_iter():
        observation, _, terminated, _, _ = env.last()
        while replay.phase == ROLL:
            replay = apply(replay, DIE_FACES[int(generator.integers(6))])
            rolls += 1
        assert raw.position == replay
        if terminated:
            env.step(None)
            continue
        action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
        env.step(action)
        replay = apply(replay, legal_ids(replay)[action])
    assert rolls > 20


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = aec.env(rules="hugo", players=2)
    env.reset(seed=0)
    raw = env.unwrapped
    before = raw.position
    with pytest.raises(
        IllegalAction, match=r"action 46 \(Move\(source='G0', target='G0'\)\) is not legal for player_0"
    ):
        env.step(46)
    with pytest.raises(IllegalAction, match=r"action 9999 is not legal for player_0 now .*expected one of the ids"):
        env.step(9999)
    for wrong in (6.0, "6", True, None):  # only integers are ids (Place("G0") is id 6)
        with pytest.raises(IllegalAction, match=rf"action {wrong!r} is not legal for player_0"):
            env.step(wrong)
    assert raw.position is before and env.agent_selection == "player_0"
    env.step(6)  # Place("G0") is legal
    assert raw.position == apply(before, legal_actions(before)[0])


def test_terminate_illegal_wrapper_ends_the_game_with_a_penalty() -> None:
    """PettingZoo's own illegal-move policy works on top (STYLE.md: a wrapper)."""
    env = TerminateIllegalWrapper(aec.GhostPartyEnv(rules="hugo", players=3), illegal_reward=-1)
    env.reset(seed=0)
    env.last()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*[Ii]llegal move")
        env.step(46)
    assert env.terminations == dict.fromkeys(["player_0", "player_1", "player_2"], True)
    assert env.rewards["player_0"] == -1


def test_render_and_bad_arguments() -> None:
    env = aec.GhostPartyEnv(rules="hugo", players=2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert text is not None and text.startswith("hugo 2p, place: seat 0 to place")
    assert "seat 1 blue: -, 6 to place | 10 points" in text
    assert aec.GhostPartyEnv().render() is None
    with pytest.raises(ValueError, match=r"unknown rule set 'chess'"):
        aec.GhostPartyEnv(rules="chess")
    with pytest.raises(ValueError, match=r"players must be 2 to 8, got 9"):
        aec.GhostPartyEnv(players=9)
    with pytest.raises(ValueError, match=r"unknown reward 'rank': expected one of win, points"):
        aec.GhostPartyEnv(reward="rank")
    with pytest.raises(ValueError, match=r"unknown chance mode 'dice'"):
        aec.GhostPartyEnv(chance="dice")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"unknown render_mode 'human'"):
        aec.GhostPartyEnv(render_mode="human")
