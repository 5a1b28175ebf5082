"""The error codes (:class:`ghostparty.server.errors.ErrorCode`): the server raises no
other, each is documented, and each answers with its HTTP status."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from ghostparty.server.errors import HTTP_STATUS, ErrorCode, RateLimited, ServiceError

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "src" / "ghostparty" / "server"
PROTOCOL = (ROOT / "docs" / "PROTOCOL.md").read_text()
#: The calls whose first argument is an error code.
RAISES = {"ServiceError", "BodyRefused", "__init__"}  # (RateLimited's first is what was limited)


def _raised_codes() -> dict[str, str]:
    """Each literal code given to an error in the server's source, with where."""
    found: dict[str, str] = {}
    for path in sorted(SERVER.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            first = node.args[0]
            if name in RAISES and isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.setdefault(first.value, f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_the_server_raises_only_known_codes() -> None:
    raised = _raised_codes()
    assert "stale_version" in raised and "not_your_turn" in raised  # the scan sees the raises
    unknown = {code: where for code, where in raised.items() if code not in ErrorCode.__members__.values()}
    assert not unknown, f"codes not in ErrorCode (add them, and to docs/PROTOCOL.md): {unknown}"


def test_every_code_is_documented_and_every_documented_code_is_one() -> None:
    documented = set(re.findall(r"`([a-z_]+)`", PROTOCOL))
    missing = [code.value for code in ErrorCode if code.value not in documented]
    assert not missing, f"error codes docs/PROTOCOL.md doesn't explain: {missing}"
    table = PROTOCOL[PROTOCOL.index("| code | when |") :]
    table = table[: table.index("\n\n")]
    rows = {code for line in table.splitlines()[2:] for code in re.findall(r"`([a-z_]+)`", line.split("|")[1])}
    assert rows - set(ErrorCode) == set(), "docs/PROTOCOL.md's error table names codes the server doesn't have"


def test_an_error_takes_its_codes_status_unless_its_raise_names_one() -> None:
    assert ServiceError("unknown_table", "no table").status == 404
    assert ServiceError(ErrorCode.STALE_VERSION, "changed").status == 400
    assert ServiceError("login_required", "a rated table seats registered players", 403).status == 403
    assert RateLimited("new tables", 12).status == HTTP_STATUS[ErrorCode.RATE_LIMITED] == 429
    error = ServiceError("not_open", "closed already")
    assert error.code is ErrorCode.NOT_OPEN and error.to_dict()["code"] == "not_open"


def test_an_unknown_code_still_answers() -> None:
    """A code that isn't one (the source scan above refuses it; an answer relayed from
    another version of the server) is kept as it is, and answers 400 unless told."""
    error = ServiceError("from_a_newer_server", "something new")
    assert error.code == "from_a_newer_server" and not isinstance(error.code, ErrorCode)
    assert error.status == 400
    assert ServiceError("from_a_newer_server", "something new", 409).status == 409
