"""The bulk simulator: whole games of both rule sets compiled with Numba (``pip install 'ghostparty[fast]'``).

The rules of :mod:`ghostparty.rules`, again, as Numba kernels over numpy arrays
(:mod:`.engine`), the board built from the rules core's own tables (:mod:`.tables`),
with two policies (:mod:`.policy`: ``random`` and the rules-aware ``safe``), one batch
kernel (:mod:`.play`), runs over processes (:mod:`.runs`) and recorded games handed back
as typed actions and positions (:mod:`.trace`), which ``tests/fast`` replays through the
rules core position by position.

Importing this package needs nothing; its submodules need numba and numpy. Callers
check :func:`available` and fall back to the typed engine with :data:`INSTALL_HINT`.
"""

from __future__ import annotations

import importlib.util

#: What to tell someone without numba.
INSTALL_HINT = "the compiled simulator needs numba: pip install 'ghostparty[fast]'"


def available() -> bool:
    """Whether numba and numpy can be imported (without importing them)."""
    return all(importlib.util.find_spec(name) is not None for name in ("numba", "numpy"))
