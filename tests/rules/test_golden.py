"""No change of behaviour: seeded random games match the fingerprints recorded before
the engine was reworked (see :mod:`.golden`).

By default every 8th recorded game of each configuration is replayed (1,500 games);
``GHOSTPARTY_GOLDEN=all`` replays all 12,000, ``GHOSTPARTY_GOLDEN=64`` every 64th (the
mutation testing's choice, docs/MUTATION.md: it replays them once per mutant).
"""

from __future__ import annotations

import json
import os

import pytest

from .golden import CONFIGS, DATA, GAMES, digests

_CHOICE = os.environ.get("GHOSTPARTY_GOLDEN", "")
STRIDE = 1 if _CHOICE == "all" else int(_CHOICE) if _CHOICE.isdigit() and int(_CHOICE) > 0 else 8


@pytest.mark.parametrize(("rules", "players"), CONFIGS, ids=[f"{r}-{p}p" for r, p in CONFIGS])
def test_games_match_recorded_fingerprints(rules: str, players: int) -> None:
    recorded = json.loads(DATA.read_text())[f"{rules}/{players}"]
    assert len(recorded) == GAMES
    seeds = range(0, GAMES, STRIDE)
    played = digests(rules, players, seeds)
    wrong = [seed for seed, digest in zip(seeds, played, strict=True) if digest != recorded[seed]]
    assert not wrong, f"{len(wrong)} of {len(seeds)} {rules} {players}-player games differ, first seed {wrong[0]}"
