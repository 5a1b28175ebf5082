"""Tournament pairing, scoring and standings: a pure engine the server drives.

Standard library only, no I/O, no clock read (times are passed in), seeded randomness
passed in. :class:`Arena` seats free players again at once for a fixed time;
:class:`Swiss` plays a fixed number of rounds, grouping players by score;
:class:`Ladder` has bots play duplicate deals, every group's deal once per seat rotation. Points by final
place are in :mod:`~ghostparty.tournaments.points`; :func:`to_json` / :func:`from_json`
store and restore either state.
"""

from __future__ import annotations

from ghostparty.tournaments.arena import Arena, ArenaConfig, ArenaGame, ArenaPlayer, Standing
from ghostparty.tournaments.codec import from_dict, from_json, to_dict, to_json
from ghostparty.tournaments.errors import TournamentError
from ghostparty.tournaments.ladder import Ladder, LadderConfig, LadderDeal, LadderGame, LadderStanding
from ghostparty.tournaments.points import PLACE_POINTS, TABLE_SIZES, table_points
from ghostparty.tournaments.swiss import Swiss, SwissConfig, SwissRound, SwissStanding, SwissTable

__all__ = [
    "PLACE_POINTS",
    "TABLE_SIZES",
    "Arena",
    "ArenaConfig",
    "ArenaGame",
    "ArenaPlayer",
    "Ladder",
    "LadderConfig",
    "LadderDeal",
    "LadderGame",
    "LadderStanding",
    "Standing",
    "Swiss",
    "SwissConfig",
    "SwissRound",
    "SwissStanding",
    "SwissTable",
    "TournamentError",
    "from_dict",
    "from_json",
    "table_points",
    "to_dict",
    "to_json",
]
