"""Recorded fingerprints of seeded random games, to prove that a change of the engine
changes no behaviour.

Each game is played from a seed (random decisions, the real die) and fingerprinted
step by step: the legal actions in order, the action chosen, the events it caused and
the position after it as a FORMAT.md dict. ``data/golden_games.json`` holds, per rule
set and player count, one digest per game; it was written by the engine as it stood
before the typed-action and speed work of issue 16 (items 3 and 7) and must never be
regenerated to make a test pass. Regenerate it only for a deliberate change of the
rules, with ``python -m tests.rules.golden`` from the repository's root.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from random import Random

from ghostparty.rules import OVER, ROLL, Event, apply, legal_actions, ruleset, start_position
from ghostparty.rules.actions import DIE_FACES
from ghostparty.rules.notation import action_to_dict, position_to_dict

DATA = Path(__file__).with_name("data") / "golden_games.json"
CONFIGS = tuple((rules, players) for rules in ("hugo", "midnight-party") for players in (2, 4, 8))
GAMES = 2000


def game_digest(rules: str, players: int, seed: int) -> str:
    """The fingerprint of one seeded random game (12 hex digits of a SHA-256)."""
    rng = Random(f"{rules}/{players}/{seed}")
    position = start_position(ruleset(rules), players, seed % players)
    digest = hashlib.sha256(json.dumps(position_to_dict(position), sort_keys=True).encode())
    while position.phase != OVER:
        if position.phase == ROLL:
            action = DIE_FACES[int(rng.random() * 6)]
        else:
            actions = legal_actions(position)
            digest.update(json.dumps([action_to_dict(a) for a in actions]).encode())
            action = actions[int(rng.random() * len(actions))]
        events: list[Event] = []
        position = apply(position, action, events)
        digest.update(json.dumps(action_to_dict(action)).encode())
        digest.update(repr(events).encode())
        digest.update(json.dumps(position_to_dict(position), sort_keys=True).encode())
    return digest.hexdigest()[:12]


def digests(rules: str, players: int, seeds: range) -> list[str]:
    return [game_digest(rules, players, seed) for seed in seeds]


def main() -> None:
    recorded = {f"{rules}/{players}": digests(rules, players, range(GAMES)) for rules, players in CONFIGS}
    DATA.parent.mkdir(exist_ok=True)
    DATA.write_text(json.dumps(recorded, indent=0) + "\n")
    print(f"wrote {DATA}: {len(CONFIGS)} configurations × {GAMES} games")


if __name__ == "__main__":
    main()
