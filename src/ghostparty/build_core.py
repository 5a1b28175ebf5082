"""Compile the rules core and the bots' evaluation with mypyc, in place: ``python -m ghostparty.build_core``.

Needs mypy (the ``lint`` extra) and a C compiler; nothing else does. The modules of
:data:`ghostparty.rules._core.COMPILED` become extension modules beside their ``.py``
files, with their shared library (``rules/_native__mypyc…``), and
``rules/_compiled.json`` records the sources they were built from; so do those of
:data:`BOTS_COMPILED` (the hand-made evaluation, the learned one's features and its cached leaf) in
``bots/``. Without them — no compiler, no build, ``GHOSTPARTY_PURE=1``, or a source
edited since — the same package runs pure Python (see :mod:`ghostparty.rules._core`,
:mod:`ghostparty.bots._core`).
``--clean`` removes what a build made. Compiled files are kept out of git
(``.gitignore``).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from ghostparty.rules._core import COMPILED, HERE, STAMP, source_digests

#: mypyc's group: its shared library is ghostparty.rules._native__mypyc (_core.LIBRARY).
GROUP = "ghostparty.rules._native"
#: The folder that holds ``ghostparty`` (``src`` in a checkout), where the build runs.
ROOT = HERE.parent.parent
#: The leaf's package, its compiled modules (as :data:`ghostparty.bots._core.COMPILED`,
#: which this layer may not import), their group, and the sources stamped with them: those
#: the compiled code read types and values from.
BOTS = HERE.parent / "bots"
BOTS_COMPILED = ("leaf", "evaluation", "features")
BOTS_GROUP = "ghostparty.bots._native"
BOTS_STAMPED = ("leaf", "evaluation", "features", "learned")


@dataclass(frozen=True)
class Built:
    seconds: float
    cpu_seconds: float
    files: tuple[Path, ...]


def artefacts() -> list[Path]:
    """The files a build made that exist now (any module's, for any interpreter)."""
    found = [*sorted(HERE.glob("*.so")), HERE / STAMP, *sorted(BOTS.glob("*.so")), BOTS / STAMP]
    return [path for path in found if path.exists()]


def clean() -> list[Path]:
    """Remove what a build made; return the files removed."""
    removed = artefacts()
    for path in removed:
        path.unlink()
    return removed


def build(verbose: bool = False) -> Built:
    """Compile :data:`COMPILED` in place and stamp the build.

    :raises ModuleNotFoundError: without mypy/mypyc (``pip install -e ".[lint]"``).
    :raises SystemExit: if mypyc or the C compiler fails (their output says why).
    """
    from mypyc.build import mypycify
    from setuptools import setup  # type: ignore[import-untyped]

    started, cpu = time.perf_counter(), _cpu()
    clean()  # a failed build must not leave a mix of old and new modules
    digests = source_digests()
    bots_digests = {name: hashlib.sha256((BOTS / f"{name}.py").read_bytes()).hexdigest() for name in BOTS_STAMPED}
    groups = [
        (GROUP, [str(Path("ghostparty", "rules", f"{name}.py")) for name in COMPILED]),
        (BOTS_GROUP, [str(Path("ghostparty", "bots", f"{name}.py")) for name in BOTS_COMPILED]),
    ]
    with tempfile.TemporaryDirectory(prefix="ghostparty-mypyc-") as work, contextlib.chdir(ROOT):
        dirs = ["--build-temp", str(Path(work, "temp")), "--build-lib", str(Path(work, "lib"))]
        quiet = contextlib.nullcontext() if verbose else contextlib.redirect_stdout(sys.stderr)
        cache = os.environ.get("MYPY_CACHE_DIR")
        os.environ["MYPY_CACHE_DIR"] = str(Path(work, "mypy-cache"))  # not a .mypy_cache in src
        try:
            with quiet:
                for group, sources in groups:
                    target = str(Path(work, "c", group))
                    modules = mypycify(sources, group_name=group, target_dir=target, opt_level="3")
                    setup(
                        name=f"ghostparty-{group.split('.')[1]}-compiled",
                        ext_modules=modules,
                        script_args=["-q", "build_ext", "--inplace", *dirs],
                    )
        finally:
            if cache is None:
                del os.environ["MYPY_CACHE_DIR"]
            else:
                os.environ["MYPY_CACHE_DIR"] = cache
    for folder, stamp, stamped in ((HERE, STAMP, digests), (BOTS, STAMP, bots_digests)):
        record = {"python": sys.implementation.cache_tag, "sources": stamped}
        (folder / stamp).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return Built(time.perf_counter() - started, _cpu() - cpu, tuple(artefacts()))


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the C compiler)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ghostparty.build_core", description=__doc__.split("\n\n")[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled core; the pure one runs")
    parser.add_argument("--verbose", action="store_true", help="show mypyc's and the compiler's output")
    args = parser.parse_args(argv)
    if args.clean:
        removed = clean()
        print(f"removed {len(removed)} file(s); the pure rules core and bots' evaluation run")
        return 0
    try:
        built = build(args.verbose)
    except ModuleNotFoundError as error:
        print(f"cannot compile the rules core: {error}; install mypy (pip install -e '.[lint]')", file=sys.stderr)
        return 2
    print(
        f"compiled {len(COMPILED)} rules modules and the bots' evaluation ({', '.join(BOTS_COMPILED)}) with mypyc "
        f"in {built.seconds:.1f} s ({built.cpu_seconds:.1f} s of CPU); {len(built.files)} files in {HERE} and {BOTS}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
