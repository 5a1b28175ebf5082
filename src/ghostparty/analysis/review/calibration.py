"""Win chances from the learned evaluation's predicted margins: a fitted softmax.

The learned evaluation (:mod:`ghostparty.bots.learned`) predicts each seat's final
margin ``m`` (its final spooky points minus the best other seat's; lower is better,
RULES.md §7, §8.7). Its win chance is a softmax over the seats::

    p_s = exp(-beta * m_s) / sum_t exp(-beta * m_t)

so the chances add up to 1, as the shares of a game's win do (a tie shares it, §7).
One ``beta`` per rule set and number of players, fitted by maximum likelihood (the
cross-entropy against each seat's share of the win) on positions of self-play games
of the compiled simulator: ``python scripts/fit_calibration.py`` (docs/analysis.md, Calibration),
which writes ``calibration.json`` beside this module with the held-out Brier scores.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from ghostparty.bots.leaf import win_chances

#: The file of fitted coefficients, in this package.
CALIBRATION_FILE = "calibration.json"


@dataclass(frozen=True)
class Calibration:
    """Fitted ``beta`` per ``(rule set id, players)``, and how they were made."""

    betas: dict[tuple[str, int], float]
    about: dict[str, object]

    def beta(self, rules: str, players: int) -> float:
        """The coefficient for a game of ``rules`` with ``players``.

        :raises ValueError: if the file has none for that game.
        """
        beta = self.betas.get((rules, players))
        if beta is None:
            have = ", ".join(f"{r} {p}p" for r, p in sorted(self.betas))
            raise ValueError(f"no calibration for {rules} with {players} players: the file has {have}")
        return beta


def parse_calibration(data: object) -> Calibration:
    """:class:`Calibration` from the JSON document of a calibration file.

    :raises ValueError: if the document is not ``{"betas": {rules: {players: beta}}, …}``.
    """
    if not isinstance(data, dict) or not isinstance(data.get("betas"), dict):
        raise ValueError("a calibration file is an object with 'betas': {rules: {players: beta}}")
    betas: dict[tuple[str, int], float] = {}
    for rules, per_players in data["betas"].items():
        if not isinstance(per_players, dict):
            raise ValueError(f"betas[{rules!r}]: expected {{players: beta}}, got {per_players!r:.60}")
        for players, beta in per_players.items():
            if isinstance(beta, bool) or not isinstance(beta, int | float) or not beta >= 0:
                raise ValueError(f"betas[{rules!r}][{players!r}]: expected a number >= 0, got {beta!r}")
            betas[rules, int(players)] = float(beta)
    return Calibration(betas, {key: value for key, value in data.items() if key != "betas"})


@cache
def load_calibration() -> Calibration:
    """The calibration shipped with the package (read once)."""
    text = (files("ghostparty.analysis.review") / CALIBRATION_FILE).read_text(encoding="utf-8")
    return parse_calibration(json.loads(text))


#: Each seat's win chance from its margin (lower wins more); they add up to 1 (compiled with the leaf).
softmax_chances = win_chances
