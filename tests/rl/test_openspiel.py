"""The OpenSpiel game: registered, explicit chance nodes, OpenSpiel's own checks and algorithms."""

from __future__ import annotations

import pickle

import pytest

pytest.importorskip("numpy", reason="the rl extra is not installed: pip install -e '.[rl]'")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed: pip install -e '.[rl]'")
pytest.importorskip("pyspiel", reason="open-spiel is not installed: pip install open-spiel")

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts
from open_spiel.python.observation import make_observation

from ghostparty.rl import openspiel
from ghostparty.rl.actions import legal_ids
from ghostparty.rl.observation import encode
from ghostparty.rules import MOVE, OVER, PLACE, ROLL


def test_registered_with_its_parameters() -> None:
    assert openspiel.SHORT_NAME in pyspiel.registered_names()
    game = pyspiel.load_game("python_ghostparty(rules=midnight-party,players=5)")
    assert (game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()) == (5, 3106, 5)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert game.new_initial_state().position.ruleset.id == "midnight-party"
    assert pyspiel.load_game("python_ghostparty").num_players() == 2
    with pytest.raises(ValueError, match=r"players must be 2 to 8, got 9"):
        openspiel.GhostPartyGame({"players": 9})


@pytest.mark.parametrize("name", ["python_ghostparty", "python_ghostparty(rules=midnight-party,players=4)"])
def test_openspiels_random_simulation_test(name: str) -> None:
    """OpenSpiel's own conformance run: legal actions, chance outcomes, returns, clones,
    observations and (de)serialisation checked along whole random games."""
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=2, serialize=True, verbose=False)


def test_a_whole_game_chance_nodes_and_returns() -> None:
    game = pyspiel.load_game("python_ghostparty(rules=hugo,players=3)")
    state = game.new_initial_state()
    rng = np.random.RandomState(4)
    chance_nodes = 0
    while not state.is_terminal():
        position = state.position
        if state.is_chance_node():
            chance_nodes += 1
            assert position.phase == ROLL and state.current_player() == pyspiel.PlayerId.CHANCE
            outcomes = state.chance_outcomes()
            assert [a for a, _ in outcomes] == [0, 1, 2, 3, 4]
            assert sum(p for _, p in outcomes) == pytest.approx(1.0) and outcomes[4][1] == pytest.approx(1 / 3)
            actions, probabilities = zip(*outcomes, strict=True)
            state.apply_action(int(rng.choice(actions, p=probabilities)))
            continue
        assert position.phase in (PLACE, MOVE) and state.current_player() == position.to_move
        assert state.legal_actions() == sorted(legal_ids(position))
        assert state.returns() == [0.0, 0.0, 0.0]
        np.testing.assert_array_equal(state.observation_tensor(1), encode(position, 1))
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert state.position.phase == OVER and chance_nodes > 10
    returns = state.returns()
    assert sum(returns) == pytest.approx(1.0)
    assert {seat for seat, value in enumerate(returns) if value > 0} == set(state.position.winners)


def test_clones_share_positions_and_pickles_read_back() -> None:
    game = pyspiel.load_game("python_ghostparty")
    state = game.new_initial_state()
    for action in (6, 7, 8):
        state.apply_action(action)
    clone = state.clone()
    assert clone.position is state.position and clone.history() == [6, 7, 8]
    clone.apply_action(9)
    assert state.history() == [6, 7, 8]  # the clone went on alone
    back = pickle.loads(pickle.dumps(state))
    assert back.position == state.position and back.position.ruleset is state.position.ruleset
    _, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert again.position == state.position


def test_python_observer_has_the_named_fields() -> None:
    game = pyspiel.load_game("python_ghostparty(players=4)")
    state = game.new_initial_state()
    observation = make_observation(game)
    observation.set_from(state, 2)
    assert observation.dict["to_place"][:5].tolist() == [4, 4, 4, 4, 0]
    np.testing.assert_array_equal(observation.tensor, encode(state.position, 2))
    assert "hugo 4p, place" in state.information_state_string(0)


def test_openspiels_mcts_plays_it_unchanged() -> None:
    """OpenSpiel's MCTS with random rollouts, straight from open_spiel.python.algorithms."""
    game = pyspiel.load_game("python_ghostparty(players=2)")
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(
        game, uct_c=2, max_simulations=8, evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng
    )
    state = game.new_initial_state()
    decisions = 0
    while decisions < 16:
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
    assert state.position.phase in (ROLL, MOVE)  # past the placement, into the play
