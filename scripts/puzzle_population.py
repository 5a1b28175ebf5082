"""Puzzle ratings after a population of players of known strength solved them.

    nice python scripts/puzzle_population.py --players-per-bot 3 --seed 1

Each bot level (``--bots``) stands for ``--players-per-bot`` players; each player tries
every puzzle of the bundled starter set once, in an order of its own, as an account does
on the server: the bot picks its move in the puzzle's position, the attempt is a game
between player and puzzle rated by Glicko-2 (:func:`ghostparty.server.puzzles.ratings.rate`),
and the puzzles' ratings are shared by the whole population. The attempts of the players
are interleaved (one puzzle each in turn), so no level meets the puzzles first. Prints
each level's solve rate and its players' final ratings (mean, lowest, highest), and how
the puzzles' ratings moved. Stronger levels should end rated higher; the levels whose
judgement the mining itself uses (the review's search and the deep analysis: ``learned``
leaves, ``deep``) have an edge the others don't.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from ghostparty.analysis import deep as _deep  # noqa: F401  (registers the deep bot)
from ghostparty.bots import make_bot
from ghostparty.rules import action_from_dict, position_from_dict
from ghostparty.server.puzzles.loading import starter
from ghostparty.server.puzzles.ratings import START, Glicko, rate

BOTS = "random,greedy,learned,expectimax,mcts,deep"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", default=BOTS, help="bot levels, comma-separated")
    parser.add_argument("--players-per-bot", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    puzzles = list(starter())
    ratings = {p.id: p.rating for p in puzzles}
    started = {p.id: p.rating.rating for p in puzzles}
    answers = {p.id: action_from_dict(p.puzzle["answer"]["action"]) for p in puzzles}
    positions = {p.id: position_from_dict(p.position) for p in puzzles}
    players: list[tuple[str, random.Random, list[str]]] = []
    for level in args.bots.split(","):
        for k in range(args.players_per_bot):
            rng = random.Random(f"{args.seed}/{level}/{k}")
            order = [p.id for p in puzzles]
            rng.shuffle(order)
            players.append((level, rng, order))
    bots = {level: make_bot(level) for level in {level for level, _, _ in players}}
    player_ratings: list[Glicko] = [START] * len(players)
    solved = [0] * len(players)
    cpu = {level: 0.0 for level in bots}
    for turn in range(len(puzzles)):
        for i, (level, rng, order) in enumerate(players):
            puzzle_id = order[turn]
            clock = time.process_time()
            chosen = bots[level].choose(positions[puzzle_id], rng)
            cpu[level] += time.process_time() - clock
            right = chosen == answers[puzzle_id]
            solved[i] += right
            player_ratings[i], ratings[puzzle_id] = rate(player_ratings[i], ratings[puzzle_id], right)
    print(f"{len(puzzles)} puzzles, {args.players_per_bot} players a level, seed {args.seed}")
    print("| level | solved | rating, mean | lowest | highest | RD | CPU s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for level in args.bots.split(","):
        mine = [i for i, (name, _, _) in enumerate(players) if name == level]
        values = [player_ratings[i].rating for i in mine]
        share = sum(solved[i] for i in mine) / (len(mine) * len(puzzles))
        rd = statistics.fmean(player_ratings[i].rd for i in mine)
        print(
            f"| {level} | {100 * share:.1f} % | {statistics.fmean(values):.0f} | {min(values):.0f} | "
            f"{max(values):.0f} | {rd:.0f} | {cpu[level]:.1f} |"
        )
    moved = [ratings[p].rating - started[p] for p in started]
    print(
        f"puzzles: start {statistics.fmean(started.values()):.0f} on average, now "
        f"{statistics.fmean(r.rating for r in ratings.values()):.0f}; moved {statistics.fmean(abs(m) for m in moved):.0f} on average"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
