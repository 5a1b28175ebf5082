"""Searches with the cyclic garbage collector paused: :func:`collector_paused`.

A search keeps hundreds of thousands of small tuples in its caches (positions, keys,
values) for as long as it runs, and makes no reference cycles. CPython's cyclic
collector would traverse those caches again and again as they grow: a third of a game
review's time (docs/performance.md). Reference counting still frees everything as
usual; the collector is only asked to wait until the search is done.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_active = 0
_was_enabled = False


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic collector for the ``with`` block; nested and concurrent blocks
    share the pause, and the last to leave restores the collector as the first found it."""
    global _active, _was_enabled  # noqa: PLW0603 (one process-wide switch, like gc's own)
    with _lock:
        if _active == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _active += 1
    try:
        yield
    finally:
        with _lock:
            _active -= 1
            if _active == 0 and _was_enabled:
                gc.enable()
