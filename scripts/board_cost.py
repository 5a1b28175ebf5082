"""The analysis board's CPU per decision: the fast look, and the deep one (which includes it).

    nice -n 10 python scripts/board_cost.py --games 3 --seed 1

For hugo and midnight-party with 2, 4 and 8 players, ``--games`` seeded games of the
``random`` bot are played; at every move decision with more than one legal action,
:func:`ghostparty.analysis.explore.explore` is timed (process CPU) with a fresh evaluator,
as the server answers one look, without and with ``deep``. Prints the median and the
largest per setting, in milliseconds, as the table of docs/analysis.md (The analysis board).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from ghostparty.analysis.explore import explore
from ghostparty.bots import make_bot
from ghostparty.rules import MOVE, legal_actions, ruleset, start_position
from ghostparty.sim.playout import seeded_playout
from ghostparty.sim.seeds import game_seed

SETTINGS = [(rules, players) for rules in ("hugo", "midnight-party") for players in (2, 4, 8)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("| rules, players | fast, median (max) | deep, median (max) |")
    print("| --- | ---: | ---: |")
    for rules, players in SETTINGS:
        fast: list[float] = []
        deep: list[float] = []
        for game in range(args.games):
            start = start_position(ruleset(rules), players)
            bots = [make_bot("random")] * players
            for step in seeded_playout(start, bots, game_seed(args.seed, game)):
                position = step.position
                if position.phase != MOVE or len(legal_actions(position)) < 2:
                    continue
                for looks, deeply in ((fast, False), (deep, True)):
                    began = time.process_time()
                    explore(position, deep=deeply)
                    looks.append(1000 * (time.process_time() - began))
        print(
            f"| {rules}, {players} | {statistics.median(fast):.0f} ms ({max(fast):.0f}) "
            f"| {statistics.median(deep):.0f} ms ({max(deep):.0f}) |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
