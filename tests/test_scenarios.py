"""Every conformance scenario (FORMAT.md, Scenarios) as one test case.

The shared scenarios live in ``shared/scenarios/`` beside the repository; the project's
own in ``tests/scenarios/``. The runner itself is tested too: a scenario that is wrong
must be reported as failing, or a broken runner would pass everything.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from ghostparty.conformance import load_scenarios, run_scenario

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "scenarios"
OWN = ROOT / "tests" / "scenarios"
STEP_KINDS = {"apply", "illegal", "legal", "legal_includes", "expect", "invalid"}


def _files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def _params(folder: Path, label: str) -> list[Any]:
    files = _files(folder)
    if not files:
        reason = f"no scenarios: {folder} is absent or empty (the {label} scenarios are read from there)"
        return [pytest.param(None, id=f"{label}-missing", marks=pytest.mark.skip(reason=reason))]
    return [pytest.param(path, id=f"{label}/{path.stem}") for path in files]


def _run(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    result = run_scenario(data, str(path))
    reasons = "\n".join(f"  step {f.step}: {f.reason}" for f in result.failures)
    assert result.passed, f"{path.name} ({result.id}) failed:\n{reasons}"


@pytest.mark.parametrize("path", _params(SHARED, "shared"))
def test_shared_scenario(path: Path) -> None:
    _run(path)


@pytest.mark.parametrize("path", _params(OWN, "own"))
def test_own_scenario(path: Path) -> None:
    _run(path)


# -- the project's own scenarios are well formed -------------------------------------------


def test_own_scenarios_are_many_and_named_and_unique() -> None:
    files = _files(OWN)
    assert len(files) >= 12
    ids = []
    for path in files:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert set(data) == {"id", "rules", "description", "position", "steps"}, path.name
        assert path.stem[:2].isdigit() and path.stem[2] == "-", f"{path.name}: expected NN-description.json"
        assert data["rules"] and all(r.startswith("§") or r == "FORMAT.md" for r in data["rules"]), path.name
        assert len(data["description"]) > 40, path.name
        assert data["steps"], path.name
        for step in data["steps"]:
            assert len(step) == 1 and set(step) <= STEP_KINDS, f"{path.name}: bad step {step}"
        if any("invalid" in step for step in data["steps"]):
            assert data["steps"] == [{"invalid": True}], f"{path.name}: invalid must be the only step"
        ids.append(data["id"])
    shared_ids = [json.loads(p.read_text(encoding="utf-8"))["id"] for p in _files(SHARED)]
    assert len(set(ids)) == len(ids), "duplicate ids among tests/scenarios"
    assert not set(ids) & set(shared_ids), "an own scenario reuses a shared scenario's id"


# -- the runner catches wrong scenarios --------------------------------------------------------

BASE: dict[str, Any] = {
    "id": "runner-self-test",
    "rules": ["§3.1"],
    "description": "a 1 for seat 0 in a 2-player hugo game with Hugo on G20: only G3 stands on a door",
    "position": {
        "format": "hugo-position/1",
        "rules": "hugo",
        "players": 2,
        "first_player": 0,
        "round": 1,
        "phase": "roll",
        "to_move": 0,
        "roll": None,
        "clock": "24:00",
        "hugo": "G20",
        "scores": [10, 10],
        "round_scores": [],
        "guests": [["G1", "G3", "G5", "G7", "G9", "G11"], ["G2", "G4", "G6", "G8", "G10", "G12"]],
        "place_queue": [],
        "winners": [],
    },
    "steps": [
        {"apply": {"roll": 1}},
        {
            "legal": [
                {"from": "G1", "to": "G2"},
                {"from": "G3", "to": "G4"},
                {"from": "G3", "to": "R:fireplace"},
                {"from": "G5", "to": "G6"},
                {"from": "G7", "to": "G8"},
                {"from": "G9", "to": "G10"},
                {"from": "G11", "to": "G12"},
            ]
        },
        {"apply": {"from": "G7", "to": "G8"}},
        {
            "expect": {
                "phase": "roll",
                "to_move": 1,
                "guests": [["G11", "G9", "G8", "G5", "G3", "G1"], ["G2", "G4", "G6", "G8", "G10", "G12"]],
            }
        },
    ],
}


def _with_steps(steps: list[Any]) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    data["steps"] = steps
    return data


def test_runner_accepts_a_correct_scenario() -> None:
    result = run_scenario(copy.deepcopy(BASE))
    assert result.passed, result.failures
    assert result.id == "runner-self-test"


@pytest.mark.parametrize(
    ("steps", "failing_step"),
    [
        # expect: a wrong field value (seat 1 is to move, not seat 0)
        ([{"apply": {"roll": 1}}, {"apply": {"from": "G1", "to": "G2"}}, {"expect": {"to_move": 0}}], 2),
        # expect: a wrong guests multiset
        ([{"expect": {"guests": [["G1"], ["G2"]]}}], 0),
        # expect: a field FORMAT.md does not have
        ([{"expect": {"colour": "red"}}], 0),
        # legal: one action missing from the list
        ([{"legal": [{"roll": 1}, {"roll": 2}, {"roll": 4}, {"roll": 5}]}], 0),
        # legal: one action too many
        ([{"legal": [{"roll": 1}, {"roll": 2}, {"roll": 4}, {"roll": 5}, {"roll": "hugo"}, {"roll": 6}]}], 0),
        # legal_includes: an action that is not legal
        ([{"legal_includes": [{"place": "G30"}]}], 0),
        # apply: an illegal action
        ([{"apply": {"roll": 3}}], 0),
        # illegal: an action that is in fact legal
        ([{"illegal": {"roll": 4}}], 0),
        # invalid: a valid position
        ([{"invalid": True}], 0),
        # an unknown step kind, and a step with two kinds
        ([{"check": {}}], 0),
        ([{"apply": {"roll": 1}, "expect": {}}], 0),
    ],
)
def test_runner_reports_a_wrong_scenario(steps: list[Any], failing_step: int) -> None:
    result = run_scenario(_with_steps(steps))
    assert not result.passed
    assert [f.step for f in result.failures] == [failing_step], result.failures
    assert all(f.reason for f in result.failures)


def test_runner_reports_a_wrong_expect_and_keeps_going() -> None:
    steps = [
        {"expect": {"to_move": 1, "phase": "roll"}},  # wrong to_move
        {"apply": {"roll": "hugo"}},
        {"expect": {"hugo": "G24"}},  # wrong: speed 3 at 24:00 takes Hugo to G23
        {"expect": {"hugo": "G23"}},
    ]
    result = run_scenario(_with_steps(steps))
    assert [f.step for f in result.failures] == [0, 2]
    assert "to_move" in result.failures[0].reason and "G24" in result.failures[1].reason


def test_runner_rejects_a_bad_position_and_non_scenarios() -> None:
    data = copy.deepcopy(BASE)
    data["position"]["players"] = 9
    assert not run_scenario(data).passed
    assert not run_scenario({"steps": []}).passed
    assert not run_scenario([1, 2]).passed
    assert not run_scenario(ValueError("cannot read x.json")).passed


def test_load_scenarios_reads_folders_and_reports_bad_json(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(json.dumps(BASE), encoding="utf-8")
    (tmp_path / "b.json").write_text("{not json", encoding="utf-8")
    (tmp_path / "c.txt").write_text("ignored", encoding="utf-8")
    loaded = list(load_scenarios([tmp_path]))
    assert [Path(source).name for source, _ in loaded] == ["a.json", "b.json"]
    assert loaded[0][1] == BASE
    assert isinstance(loaded[1][1], ValueError)
    assert not run_scenario(loaded[1][1], loaded[1][0]).passed


def test_a_missing_scenario_folder_is_skipped_with_its_path(tmp_path: Path) -> None:
    missing = tmp_path / "shared" / "scenarios"
    (param,) = _params(missing, "shared")
    (mark,) = param.marks
    assert mark.name == "skip"
    assert str(missing) in mark.kwargs["reason"]
    (tmp_path / "x.json").write_text("{}", encoding="utf-8")
    assert [p.id for p in _params(tmp_path, "own")] == ["own/x"]
