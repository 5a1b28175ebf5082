"""The browser client's pure modules under Node.js: ``node --test tests/js/`` (the game
page's reducer, js/table/state.js, and the board's layout, js/table/layout.js), so that CI runs them
with the rest. Skipped, with a message, where ``node`` is not installed."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from ghostparty.rules import RULESETS
from ghostparty.server.wire.codec import board_view

TESTS = Path(__file__).parent / "js"


def test_the_client_modules_pass_their_node_tests(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed: the client's tests/js/*.test.mjs need `node --test` (Node 20 or later)")
    files = sorted(TESTS.glob("*.test.mjs"))
    assert files, f"no tests/js/*.test.mjs found in {TESTS}"
    boards = tmp_path / "boards.json"  # what GET /api/boards/{rules} answers, for layout.test.mjs
    boards.write_text(json.dumps({rules: board_view(rules) for rules in RULESETS}), encoding="utf-8")
    env = {**os.environ, "GHOSTPARTY_BOARDS": str(boards)}
    command = [node, "--test", *map(str, files)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False, env=env)
    assert done.returncode == 0, f"node --test failed:\n{done.stdout[-4000:]}\n{done.stderr[-2000:]}"
    passed = re.search(r"^# pass (\d+)$", done.stdout, re.MULTILINE)
    assert passed and int(passed.group(1)) > 0, f"node ran no test:\n{done.stdout[-2000:]}"
    assert re.search(r"^# skipped 0$", done.stdout, re.MULTILINE), f"node skipped tests:\n{done.stdout[-2000:]}"


#: The longest a client module may be without saying at its top why (issue 24).
MAX_LINES = 400
CLIENT = Path(__file__).parent.parent / "src" / "ghostparty" / "web" / "static" / "js"


def test_no_client_module_is_over_400_lines_without_a_reason_at_its_top() -> None:
    modules = sorted(CLIENT.rglob("*.js"))
    assert len(modules) > 20, f"expected the client's modules under {CLIENT}"
    long = []
    for path in modules:
        lines = path.read_text(encoding="utf-8").splitlines()
        head = "\n".join(lines[:30])
        if len(lines) > MAX_LINES and "Over 400 lines:" not in head:
            long.append(f"{path.relative_to(CLIENT)} ({len(lines)} lines)")
    assert not long, f"split these by job, or say why at the top ('Over 400 lines: …'): {', '.join(long)}"


#: Which folders of the client each folder may import from (docs/ARCHITECTURE.md): a page
#: entry imports anything and nothing imports it; the parts lean on ``table`` and ``lib``.
MAY_IMPORT = {
    "pages": {"lib", "table", "chat", "lobby", "account", "replay", "tournament", "analysis", "puzzles"},
    "lib": {"lib"},
    "table": {"table", "lib"},
    "lobby": {"lobby", "lib"},
    "chat": {"chat", "table", "lib"},
    "replay": {"replay", "table", "lib"},
    "tournament": {"tournament", "table", "lib"},
    "account": {"account", "chat", "lib"},
    "analysis": {"analysis", "replay", "table", "lib"},
    "puzzles": {"puzzles", "analysis", "replay", "table", "lib"},
}
IMPORT = re.compile(r"""^\s*(?:import|export)\b[^"';]*?["'](\.{1,2}/[^"']+)["']""", re.MULTILINE)


def test_the_client_modules_sit_in_their_folders_and_import_one_way() -> None:
    modules = sorted(CLIENT.rglob("*.js"))
    loose = [path.name for path in modules if path.parent == CLIENT]
    assert loose == [], f"every client module belongs in a folder under js/: {loose}"
    wrong = []
    for path in modules:
        folder = path.relative_to(CLIENT).parts[0]
        assert folder in MAY_IMPORT, f"js/{folder}/ is not a known folder of the client (MAY_IMPORT)"
        for name in IMPORT.findall(path.read_text(encoding="utf-8")):
            target = (path.parent / name).resolve()
            assert target.is_file(), f"{path.relative_to(CLIENT)} imports {name}, which is missing"
            other = target.relative_to(CLIENT.resolve()).parts[0]
            if other not in MAY_IMPORT[folder]:
                wrong.append(f"{path.relative_to(CLIENT)} -> {target.relative_to(CLIENT.resolve())}")
    assert wrong == [], f"imports against the client's layout: {wrong}"
