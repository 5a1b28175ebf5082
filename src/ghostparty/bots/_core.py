"""Whether the bots' evaluation (:mod:`~ghostparty.bots.evaluation`, :mod:`~ghostparty.bots.features`, the searches' leaf :mod:`~ghostparty.bots.leaf`) runs compiled by mypyc.

``python -m ghostparty.build_core`` compiles the modules of :data:`COMPILED` beside their
``.py`` files, as it compiles the rules core (:mod:`ghostparty.rules._core`), and writes
:data:`STAMP`: the SHA-256 of every source of this package the compiled code read types
and values from.
:func:`choose`, called by ``ghostparty.bots`` before any of its modules is imported,
makes them load from their ``.py`` files when ``GHOSTPARTY_PURE=1`` is set, when the
build is missing or incomplete, or when a stamped source has changed since, so an edit
never runs stale compiled code. Compiled or not, they compute the same floats.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

#: The modules mypyc compiles (``ghostparty.bots.<name>``; ``build_core.BOTS_COMPILED``).
COMPILED: tuple[str, ...] = ("leaf", "evaluation", "features")
#: The shared library of mypyc's group ``ghostparty.bots._native``.
LIBRARY = "_native__mypyc"
#: The build's record, beside the sources.
STAMP = "_compiled.json"
PURE_VARIABLE = "GHOSTPARTY_PURE"

HERE = Path(__file__).resolve().parent


def source_digest(name: str) -> str:
    """The SHA-256 of ``ghostparty.bots.<name>``'s source, as the build stamps it."""
    return hashlib.sha256((HERE / f"{name}.py").read_bytes()).hexdigest()


def why_pure() -> str:
    """Why the leaf must run from its source (``""``: the compiled one may)."""
    if os.environ.get(PURE_VARIABLE, "") == "1":
        return f"{PURE_VARIABLE}=1"
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    if not all((HERE / f"{name}{suffix}").is_file() for name in (*COMPILED, LIBRARY)):
        return "not built (python -m ghostparty.build_core)"
    try:
        stamped = json.loads((HERE / STAMP).read_text(encoding="utf-8"))["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        return f"no valid {STAMP} (python -m ghostparty.build_core)"
    if not set(COMPILED) <= set(stamped):
        return f"{STAMP} does not stamp {', '.join(COMPILED)} (python -m ghostparty.build_core)"
    changed = [
        name for name, digest in stamped.items() if not (HERE / f"{name}.py").is_file() or source_digest(name) != digest
    ]
    if changed:
        return f"sources changed since the build: {', '.join(changed)} (python -m ghostparty.build_core)"
    return ""


class _SourceFinder:
    """Loads the compiled modules of this package from their ``.py`` files."""

    def find_spec(self, fullname: str, path: object = None, target: ModuleType | None = None) -> ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != __package__ or name not in COMPILED:
            return None
        return importlib.util.spec_from_file_location(fullname, HERE / f"{name}.py")


_FINDER = _SourceFinder()


def choose() -> str:
    """Decide before the modules are imported; return why the source runs (``""``: compiled)."""
    why = why_pure()
    if why and _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
    return why


def compiled() -> bool:
    """Whether the leaf in use is the one compiled by mypyc."""
    module = sys.modules.get(f"{__package__}.leaf")
    return module is not None and not (module.__file__ or "").endswith(".py")


#: Why the leaf runs from its source, ``""`` when compiled; decided when ``ghostparty.bots`` is imported.
reason = choose()
