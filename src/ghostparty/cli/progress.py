"""The progress bar every long command shows: what, how many of how many, time left."""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn


def progress_bar(console: Console, *, show: bool = True, auto_refresh: bool = True) -> Progress:
    """A transient bar on ``console``; its task's description says what is counted.

    Pass ``auto_refresh=False`` when worker processes will be forked while it runs (the
    refresh thread must not exist then) and call ``refresh()`` yourself.
    """
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        auto_refresh=auto_refresh,
        disable=not show,
    )
