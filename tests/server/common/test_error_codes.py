"""The error codes (:class:`ghostparty.server.common.errors.ErrorCode`): every raise names one
and no status, each is documented, and each answers with one HTTP status and one
WebSocket close code, chosen only at the edge (:mod:`ghostparty.server.http.edge`)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from ghostparty.server.common.errors import ErrorCode, RateLimited, ServiceError, StoreUnavailable
from ghostparty.server.http.edge import CLOSE_CODE, HTTP_STATUS, POLICY, close_code, close_message, http_status

ROOT = Path(__file__).resolve().parents[3]
SERVER = ROOT / "src" / "ghostparty" / "server"
EDGE = SERVER / "http" / "edge.py"
PROTOCOL = (ROOT / "docs" / "PROTOCOL.md").read_text()
#: The calls whose first argument is an error code: the errors, a subclass's
#: ``super().__init__``, and a socket's error message (``connection.error``).
RAISES = {"ServiceError", "BodyRefused", "__init__", "error", "refuse_garbage"}


def _sources() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(), str(path)) for path in sorted(SERVER.rglob("*.py"))}


def _where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}"


def _code_calls() -> list[tuple[str, ast.Call]]:
    """Each call in the server's source that takes an error code first, with where."""
    found = []
    for path, tree in _sources().items():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in {"error", "refuse_garbage"}:  # only a socket's, not a logger's
                owner = func.value if isinstance(func, ast.Attribute) else None
                if not (isinstance(owner, ast.Name) and owner.id in {"self", "connection"}):
                    continue
            if name in RAISES:
                found.append((_where(path, node), node))
    return found


def test_every_raise_names_an_error_code_member_and_no_status() -> None:
    calls = _code_calls()
    assert len(calls) > 200  # the scan sees the raises
    strings = [where for where, call in calls if isinstance(call.args[0], ast.Constant)]
    assert not strings, f"an error code given as a string (use ErrorCode.X): {strings}"
    statuses = [
        where
        for where, call in calls
        if len(call.args) > 2 or any(keyword.arg == "status" for keyword in call.keywords)
    ]
    assert not statuses, f"a raise names an HTTP status (edge.HTTP_STATUS gives it): {statuses}"


def test_the_codes_the_server_names_are_error_codes() -> None:
    named = {
        (node.attr, _where(path, node))
        for path, tree in _sources().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "ErrorCode"
    }
    assert {"STALE_VERSION", "NOT_YOUR_TURN", "REGISTERED_ONLY"} <= {name for name, _ in named}
    unknown = sorted(where for name, where in named if name not in ErrorCode.__members__)
    assert not unknown, f"not ErrorCode members: {unknown}"


def test_every_code_has_one_http_status() -> None:
    assert set(HTTP_STATUS) == set(ErrorCode), "codes without a status in edge.HTTP_STATUS"
    assert all(400 <= status < 600 for status in HTTP_STATUS.values())
    assert http_status(ErrorCode.UNKNOWN_TABLE) == 404
    assert http_status(ErrorCode.STALE_VERSION) == 400
    assert http_status(ErrorCode.LOGIN_REQUIRED) == 401
    assert http_status(ErrorCode.REGISTERED_ONLY) == 403
    assert http_status(ErrorCode.TOO_LARGE) == 413 and http_status(ErrorCode.TOO_LONG) == 400
    assert http_status(ErrorCode.NOT_OPEN) == 400 and http_status(ErrorCode.REPORT_CLOSED) == 409
    assert http_status(RateLimited("new tables", 12).code) == 429
    assert http_status(StoreUnavailable("OperationalError").code) == 503


def test_an_error_is_its_code_and_message() -> None:
    error = ServiceError(ErrorCode.NOT_OPEN, "started already", retry_after=0.2, details={"until": "later"})
    assert not hasattr(error, "status")
    assert error.to_dict() == {"until": "later", "code": "not_open", "message": "started already", "retry_after": 1}


