"""Which rules core runs: the modules compiled by mypyc, or the pure-Python ones.

``python -m ghostparty.build_core`` compiles the modules of :data:`COMPILED` with mypyc
into extension modules beside their ``.py`` files (and their shared library,
:data:`LIBRARY`), and writes :data:`STAMP`: the SHA-256 of every source it
compiled. Python's import system prefers an extension module to a ``.py`` file of the
same name, so once built the compiled core is what ``import ghostparty.rules`` loads —
unless :func:`choose` decides otherwise, *before* any of those modules is imported
(``ghostparty.rules`` calls it first), and then every one of them is loaded from its
``.py`` file, never a mix:

* ``GHOSTPARTY_PURE=1`` in the environment forces the pure core;
* an incomplete build (an extension missing for this interpreter), or one whose stamp no
  longer matches the sources (a ``.py`` edited since), falls back to the pure core, so an
  edit never runs stale compiled code.

This is the one place where the rules core reads files: a few source files, once per
process, at import. Nothing here changes how a rule is applied.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

#: The modules mypyc compiles (``ghostparty.rules.<name>``): the engine's hot path.
#: Compiled functions check their arguments against their annotations (a ``TypeError``),
#: so a public function that promises a ``ValueError`` for a wrong type takes ``object``
#: (``rulesets.ruleset``) or stays Python (``position``, whose ``Position`` is a
#: ``NamedTuple`` either way); ``actions`` (interned values built with ``object.__new__``
#: and weak references), ``events`` (made only when asked for), ``notation``, ``game``
#: and the rest stay Python too.
COMPILED: tuple[str, ...] = (
    "board",
    "rulesets",
    "movegen",
    "turns",
    "hugo",
    "guests",
    "transition",
    "playout",
)
#: The shared library of the compiled modules (mypyc's group ``ghostparty.rules._native``).
LIBRARY = "_native__mypyc"
#: The build's record, beside the sources: ``{"sources": {name: sha256}, ...}``.
STAMP = "_compiled.json"
#: The environment variable that forces the pure core when set to ``1``.
PURE_VARIABLE = "GHOSTPARTY_PURE"

HERE = Path(__file__).resolve().parent


def source_digests(names: Sequence[str] = COMPILED) -> dict[str, str]:
    """The SHA-256 of each compiled module's source, as the build stamps them."""
    return {name: hashlib.sha256((HERE / f"{name}.py").read_bytes()).hexdigest() for name in names}


def extension_path(name: str) -> Path:
    """Where this interpreter looks for ``ghostparty.rules.<name>`` compiled."""
    return HERE / f"{name}{importlib.machinery.EXTENSION_SUFFIXES[0]}"


def why_pure() -> str:
    """Why the pure core must run (``""``: the compiled one may)."""
    if os.environ.get(PURE_VARIABLE, "") == "1":
        return f"{PURE_VARIABLE}=1"
    missing = [name for name in COMPILED if not extension_path(name).is_file()]
    if len(missing) == len(COMPILED):
        return "not built (python -m ghostparty.build_core)"
    if missing:
        return f"incomplete build, no {', '.join(missing)} (python -m ghostparty.build_core)"
    extra = sorted({path.name.split(".")[0] for path in HERE.glob("*.so")} - {*COMPILED, LIBRARY})
    if extra:
        return f"a stale build also compiled {', '.join(extra)} (python -m ghostparty.build_core)"
    try:
        stamp = json.loads((HERE / STAMP).read_text(encoding="utf-8"))
        stamped = stamp["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        return f"no valid {STAMP} (python -m ghostparty.build_core)"
    changed = [name for name, digest in source_digests().items() if stamped.get(name) != digest]
    if changed:
        return f"sources changed since the build: {', '.join(changed)} (python -m ghostparty.build_core)"
    return ""


class _PureFinder:
    """Loads every module of the rules package from its ``.py`` file."""

    def find_spec(self, fullname: str, path: object = None, target: ModuleType | None = None) -> ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        source = HERE / f"{name}.py"
        if package != __package__ or not source.is_file():
            return None
        return importlib.util.spec_from_file_location(fullname, source)


_FINDER = _PureFinder()


def choose() -> str:
    """Decide the core before its modules are imported (see the module docstring); return
    why the pure one runs, ``""`` when the compiled one may."""
    why = why_pure()
    if why and _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
    return why


def compiled() -> bool:
    """Whether the rules core in use is the one compiled by mypyc."""
    module = sys.modules.get(f"{__package__}.movegen")
    return module is not None and not (module.__file__ or "").endswith(".py")


def describe_core() -> str:
    """One line for reports: ``"compiled (mypyc)"`` or ``"pure Python (why)"``."""
    return "compiled (mypyc)" if compiled() else f"pure Python ({reason or 'unknown'})"


#: Decided when ``ghostparty.rules`` is first imported: why the pure core runs, ``""``
#: when the compiled one does.
reason = choose()
