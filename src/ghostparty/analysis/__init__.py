"""Answers to a player's questions, from simulated games: numbers and pictures.

* :mod:`.tracker` — follows individual guests through a game's events;
* :mod:`.simulate` — many games with one bot policy: capture odds per starting square
  (:meth:`Simulation.squares`) and wins per seat with 95 % intervals
  (:meth:`Simulation.seats`), over several processes or a Dask cluster, deterministic
  per seed (the games are :mod:`ghostparty.sim.playout`'s, seeded by :mod:`ghostparty.sim.seeds`);
* :mod:`.danger` — exact: the chance that Hugo reaches each guest before its owner's
  next turn (:func:`capture_odds`), by the rules core's own moves;
* :mod:`.position` — the odds of each legal move in a given position;
* :mod:`.deep` — a decision's candidate actions judged by truncated rollouts with common
  random numbers, and the ``deep`` bot that plays by them (registered when that module is
  imported: the command line, :mod:`ghostparty.sim.tournament` and the server's tables do);
* :mod:`.heatmap` — the board as a heat-map (matplotlib, imported only when drawing:
  ``pip install 'ghostparty[analysis]'``).

The command line is ``ghostparty analyze`` (:mod:`ghostparty.cli.analyze`).
"""

from ghostparty.analysis.danger import GuestOdds, capture_odds
from ghostparty.analysis.heatmap import INSTALL_HINT, draw_heatmap, heatmap_paths, matplotlib_available, save_heatmap
from ghostparty.analysis.position import MoveOdds, OutcomeOdds, PositionAnalysis, analyze_position
from ghostparty.analysis.simulate import (
    HORIZONS,
    PLACEMENTS,
    SeatStat,
    Settings,
    Simulation,
    SquareStat,
    play_tracked_game,
    simulate,
    workers,
)
from ghostparty.analysis.tracker import GuestTracker, RoundLedger, TrackedGuest, TrackingError
from ghostparty.sim.stats import WinTally

__all__ = [
    "HORIZONS",
    "INSTALL_HINT",
    "PLACEMENTS",
    "GuestOdds",
    "GuestTracker",
    "MoveOdds",
    "OutcomeOdds",
    "PositionAnalysis",
    "RoundLedger",
    "SeatStat",
    "Settings",
    "Simulation",
    "SquareStat",
    "TrackedGuest",
    "TrackingError",
    "WinTally",
    "analyze_position",
    "capture_odds",
    "draw_heatmap",
    "heatmap_paths",
    "matplotlib_available",
    "play_tracked_game",
    "save_heatmap",
    "simulate",
    "workers",
]
