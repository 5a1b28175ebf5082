"""examples/reinforce_online.py plays its trained policy online to the end of a game,
against another bot account met in quick-match."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ghostparty.connect import Client, load_policy
from tests.fixtures.botapi import bot_account

from .test_connect_live import base, in_thread  # noqa: F401  (the live server fixture)

ROOT = Path(__file__).resolve().parents[2]


def test_the_reinforce_policy_plays_online(base: str, tmp_path: Path) -> None:  # noqa: F811
    pytest.importorskip("pettingzoo", reason="the rl extra is not installed")
    scopes = ("bot:play", "play")
    opponent = Client(base, bot_account(base, "Greedy1", scopes), load_policy("greedy"), queue="hugo")
    thread = in_thread(opponent, 1)
    weights = tmp_path / "weights.json"
    command = [
        sys.executable,
        str(ROOT / "examples" / "reinforce_online.py"),
        *("--server", base, "--token", bot_account(base, "Learner", scopes)),
        *("--episodes", "30", "--games", "1", "--quick-match", "--save", str(weights)),
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(command, check=False, env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "trained on 30 games" in done.stdout and weights.is_file()
    assert " over: seat " in done.stderr, done.stderr[-2000:]
    thread.join(timeout=30)
    assert opponent.finished == 1
