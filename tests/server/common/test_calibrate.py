"""The bots' anchored ratings: measured the same way for a seed, however many processes."""

from __future__ import annotations

import pytest

from ghostparty.server.common.calibrate import calibrate, lineup_of
from ghostparty.server.common.ratings import BOT_LEVELS, MU, bot_anchors, shown


def test_lineups_seat_two_to_four_distinct_levels() -> None:
    for index in range(50):
        lineup = lineup_of(7, index)
        assert 2 <= len(lineup) <= 4 and len(set(lineup)) == len(lineup) and set(lineup) <= set(BOT_LEVELS)
    assert lineup_of(7, 3) == lineup_of(7, 3)


def test_calibration_anchors_greedy_and_ranks_random_below_it() -> None:
    one = calibrate("hugo", 24, seed=3, jobs=1, levels=("random", "greedy"))
    two = calibrate("hugo", 24, seed=3, jobs=2, levels=("random", "greedy"))
    assert one == two
    assert one.ratings["greedy"].mu == pytest.approx(MU)
    assert one.played == {"random": 24, "greedy": 24}
    assert shown(one.ratings["random"].mu) < 1500
    with pytest.raises(ValueError):
        calibrate("hugo", 1, levels=("random", "mcts"))


def test_every_level_has_an_anchor_in_both_rule_sets() -> None:
    anchors = bot_anchors()
    for rules in ("hugo", "midnight-party"):
        assert set(anchors[rules]) == set(BOT_LEVELS)
        assert anchors[rules]["greedy"].mu == pytest.approx(MU, abs=0.01)
        assert anchors[rules]["random"].mu < MU
