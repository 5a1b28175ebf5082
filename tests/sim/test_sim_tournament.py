"""``ghostparty tournament`` and :mod:`ghostparty.sim.tournament`: shared wins, seat
rotation, determinism across processes, the bots' own random sources, the interval
math, CSV and JSON output, and errors."""

from __future__ import annotations

import csv
import doctest
import io
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from random import Random

import pytest
from click.testing import CliRunner, Result

from ghostparty.bots import base as bot_registry
from ghostparty.bots import bot_names, make_bot
from ghostparty.cli.main import cli
from ghostparty.rules import Action, Game, Pass, Position, legal_actions
from ghostparty.sim import tournament as tournament_module
from ghostparty.sim.seeds import bot_rng
from ghostparty.sim.tournament import (
    DEALS,
    NORMAL,
    WILSON,
    GameResult,
    TournamentConfig,
    TournamentError,
    deal_interval,
    game_seed,
    interval,
    lineup_from,
    normal_interval,
    play_game,
    rotation_count,
    run_tournament,
    summarize_bots,
    summarize_seats,
    wilson_interval,
)
from ghostparty.sim.tournament_csv import csv_header

# -- test bots, registered for one test only ---------------------------------------------------


class FirstBot:
    """Always the first legal action; never touches its random source."""

    name = "first"

    def choose(self, position: Position, rng: Random) -> Action:
        return legal_actions(position)[0]


class BurnerBot:
    """The first legal action too, after drawing many numbers from its random source."""

    name = "burner"

    def choose(self, position: Position, rng: Random) -> Action:
        for _ in range(17):
            rng.random()
        return legal_actions(position)[0]


class TwinBot(FirstBot):
    """``first`` under another name: two bots that always play alike."""

    name = "twin"


class CheatBot:
    """Passes in the placement phase, which is illegal."""

    name = "cheat"

    def choose(self, position: Position, rng: Random) -> Action:
        return Pass()


