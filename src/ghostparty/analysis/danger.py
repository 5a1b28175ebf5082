"""Exact danger per guest: the chance that Hugo reaches it before its owner's next turn.

The implementation is pure and lives in the rules core, :mod:`ghostparty.rules.odds`
(the game server imports it from there); this module re-exports it for the analysis
package, where it always was:

>>> from ghostparty.rules import odds
>>> capture_odds is odds.capture_odds and GuestOdds is odds.GuestOdds
True
"""

from __future__ import annotations

from ghostparty.rules.odds import GuestOdds, capture_odds

__all__ = ["GuestOdds", "capture_odds"]
