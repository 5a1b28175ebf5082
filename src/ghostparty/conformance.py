"""Run FORMAT.md's conformance scenarios against the JSON interface.

A scenario is a position and a list of steps (``apply``, ``illegal``, ``legal``,
``legal_includes``, ``expect``, ``invalid``). :func:`run_scenario` runs one and returns
what failed; :func:`load_scenarios` collects files from paths.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ghostparty.rules.errors import IllegalAction, InvalidPosition
from ghostparty.rules.game import Game


@dataclass
class Failure:
    """One failing step: its index (``None`` for the scenario as a whole) and why."""

    step: int | None
    reason: str


@dataclass
class ScenarioResult:
    id: str
    source: str
    failures: list[Failure] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


def load_scenarios(paths: Iterable[str | Path]) -> Iterator[tuple[str, Any]]:
    """Yield ``(source, data)`` for every ``*.json`` file named or inside a named folder.

    A file that is not valid JSON yields ``(source, error)`` with the
    :class:`ValueError` in place of data.
    """
    for path in map(Path, paths):
        files = sorted(path.glob("*.json")) if path.is_dir() else [path]
        for file in files:
            try:
                yield str(file), json.loads(file.read_text(encoding="utf-8"))
            except (OSError, ValueError) as error:
                yield str(file), ValueError(f"cannot read {file}: {error}")


def _key(action: Any) -> str:
    return json.dumps(action, sort_keys=True)


def _same_guests(expected: Any, actual: list[list[str]]) -> bool:
    if not isinstance(expected, list) or len(expected) != len(actual):
        return False
    return all(
        isinstance(e, list) and Counter(map(str, e)) == Counter(a) for e, a in zip(expected, actual, strict=False)
    )


def run_scenario(data: Any, source: str = "<scenario>") -> ScenarioResult:
    """Run one scenario (a parsed JSON object) and report every failing step."""
    if isinstance(data, Exception):
        return ScenarioResult(source, source, [Failure(None, str(data))])
    if not isinstance(data, Mapping) or "position" not in data or not isinstance(data.get("steps"), list):
        return ScenarioResult(
            source, source, [Failure(None, "not a scenario: expected an object with position and steps")]
        )
    result = ScenarioResult(str(data.get("id", source)), source)
    fail = result.failures.append
    steps: list[Any] = data["steps"]

    if any(isinstance(step, Mapping) and "invalid" in step for step in steps):
        try:
            Game.from_position(data["position"])
        except InvalidPosition:
            pass
        except Exception as error:
            fail(Failure(0, f"expected InvalidPosition, got {type(error).__name__}: {error}"))
        else:
            fail(Failure(0, "expected InvalidPosition, but the position was accepted"))
        return result

    try:
        game = Game.from_position(data["position"])
    except Exception as error:
        fail(Failure(None, f"position rejected: {type(error).__name__}: {error}"))
        return result

    for index, step in enumerate(steps):
        if not isinstance(step, Mapping) or len(step) != 1:
            fail(Failure(index, f"malformed step {step!r}"))
            continue
        ((kind, arg),) = step.items()
        try:
            reason = _run_step(game, kind, arg)
        except Exception as error:
            reason = f"crashed: {type(error).__name__}: {error}"
        if reason:
            fail(Failure(index, f"{kind} {json.dumps(arg)}: {reason}"))
    return result


def _run_step(game: Game, kind: str, arg: Any) -> str | None:
    if kind == "apply":
        try:
            game.apply(arg)
        except IllegalAction as error:
            return f"rejected: {error}"
        return None
    if kind == "illegal":
        before = game.position()
        try:
            game.apply(arg)
        except IllegalAction:
            after = game.position()
            return None if after == before else "raised IllegalAction but changed the position"
        return "was accepted"
    if kind in ("legal", "legal_includes"):
        actual = {_key(a) for a in game.legal_actions()}
        wanted = {_key(a) for a in arg}
        missing = sorted(wanted - actual)
        extra = sorted(actual - wanted) if kind == "legal" else []
        if missing or extra:
            parts = [f"missing {', '.join(missing)}"] if missing else []
            parts += [f"unexpected {', '.join(extra)}"] if extra else []
            return "; ".join(parts)
        return None
    if kind == "expect":
        position = game.position()
        wrong = []
        for name, value in arg.items():
            if name not in position:
                wrong.append(f"{name}: no such field")
            elif name == "guests":
                if not _same_guests(value, position["guests"]):
                    wrong.append(f"guests: expected {value}, got {position['guests']}")
            elif position[name] != value:
                wrong.append(f"{name}: expected {json.dumps(value)}, got {json.dumps(position[name])}")
        return "; ".join(wrong) or None
    return f"unknown step kind {kind!r}"
