"""What every store of puzzles promises (:class:`~ghostparty.server.puzzles.store.PuzzleStore`),
held against each one: :class:`MemoryPuzzles`, and :class:`SqlPuzzles` on a SQLite file and
on PostgreSQL (the ``keeper`` fixture)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

import pytest

from ghostparty.server.puzzles.ratings import START, Glicko
from ghostparty.server.puzzles.store import PuzzleRecord, PuzzleStore, StoredPuzzle
from ghostparty.server.stores import SqlStores
from tests.fixtures.stores import new_player
from tests.server.tables.test_store_contract import race

if TYPE_CHECKING:
    from tests.fixtures.stores import Domains

T0 = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)


def made(puzzle_id: str, rating: float, rules: str = "hugo", themes: tuple[str, ...] = ()) -> StoredPuzzle:
    position = {"phase": "move", "to_move": 0, "roll": 3}
    whole = {"id": puzzle_id, "themes": list(themes), "answer": {"action": {"pass": True}}}
    return StoredPuzzle(puzzle_id, rules, 2, position, whole, Glicko(rating, 350.0, 0.06), themes=themes)


def plus(player: Glicko, puzzle: Glicko, solved: bool) -> tuple[Glicko, Glicko]:
    """A stand-in for Glicko-2: ±10 to the winner and loser."""
    step = 10.0 if solved else -10.0
    return (
        Glicko(player.rating + step, player.rd - 1, player.vol),
        Glicko(puzzle.rating - step, puzzle.rd - 1, puzzle.vol),
    )


@pytest.fixture
def puzzles(keeper: Domains) -> PuzzleStore:
    store: PuzzleStore = keeper.puzzles
    store.add(
        [
            made("p1200", 1200.0, themes=("hides",)),
            made("p1400", 1400.0, themes=("hides", "expels")),
            made("p1450a", 1450.0),
            made("p1450b", 1450.0, themes=("expels",)),
            made("p1700", 1700.0, themes=("hides",)),
            made("m1500", 1500.0, rules="midnight-party", themes=("ends-round",)),
        ],
        T0,
    )
    return store


def ids(store: PuzzleStore, **asked: object) -> list[str]:
    """Every puzzle a guest is given in turn, each after the one before, until it comes round."""
    seen: list[str] = []
    after = None
    for _ in range(10):
        found = store.next_puzzle(asked.get("rules"), asked.get("theme"), lowest=1400.0, after=after)  # type: ignore[arg-type]
        if found is None or found.id in seen:
            break
        seen.append(found.id)
        after = found.id
    return seen


def test_puzzles_added_are_read_back_and_repeats_are_skipped(puzzles: PuzzleStore) -> None:
    assert puzzles.count() == 6
    assert puzzles.puzzle("p1400") == made("p1400", 1400.0, themes=("hides", "expels"))
    assert puzzles.puzzle("nope") is None
    again = [made("p1400", 999.0), made("new", 1000.0), made("new", 1100.0)]
    assert puzzles.add(again, T0) == 1
    assert puzzles.count() == 7
    assert puzzles.puzzle("p1400").rating.rating == 1400.0  # type: ignore[union-attr]
    assert puzzles.puzzle("new").rating.rating == 1000.0  # type: ignore[union-attr]


def test_a_guest_goes_up_in_rating_and_id_order_from_the_lowest_bound_and_wraps(puzzles: PuzzleStore) -> None:
    assert ids(puzzles, rules="hugo") == ["p1400", "p1450a", "p1450b", "p1700", "p1200"]
    assert ids(puzzles) == ["p1400", "p1450a", "p1450b", "m1500", "p1700", "p1200"]
    assert ids(puzzles, rules="hugo", theme="hides") == ["p1400", "p1700", "p1200"]
    assert ids(puzzles, rules="midnight-party") == ["m1500"]
    assert ids(puzzles, rules="hugo", theme="ends-round") == []
    unknown = puzzles.next_puzzle("hugo", None, lowest=1400.0, after="gone")
    assert unknown is not None and unknown.id == "p1400"


def test_an_account_gets_the_unattempted_puzzle_nearest_its_rating(keeper: Domains, puzzles: PuzzleStore) -> None:
    ann = new_player(keeper, "Ann", T0)
    nearest = puzzles.next_puzzle("hugo", None, lowest=1350.0, player_id=ann)
    assert nearest is not None and nearest.id == "p1400"
    puzzles.attempt("p1400", ann, True, T0, plus)
    puzzles.attempt("p1450a", ann, False, T0, plus)
    found = puzzles.next_puzzle("hugo", None, lowest=1350.0, player_id=ann)
    assert found is not None and found.id == "p1450b"
    for done in ("p1450b", "p1700"):
        puzzles.attempt(done, ann, True, T0, plus)
    wrapped = puzzles.next_puzzle("hugo", None, lowest=1350.0, player_id=ann)
    assert wrapped is not None and wrapped.id == "p1200"
    puzzles.attempt("p1200", ann, True, T0, plus)
    assert puzzles.next_puzzle("hugo", None, lowest=1350.0, player_id=ann) is None
    other = puzzles.next_puzzle("hugo", None, lowest=1350.0, player_id=new_player(keeper, "Bob", T0))
    assert other is not None and other.id == "p1400"


def test_only_the_first_attempt_of_an_account_changes_anything(keeper: Domains, puzzles: PuzzleStore) -> None:
    ann = new_player(keeper, "Ann", T0)
    assert puzzles.record(ann) == PuzzleRecord()
    rated = puzzles.attempt("p1400", ann, False, T0, plus)
    assert rated is not None
    assert (rated.player_before, rated.puzzle_before) == (START, Glicko(1400.0, 350.0, 0.06))
    assert rated.player_after.rating == 1490.0 and rated.puzzle_after.rating == 1410.0 and rated.streak == 0
    after_first = (puzzles.record(ann), puzzles.puzzle("p1400"))
    assert puzzles.attempt("p1400", ann, True, T0, plus) is None
    assert puzzles.attempt("p1400", ann, False, T0, plus) is None
    assert (puzzles.record(ann), puzzles.puzzle("p1400")) == after_first
    record = puzzles.record(ann)
    assert (record.rating.rating, record.attempts, record.solved) == (1490.0, 1, 0)
    kept = puzzles.puzzle("p1400")
    assert kept is not None and (kept.rating.rating, kept.attempts, kept.solved) == (1410.0, 1, 0)


def test_streaks_count_puzzles_solved_in_a_row_and_the_best_is_kept(keeper: Domains, puzzles: PuzzleStore) -> None:
    ann = new_player(keeper, "Ann", T0)
    results = [("p1200", True), ("p1400", True), ("p1450a", False), ("p1450b", True)]
    streaks = [puzzles.attempt(p, ann, ok, T0, plus).streak for p, ok in results]  # type: ignore[union-attr]
    assert streaks == [1, 2, 0, 1]
    record = puzzles.record(ann)
    assert (record.attempts, record.solved, record.streak, record.best_streak) == (4, 3, 1, 2)
    assert record.rating.rating == 1500.0 + 10 + 10 - 10 + 10


def test_attempts_at_once_rate_once_per_account_and_lose_no_update(keeper: Domains, puzzles: PuzzleStore) -> None:
    ann = new_player(keeper, "Ann", T0)
    once = race(6, lambda i: puzzles.attempt("p1700", ann, True, T0, plus))
    assert sum(r is not None for r in once) == 1
    players = [new_player(keeper, f"P{n}", T0) for n in range(5)]
    rated = race(5, lambda i: puzzles.attempt("p1200", players[i], False, T0, plus))
    assert all(r is not None for r in rated)
    kept = puzzles.puzzle("p1200")
    assert kept is not None and (kept.rating.rating, kept.attempts, kept.solved) == (1250.0, 5, 0)


def test_the_daily_puzzle_is_picked_once_a_day_and_not_again_while_others_are_left(puzzles: PuzzleStore) -> None:
    first = puzzles.daily("2026-12-01", 3)
    assert first is not None and puzzles.daily("2026-12-01", 0) == first
    days = [puzzles.daily(f"2026-12-{n:02}", 3) for n in range(2, 7)]
    assert len({first.id, *(d.id for d in days if d is not None)}) == 6  # every puzzle once
    again = puzzles.daily("2026-12-07", 3)
    assert again is not None


def test_a_daily_puzzle_asked_for_at_once_is_one(puzzles: PuzzleStore) -> None:
    found = race(5, lambda i: puzzles.daily("2026-12-24", i))
    assert len({f.id for f in found if f is not None}) == 1


def test_no_puzzles_no_daily_and_no_next(keeper: Domains) -> None:
    assert keeper.puzzles.daily("2026-12-01", 0) is None
    assert keeper.puzzles.next_puzzle(None, None, lowest=0.0) is None
    assert keeper.puzzles.themes() == []


def test_themes_are_counted_commonest_first(puzzles: PuzzleStore) -> None:
    assert puzzles.themes() == [("hides", 3), ("expels", 2), ("ends-round", 1)]


def test_a_deleted_account_leaves_no_puzzle_rating_nor_attempts(keeper: Domains, puzzles: PuzzleStore) -> None:
    if not isinstance(keeper, SqlStores):
        pytest.skip("a memory store's server keeps no accounts")
    ann = new_player(keeper, "Ann", T0)
    puzzles.attempt("p1400", ann, True, T0, plus)
    keeper.accounts.delete_player(ann)
    assert puzzles.record(ann) == PuzzleRecord()
    found = puzzles.next_puzzle("hugo", None, lowest=1350.0, player_id=ann)
    assert found is not None and found.id == "p1400"


def test_the_next_puzzle_is_one_range_read_of_the_rating_index(sqlite_url: str) -> None:
    from sqlalchemy import text

    stores = SqlStores.open(sqlite_url)
    try:
        with stores.database.engine.connect() as conn:
            query = (
                "SELECT id FROM gp_puzzles p WHERE rules = 'hugo' AND rating >= 1400 AND NOT EXISTS "
                "(SELECT 1 FROM gp_puzzle_attempts a WHERE a.puzzle_id = p.id AND a.player_id = 1) "
                "ORDER BY rating, id LIMIT 1"
            )
            plan = " | ".join(str(row[3]) for row in conn.execute(text("EXPLAIN QUERY PLAN " + query)))
    finally:
        stores.close()
    assert "INDEX ix_gp_puzzles_rules_rating (rules=? AND rating>?)" in plan, plan
    assert "TEMP B-TREE" not in plan, plan  # no sort: the index's order
