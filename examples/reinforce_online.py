"""Play the REINFORCE policy of ``examples/reinforce.py`` online, as a bot account.

    python examples/reinforce_online.py --server https://ghostparty.example --token gp_…
    python examples/reinforce_online.py --server … --token gp_… --episodes 4000 --save weights.json
    python examples/reinforce_online.py --server … --token gp_… --load weights.json --quick-match hugo

It trains the linear softmax policy through the PettingZoo environment as
``examples/reinforce.py`` does (or loads weights saved earlier), then hands it to the Bot
API's reference client (:mod:`ghostparty.connect`) as a ``(position, legal) -> action``
function: the online position is encoded as the environment's observation of the seat to
move, the policy scores the legal actions' features, and the best one is played (the
policy's most likely action; training drew them at random). The token is a bot account's,
with the ``bot:play`` scope (and ``play`` for ``--quick-match``); the program accepts
invitations, plays every game the account sits in, and stops after ``--games`` games.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reinforce  # examples/reinforce.py

from ghostparty.connect import Client
from ghostparty.rl import aec
from ghostparty.rl.actions import action_mask, legal_ids
from ghostparty.rl.observation import encode
from ghostparty.rules import Game, action_to_dict, ruleset


def online_policy(theta: np.ndarray[Any, Any], rules: str) -> Any:
    """``(position, legal) -> action`` playing the policy's most likely action."""
    features = reinforce.Features(ruleset(rules).board)

    def choose(position: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        state = Game.from_position(position).state
        ids = legal_ids(state)
        observation = {
            "observation": encode(state, state.to_move),
            "action_mask": action_mask(state.ruleset.board, ids.values()),
        }
        order, table = features(observation)
        best = order[int(np.argmax(table @ theta))]
        return action_to_dict(ids[best])

    return choose


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", required=True)
    parser.add_argument("--token", required=True, help="a bot account's API token (bot:play)")
    parser.add_argument("--rules", default="hugo", choices=["hugo", "midnight-party"], help="the rules trained for")
    parser.add_argument("--episodes", type=int, default=2000, help="training games (without --load)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--load", type=Path, help="weights saved by --save instead of training")
    parser.add_argument("--save", type=Path, help="where to save the trained weights (JSON)")
    parser.add_argument("--games", type=int, default=None, help="stop after this many games (default: never)")
    parser.add_argument("--quick-match", action="store_true", help="also wait in the quick-match queue")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    if args.load:
        theta = np.array(json.loads(args.load.read_text(encoding="utf-8"))["weights"])
    else:
        env = aec.env(rules=args.rules, players=2)
        theta = reinforce.train(env, args.episodes, 0.1, args.seed, log_every=0)
        print(f"trained on {args.episodes} games", flush=True)
    if args.save:
        args.save.write_text(json.dumps({"features": reinforce.FEATURES, "weights": theta.tolist()}), encoding="utf-8")
    client = Client(
        args.server, args.token, online_policy(theta, args.rules), queue=args.rules if args.quick_match else None
    )
    asyncio.run(client.run(stop_after=args.games))


if __name__ == "__main__":
    main()