def test_every_code_is_documented_and_every_documented_code_is_one() -> None:
    documented = set(re.findall(r"`([a-z_]+)`", PROTOCOL))
    missing = [code.value for code in ErrorCode if code.value not in documented]
    assert not missing, f"error codes docs/PROTOCOL.md doesn't explain: {missing}"
    table = PROTOCOL[PROTOCOL.index("| code | when |") :]
    table = table[: table.index("\n\n")]
    rows = {code: line for line in table.splitlines()[2:] for code in re.findall(r"`([a-z_]+)`", line.split("|")[1])}
    assert set(rows) - set(ErrorCode) == set(), "docs/PROTOCOL.md's error table names codes the server doesn't have"
    for code, line in rows.items():  # a status the table states is the code's
        stated = {int(status) for status in re.findall(r"HTTP (\d{3})", line)}
        assert stated <= {HTTP_STATUS[ErrorCode(code)]}, f"docs/PROTOCOL.md gives {code} {stated}"


def test_the_close_codes_are_documented() -> None:
    for code, close in CLOSE_CODE.items():
        assert re.search(rf"{close}[^\n]*\n?[^\n]*`{code.value}`", PROTOCOL), f"{code} closes with {close}: say so"
    assert close_code(ErrorCode.TOO_MANY_CONNECTIONS) == POLICY == 1008
    assert close_message(ErrorCode.UNAVAILABLE) == {"type": "websocket.close", "code": 1013, "reason": "unavailable"}


def _choice(node: ast.AST) -> str | None:
    """What ``node`` chooses that only the edge may: a close code, a close message, an
    error status, or an error code spelled as a string; None if nothing."""
    if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "close":
        return "close(code=…)" if any(keyword.arg == "code" for keyword in node.keywords) else None
    if isinstance(node, ast.keyword) and node.arg == "status_code" and isinstance(node.value, ast.Constant):
        status = node.value.value
        return f"status_code={status}" if isinstance(status, int) and status >= 400 else None
    if not isinstance(node, ast.Dict):
        return None
    pairs = {
        key.value: value.value
        for key, value in zip(node.keys, node.values, strict=True)
        if isinstance(key, ast.Constant) and isinstance(value, ast.Constant)
    }
    if pairs.get("type") == "websocket.close":
        return "a websocket.close message"
    if isinstance(pairs.get("code"), str):
        return "an error code as a string"
    status = pairs.get("status")
    return f"status {status}" if isinstance(status, int) and status >= 400 else None


def _chosen_outside_the_edge() -> list[str]:
    """Where a module other than edge.py closes a WebSocket with a code of its own, or
    answers an error with a status or a code of its own."""
    return [
        f"{_where(path, node)}: {choice}"
        for path, tree in _sources().items()
        if path != EDGE
        for node in ast.walk(tree)
        if (choice := _choice(node)) is not None
    ]


def test_no_close_code_or_error_status_is_chosen_outside_the_edge() -> None:
    found = _chosen_outside_the_edge()
    assert not found, f"use edge.close_socket / close_message / http_status: {found}"


@pytest.mark.parametrize(
    "source",
    [
        "async def f(websocket):\n    await websocket.close(code=4404)\n",
        'async def f(send):\n    await send({"type": "websocket.close", "code": 1008})\n',
        "def f():\n    return JSONResponse({}, status_code=403)\n",
        'def f():\n    return {"type": "error", "code": "too_large"}\n',
    ],
)
def test_the_edge_scan_sees_a_choice_made_elsewhere(
    source: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "part.py").write_text(source)
    monkeypatch.setattr(f"{__name__}.SERVER", tmp_path)
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    assert len(_chosen_outside_the_edge()) == 1


def test_the_raise_scan_sees_a_string_code_and_a_status(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "part.py").write_text(
        'def f():\n    raise ServiceError("not_open", "no")\n\n'
        'def g():\n    raise ServiceError(ErrorCode.NOT_OPEN, "no", 409)\n\n'
        'async def h(self):\n    await self.error("bad_token", "no")\n\n'
        'def i():\n    log.error("fine: a logger")\n'
    )
    monkeypatch.setattr(f"{__name__}.SERVER", tmp_path)
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    calls = [(where, ast.unparse(call.args[0])) for where, call in _code_calls()]
    assert [code for _, code in calls] == ["'not_open'", "ErrorCode.NOT_OPEN", "'bad_token'"]