@pytest.fixture
def test_bots(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Registers ``first``, ``twin``, ``burner`` and ``cheat`` for the test (forked workers inherit them)."""
    for bot in (FirstBot, TwinBot, BurnerBot, CheatBot):
        monkeypatch.setitem(bot_registry._REGISTRY, bot.name, bot)
    yield


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, ["tournament", *args])


def game(index: int, lineup: tuple[str, ...], winners: tuple[int, ...], scores: tuple[int, ...]) -> GameResult:
    n = len(lineup)
    return GameResult(index, index, lineup, scores, winners, 100, (10,) * n, (0.01,) * n)


# -- wins and statistics -------------------------------------------------------------------------


def test_a_shared_win_counts_one_over_k() -> None:
    games = [
        game(0, ("a", "b", "a", "c"), (0, 1), (1, 1, 5, 7)),  # a and b share: 1/2 each
        game(1, ("b", "a", "c", "a"), (0, 2, 3), (2, 5, 2, 2)),  # b, c, a share: 1/3 each
        game(2, ("c", "a", "b", "a"), (2,), (9, 9, 1, 9)),  # b alone
    ]
    stats = {s.bot: s for s in summarize_bots(games)}
    assert list(stats) == ["a", "b", "c"]
    assert stats["a"].seat_games == 6
    assert stats["a"].wins == pytest.approx(1 / 2 + 1 / 3)
    assert stats["b"].wins == pytest.approx(1 / 2 + 1 / 3 + 1)
    assert stats["c"].wins == pytest.approx(1 / 3)
    assert sum(s.wins for s in stats.values()) == pytest.approx(len(games))
    assert stats["b"].win_rate == pytest.approx((1 / 2 + 1 / 3 + 1) / 3)
    # a sat in seats 0, 2 (game 0), 1, 3 (game 1) and 1, 3 (game 2)
    assert stats["a"].by_seat == ((1, 0.5), (2, 0.0), (1, 0.0), (2, pytest.approx(1 / 3)))
    assert stats["a"].mean_points == pytest.approx((1 + 5 + 5 + 2 + 9 + 9) / 6)
    assert stats["a"].ci_method == NORMAL  # fractional outcomes
    assert stats["c"].fair_share == 0.25
    seats = summarize_seats(games)
    assert [s.wins for s in seats] == pytest.approx([1 / 2 + 1 / 3, 1 / 2, 1 / 3 + 1, 1 / 3])
    assert seats[0].colour == "red"


def test_wins_of_real_games_follow_their_winners() -> None:
    result = run_tournament(TournamentConfig("hugo", ("random",) * 4, games=60, seed=3))
    assert any(len(g.winners) > 1 for g in result.games), "expected a shared win in 60 random games"
    (stats,) = result.bot_stats()
    assert stats.wins == pytest.approx(len(result.games))
    assert stats.seat_games == 4 * 60
    for g in result.games:
        assert sum(g.outcome(s) for s in range(4)) == pytest.approx(1)
        assert {s for s in range(4) if g.outcome(s) > 0} == set(g.winners)


def test_wilson_interval_on_known_values() -> None:
    assert wilson_interval(8, 10) == pytest.approx((0.4901625, 0.9433178), abs=1e-6)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775328), abs=1e-6)
    assert wilson_interval(50, 100) == pytest.approx((0.4038315, 0.5961685), abs=1e-6)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_normal_interval_on_known_values() -> None:
    # 50 zeros and 50 ones: mean 0.5, s = sqrt(25/99) = 0.502519, half-width 1.959964 · s / 10 = 0.098492
    assert normal_interval([0.0, 1.0] * 50) == pytest.approx((0.4015081, 0.5984919), abs=1e-6)
    # [0, 0.5, 1]: mean 0.5, s = 0.5, half-width 1.96 · 0.5 / sqrt(3) > 0.5: clipped
    assert normal_interval([0.0, 0.5, 1.0]) == (0.0, 1.0)
    assert normal_interval([0.25] * 4) == (0.25, 0.25)
    assert normal_interval([1.0]) == (0.0, 1.0)
    # other bounds (the bot ladder's scores against a deal's mean): [0, 0.5, 1] shifted by -2,
    # half-width 1.959964 · 0.5 / sqrt(3) = 0.565792, no longer clipped; clipped to the bounds only
    assert normal_interval([-2.0, -1.5, -1.0], bounds=(-5.0, 5.0)) == pytest.approx((-2.065792, -0.934208), abs=1e-6)
    assert normal_interval([-2.0, -1.5, -1.0], bounds=(-2.0, 0.0)) == pytest.approx((-2.0, -0.934208), abs=1e-6)
    assert deal_interval([[-2.0, -2.0], [-1.5], [-1.0, -1.0]], bounds=(-5.0, 5.0))[:2] == pytest.approx(
        (-2.065792, -0.934208), abs=1e-6
    )


def test_docstring_examples() -> None:
    result = doctest.testmod(tournament_module)
    assert result.attempted > 0
    assert result.failed == 0


def test_interval_uses_wilson_for_whole_wins_only() -> None:
    assert interval([1.0, 0.0, 0.0, 1.0]) == (*wilson_interval(2, 4), WILSON)
    assert interval([0.5, 0.0, 0.0, 1.0]) == (*normal_interval([0.5, 0.0, 0.0, 1.0]), NORMAL)


# -- lineups and seat rotation -------------------------------------------------------------------


def test_lineup_cycles_bots_and_seats_override() -> None:
    assert lineup_from(4, ["g", "r"]) == ("g", "r", "g", "r")
    assert lineup_from(3, ["g", "r"], {2: "m"}) == ("g", "r", "m")
    assert lineup_from(2, [], {0: "g", 1: "r"}) == ("g", "r")
    with pytest.raises(ValueError, match="no bot for seat"):
        lineup_from(3, [], {0: "g"})
    with pytest.raises(ValueError, match="only 2 players"):
        lineup_from(2, ["g"], {5: "r"})


@pytest.mark.parametrize(
    ("lineup", "games", "rotations", "total"),
    [
        (("a", "b", "c"), 7, 3, 9),
        (("a", "b", "a", "b"), 5, 2, 6),
        (("a", "b", "b", "c", "c"), 5, 5, 5),
        (("a", "a"), 3, 1, 3),
    ],
)
def test_every_bot_sits_in_every_seat_equally_often(
    lineup: tuple[str, ...], games: int, rotations: int, total: int
) -> None:
    config = TournamentConfig("hugo", tuple("random" for _ in lineup), games)  # names only matter below
    assert rotation_count(lineup) == rotations
    assert -(-games // rotations) * rotations == total
    assert config.total_games == -(-games // config.rotations) * config.rotations
    counts = Counter((lineup[(s + i % rotations) % len(lineup)], s) for i in range(total) for s in range(len(lineup)))
    for bot in set(lineup):
        per_seat = {counts[bot, s] for s in range(len(lineup))}
        assert len(per_seat) == 1, f"{bot} sits unevenly: {counts}"


def test_tournament_rotates_the_lineup(test_bots: None) -> None:
    config = TournamentConfig("hugo", ("first", "random", "random"), games=5, seed=1)
    assert (config.rotations, config.total_games) == (3, 6)
    result = run_tournament(config)
    assert [g.index for g in result.games] == list(range(6))
    assert [g.lineup for g in result.games] == [
        ("first", "random", "random"),
        ("random", "random", "first"),
        ("random", "first", "random"),
    ] * 2
    first, random_ = result.bot_stats()
    assert first.seat_games == 6 and random_.seat_games == 12
    assert [n for n, _ in first.by_seat] == [2, 2, 2]
    assert [n for n, _ in random_.by_seat] == [4, 4, 4]
    assert [s.games for s in result.seat_stats()] == [6, 6, 6]


# -- seeds and determinism ---------------------------------------------------------------------


def test_game_seeds_depend_on_seed_and_index_only() -> None:
    assert game_seed(0, 5) == game_seed(0, 5)
    assert len({game_seed(s, i) for s in range(5) for i in range(50)}) == 250
    assert 0 <= game_seed(12345, 678) < 2**48


def test_same_seed_same_results_with_any_number_of_processes() -> None:
    config = TournamentConfig("midnight-party", ("random",) * 3, games=30, seed=11)
    one = run_tournament(config, jobs=1)
    again = run_tournament(config, jobs=1)
    two = run_tournament(config, jobs=2)
    assert one == again == two
    assert [g.index for g in two.games] == list(range(30))
    assert one.to_dict()["bots"][0]["wins"] == two.to_dict()["bots"][0]["wins"]
    other = run_tournament(TournamentConfig("midnight-party", ("random",) * 3, games=30, seed=12))
    assert other != one


def test_progress_counts_every_game() -> None:
    config = TournamentConfig("hugo", ("random",) * 2, games=10)
    for jobs in (1, 2):
        seen: list[int] = []
        run_tournament(config, jobs=jobs, progress=seen.append)
        assert sum(seen) == 10


def test_bots_draw_from_their_own_random_source(test_bots: None) -> None:
    """A bot that draws many random numbers leaves the dice alone: same game as one that draws none."""
    for seed in range(5):
        quiet = play_game("hugo", ["first", "first", "first"], seed)
        noisy = play_game("hugo", ["burner", "burner", "burner"], seed)
        assert (quiet.scores, quiet.winners, quiet.actions) == (noisy.scores, noisy.winners, noisy.actions)


def test_a_game_seed_replays_as_ghostparty_play_plays_it() -> None:
    """The seed in the CSV file is a seed for ``ghostparty play``: its session rolls the
    game's die (``Game(seed=…)``) and gives each bot ``bot_rng(seed, seat)`` — the same game."""
    lineup = ("random", "random", "random")
    seed = game_seed(4, 2)
    result = play_game("hugo", lineup, seed)
    game = Game("hugo", 3, seed=seed)
    bots = [(make_bot(name), bot_rng(seed, seat)) for seat, name in enumerate(lineup)]
    while not game.is_over:
        if game.state.phase == "roll":
            game.roll()
        else:
            bot, rng = bots[game.state.to_move]
            game.push(bot.choose(game.state, rng))
    end = game.state
    assert (end.scores, end.winners, len(game.history)) == (result.scores, result.winners, result.actions)


# -- duplicate deals ---------------------------------------------------------------------------


def test_duplicate_deals_give_every_game_of_a_block_the_block_seed() -> None:
    plain = TournamentConfig("hugo", ("random", "random", "greedy"), games=9, seed=4)
    duplicate = TournamentConfig("hugo", ("random", "random", "greedy"), games=9, seed=4, duplicate=True)
    assert [plain.seed_of(i) for i in range(9)] == [game_seed(4, i) for i in range(9)]
    assert [duplicate.seed_of(i) for i in range(9)] == [game_seed(4, i // 3) for i in range(9)]
    assert (plain.deal_size, duplicate.deal_size) == (None, 3)
    assert [duplicate.lineup_of(i) for i in range(3)] == [plain.lineup_of(i) for i in range(3)]


def test_two_bots_that_play_alike_split_every_duplicate_deal_exactly(test_bots: None) -> None:
    """Same dice for both seats in turn: each deal's two games are the same game with the
    names swapped, so each bot wins exactly half of every deal and the interval over
    deals shrinks to a point; with a new seed per game it does not."""
    duplicate = run_tournament(TournamentConfig("hugo", ("first", "twin"), games=20, seed=6, duplicate=True))
    for a, b in zip(duplicate.games[::2], duplicate.games[1::2], strict=True):
        assert a.seed == b.seed and a.lineup == b.lineup[::-1]
        assert (a.scores, a.winners) == (b.scores, b.winners)
    for stats in duplicate.bot_stats():
        assert stats.win_rate == pytest.approx(0.5)
        assert (stats.ci_low, stats.ci_high, stats.ci_method) == (pytest.approx(0.5), pytest.approx(0.5), DEALS)
    plain = run_tournament(TournamentConfig("hugo", ("first", "twin"), games=20, seed=6))
    first = plain.bot_stats()[0]
    assert first.ci_method != DEALS and first.ci_high - first.ci_low > 0.3


def test_intervals_over_deals_average_each_deal_first() -> None:
    games = [
        game(0, ("a", "b"), (0,), (10, 20)),
        game(1, ("b", "a"), (1,), (20, 10)),  # deal 0: a wins both
        game(2, ("a", "b"), (1,), (30, 20)),
        game(3, ("b", "a"), (0, 1), (20, 20)),  # deal 1: a loses, then shares
        game(4, ("a", "b"), (0,), (10, 20)),
        game(5, ("b", "a"), (0,), (10, 20)),  # deal 2: a wins, then loses
    ]
    a, b = summarize_bots(games, deal_size=2)
    assert a.wins == pytest.approx(3.5) and a.seat_games == 6
    assert (a.ci_low, a.ci_high, a.ci_method) == deal_interval([[1, 1], [0, 0.5], [1, 0]])
    assert (a.ci_low, a.ci_high) != (summarize_bots(games)[0].ci_low, summarize_bots(games)[0].ci_high)
    assert b.ci_method == DEALS
    seats = summarize_seats(games, deal_size=2)
    assert (seats[0].ci_low, seats[0].ci_high, seats[0].ci_method) == deal_interval([[1, 0], [0, 0.5], [1, 1]])


def test_duplicate_on_the_command_line() -> None:
    result = run("--bots", "greedy,random", "--players", "2", "--games", "6", "--seed", "2", "--duplicate", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["duplicate"] is True and data["games"] == 6
    assert {b["ci_method"] for b in data["bots"]} == {s["ci_method"] for s in data["seats"]} == {DEALS}
    assert "Duplicate deals: each block of 2 games is played on one seed." in result.stderr
    table = run("--bots", "greedy,random", "--players", "2", "--games", "6", "--duplicate", "--jobs", "1")
    assert "duplicate deals" in table.output and "over 3 duplicate deals" in " ".join(table.output.split())
    assert json.loads(run("--bots", "random", "--games", "2", "--json").stdout)["duplicate"] is False


# -- failures --------------------------------------------------------------------------------


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failing_bot_names_game_seat_and_bot(test_bots: None, jobs: int) -> None:
    config = TournamentConfig("hugo", ("random", "cheat"), games=4, seed=2)
    with pytest.raises(TournamentError, match=r"game \d+ \(seed \d+\): bot 'cheat' in seat \d"):
        run_tournament(config, jobs=jobs)


def test_max_actions_guard() -> None:
    with pytest.raises(TournamentError, match="did not end within 20 actions"):
        run_tournament(TournamentConfig("hugo", ("random",) * 2, games=2, max_actions=20))


def test_config_validates() -> None:
    with pytest.raises(ValueError, match="unknown bot 'nosuch'"):
        TournamentConfig("hugo", ("random", "nosuch"), games=1)
    with pytest.raises(ValueError, match="unknown rule set"):
        TournamentConfig("chess", ("random", "random"), games=1)
    with pytest.raises(ValueError, match="2 to 8 seats"):
        TournamentConfig("hugo", ("random",), games=1)
    with pytest.raises(ValueError, match="at least 1"):
        TournamentConfig("hugo", ("random",) * 2, games=0)


# -- the command ---------------------------------------------------------------------------------


def test_unknown_bot_is_a_clear_usage_error() -> None:
    result = run("--bots", "random,nosuch", "--games", "1", "--jobs", "1")
    assert result.exit_code == 2
    assert f"unknown bot 'nosuch': expected one of {', '.join(bot_names())}" in result.output
    result = run("--seat", "0=random", "--seat", "blue=nosuch", "--games", "1")
    assert result.exit_code == 2
    assert "unknown bot 'nosuch'" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "name the bots with --bots or --seat"),
        (("--seat", "0=random"), "no bot for seat(s) 1"),
        (("--players", "2", "--bots", "random", "--seat", "3=random"), "only 2 players"),
        (("--seat", "9=random"), "is not a seat"),
        (("--seat", "random"), "expected SEAT=BOT"),
        (("--bots", "random,,random"), "separated by commas"),
    ],
)
def test_bad_lineups_are_usage_errors(args: tuple[str, ...], message: str) -> None:
    result = run(*args, "--games", "1", "--jobs", "1")
    assert result.exit_code == 2, result.output
    assert message in result.output


def test_table_output() -> None:
    result = run("--bots", "random", "--seat", "0=random", "--players", "3", "--games", "5", "--jobs", "1")
    assert result.exit_code == 0, result.output
    out = result.output
    for text in ("hugo, 3 players, 5 games, seed 0", "95% CI", "fair share", "ms/move", "by seat", "0 red"):
        assert text in out
    assert "games/s on 1 process(es); this machine has" in out


def test_games_are_rounded_up_to_whole_rotations() -> None:
    result = run("--seat", "0=random", "--seat", "1=random", "--seat", "2=random", "--games", "4", "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert "3 players" in result.output  # players from the seats named
    result = run("--seat", "0=random", "--bots", "random", "--games", "3", "--jobs", "1", "--json")
    assert json.loads(result.stdout)["games"] == 3  # one rotation: nothing to round


def test_json_output(test_bots: None) -> None:
    result = run("--bots", "first,random", "--games", "3", "--seed", "5", "--jobs", "1", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)  # progress and notes go to stderr
    assert "rounded up to 4" in result.stderr
    assert data["games_requested"] == 3 and data["games"] == 4 and data["rotations"] == 2
    assert data["lineup"] == ["first", "random", "first", "random"]
    assert {"rules", "players", "seed", "jobs", "cores", "seconds", "games_per_second", "bots", "seats"} <= set(data)
    bots = {b["bot"]: b for b in data["bots"]}
    assert set(bots) == {"first", "random"}
    for b in bots.values():
        assert b["seat_games"] == 8
        assert b["ci_low"] <= b["win_rate"] <= b["ci_high"]
        assert b["fair_share"] == 0.25
        assert b["ci_method"] in (WILSON, NORMAL)
        assert {"wins", "above_fair", "below_fair", "mean_points", "ms_per_decision", "by_seat"} <= set(b)
        assert [s["seat_games"] for s in b["by_seat"]] == [2, 2, 2, 2]
    assert sum(b["wins"] for b in bots.values()) == pytest.approx(4)
    assert [s["seat"] for s in data["seats"]] == [0, 1, 2, 3]
    assert sum(s["wins"] for s in data["seats"]) == pytest.approx(4)


def test_json_is_the_same_with_any_jobs() -> None:
    outputs = []
    for jobs in ("1", "2"):
        result = run("--bots", "random", "--players", "2", "--games", "12", "--seed", "9", "--jobs", jobs, "--json")
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        for key in ("seconds", "games_per_second", "jobs"):
            del data[key]
        for bot in data["bots"]:
            del bot["ms_per_decision"]
        outputs.append(data)
    assert outputs[0] == outputs[1]


def test_csv_has_one_row_per_game(tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    result = run("--bots", "random", "--players", "3", "--games", "7", "--jobs", "2", "--csv", str(path))
    assert result.exit_code == 0, result.output
    assert f"Wrote 7 games to {path}" in result.output.replace("\n", "")
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    assert rows[0] == csv_header(3)
    assert rows[0][:5] == ["game", "seed", "rotation", "bot_0", "bot_1"]
    assert {"score_2", "winners", "actions", "decisions_0", "think_ms_2"} <= set(rows[0])
    body = [dict(zip(rows[0], row, strict=True)) for row in rows[1:]]
    assert [int(r["game"]) for r in body] == list(range(7))
    for r in body:
        assert int(r["seed"]) == game_seed(0, int(r["game"]))
        assert r["bot_0"] == "random"
        assert r["winners"] and all(0 <= int(s) < 3 for s in r["winners"].split())
        assert int(r["actions"]) > 0 and float(r["think_ms_0"]) >= 0


def test_bot_specs_with_options_are_accepted_and_bad_options_rejected() -> None:
    result = run("--bots", "greedy,expectimax:depth=1", "--players", "2", "--games", "2", "--jobs", "1", "--json")
    assert result.exit_code == 0, result.output
    assert "expectimax:depth=1" in result.output
    result = run("--bots", "greedy,expectimax:depth=0", "--players", "2", "--games", "2", "--jobs", "1")
    assert result.exit_code == 2
    assert "depth must be a whole number of at least 1" in result.output
    result = run("--bots", "greedy,mcts:colour=blue", "--players", "2", "--games", "2", "--jobs", "1")
    assert result.exit_code == 2
    assert "bad options for bot 'mcts'" in result.output


def test_bot_options_stay_with_their_bot_in_a_list() -> None:
    from ghostparty.cli.tournament import parse_bots

    assert parse_bots("expectimax:depth=3,beam=2, greedy") == ["expectimax:depth=3,beam=2", "greedy"]
    assert parse_bots("random,mcts:iterations=5") == ["random", "mcts:iterations=5"]
