"""What one person and one address may do, and how often: the limits of every way a
table comes into being, of the quick-match queue, of seats, of chat, and of reports,
blocks, follows, invitations and moderators' work, in one place
(docs/operating.md, "Safe to open", lists them).

Each method counts one use, per address and, when someone is logged in, per account,
before the work it guards, and raises :class:`~ghostparty.server.common.errors.RateLimited` (429, with how long
to wait) when a limit is reached. Counts live in a :class:`~ghostparty.server.infra.limits.Limiter`: in this
process, or in Redis and so shared by every instance.
"""

from __future__ import annotations

from starlette.requests import HTTPConnection

from ghostparty.server.infra.limits import Limit, Limiter, Use, take_or_refuse

#: Quick-match tickets a minute, per address and per account.
QUEUE_JOINS = 10
#: Questions about a ticket a minute (a waiting page asks every few seconds).
QUEUE_LOOKS = 120
#: Seats taken per table of the budget (a table has at most 8 seats).
JOINS_PER_TABLE = 8
#: Chat lines per seat (or spectator's address) at one table: bursts of 5, one each 2 s.
CHAT_SEAT = Limit(5, 10, "at most 5 chat lines at once, then one every 2 seconds")
#: Chat lines per address, over every table and socket.
CHAT_ADDRESS = Limit(20, 20, "too many chat lines from this address")


#: Reports a reporter may send (per account), counted before the work …
REPORTS = (Limit(5, 600, "at most 5 reports in 10 minutes"), Limit(20, 86400, "at most 20 reports a day"))
#: … and from one address (several players may share one).
REPORTS_ADDRESS = (
    Limit(20, 600, "too many reports from this address"),
    Limit(100, 86400, "too many reports from this address today"),
)
#: Blocking, unblocking and muting: changes of one's own lists.
LIST_CHANGES = (Limit(30, 60, "at most 30 blocks or mutes a minute"),)
#: Reading one's own lists (blocks, a table's mutes).
LIST_READS = (Limit(120, 60, "blocks and mutes are asked for too often"),)
#: Changes of an account's language (``POST /api/account/language``), per account.
LANGUAGE_CHOICES = (
    Limit(10, 60, "at most 10 language changes a minute"),
    Limit(60, 3600, "at most 60 language changes an hour"),
)
#: The same per address: more, as many people may share one (a school, a café).
LANGUAGE_CHOICES_ADDRESS = (
    Limit(60, 60, "too many language changes from this address"),
    Limit(600, 3600, "too many language changes from this address"),
)
#: Questions about players' records (a table page asks once for its seats).
RECORD_READS = (Limit(120, 60, "players' records are asked for too often"),)
#: Replays, of a finished table or of an uploaded record: each is worked out anew (10–30 ms
#: of CPU, in a worker thread); a replay page asks once.
REPLAYS = (Limit(30, 60, "at most 30 replays a minute"), Limit(300, 3600, "at most 300 replays an hour"))
#: Following and unfollowing players.
FOLLOW_CHANGES = (
    Limit(30, 60, "at most 30 follows or unfollows a minute"),
    Limit(300, 86400, "at most 300 follows a day"),
)
#: Reading one's Friends list, invitations, whether one follows a player.
FRIEND_READS = (Limit(120, 60, "the Friends list is asked for too often"),)
#: Invitations an inviter sends (per account) …
INVITES = (Limit(10, 60, "at most 10 invitations a minute"), Limit(60, 3600, "at most 60 invitations an hour"))
#: … and from one address (several players may share one).
INVITES_ADDRESS = (
    Limit(30, 60, "too many invitations from this address"),
    Limit(200, 3600, "too many invitations from this address this hour"),
)
#: Accepting or declining invitations.
INVITATION_ANSWERS = (Limit(30, 60, "at most 30 answers to invitations a minute"),)
#: A moderator's actions, and their reads of the queue and the audit log.
MODERATOR_ACTIONS = (Limit(60, 60, "at most 60 moderator actions a minute"),)
MODERATOR_READS = (Limit(120, 60, "the moderation queue is asked for too often"),)
#: The analysis board's questions (a position's every action valued: 10–100 ms of CPU) …
ANALYSES = (Limit(60, 60, "at most 60 analyses a minute"), Limit(1200, 3600, "at most 1200 analyses an hour"))
#: … and its deep looks (rollouts of every action: 0.1–1 s of CPU each), counted besides.
DEEP_ANALYSES = (
    Limit(10, 60, "at most 10 deep analyses a minute"),
    Limit(200, 3600, "at most 200 deep analyses an hour"),
)
#: Tournaments made per account (creating one needs an account) and per address.
TOURNAMENT_CREATES = (
    Limit(3, 3600, "at most 3 new tournaments an hour"),
    Limit(10, 86400, "at most 10 new tournaments a day"),
)
TOURNAMENT_CREATES_ADDRESS = (Limit(10, 3600, "too many new tournaments from this address"),)
#: Joining, leaving and cancelling tournaments.
TOURNAMENT_CHANGES = (Limit(20, 60, "at most 20 tournament entries or withdrawals a minute"),)
#: Reading tournaments: lists, pages, standings, results, one's own table.
TOURNAMENT_READS = (Limit(240, 60, "tournaments are asked for too often"),)
#: The same per address: more, as many people may share one, and each page watching a
#: tournament asks for its table again at every change (seven pages of one arena on one
#: address ask about six times a second).
TOURNAMENT_READS_ADDRESS = (Limit(1200, 60, "tournaments are asked for too often from this address"),)
#: Asking for a game's review, or how far it is (a waiting page asks every 2 s), and
#: reading a player's reviewed games.
REVIEW_READS = (Limit(120, 60, "reviews are asked for too often"),)
#: Reviews started (seconds of CPU each), per account and per address.
REVIEWS_STARTED = (
    Limit(5, 300, "at most 5 game reviews in 5 minutes"),
    Limit(20, 3600, "at most 20 game reviews an hour"),
)
#: Deep reviews started (each several times a review's CPU, made only when asked for),
#: per account and per address.
DEEP_REVIEWS_STARTED = (
    Limit(2, 300, "at most 2 deep reviews in 5 minutes"),
    Limit(6, 3600, "at most 6 deep reviews an hour"),
)

#: Attempts at puzzles, per account and per address (each is judged, and an account's
#: first at a puzzle rated) …
PUZZLE_ATTEMPTS = (
    Limit(30, 60, "at most 30 puzzle attempts a minute"),
    Limit(600, 3600, "at most 600 puzzle attempts an hour"),
)
#: … and reading puzzles: the next, the daily, one by id, the themes, one's own rating.
PUZZLE_READS = (Limit(120, 60, "puzzles are asked for too often"),)
#: Listing one's own mistakes (each game of them replayed) …
MISTAKE_READS = (Limit(30, 60, "your mistakes are asked for too often"),)
#: … and attempts at them, each valued by the review's search (tens of ms to a second of CPU).
MISTAKE_ATTEMPTS = (
    Limit(20, 60, "at most 20 attempts at your mistakes a minute"),
    Limit(300, 3600, "at most 300 attempts at your mistakes an hour"),
)


def address_of(connection: HTTPConnection) -> str:
    """The client's address (a proxy's ``X-Forwarded-For`` as uvicorn believes it)."""
    return connection.client.host if connection.client else "?"


class Quotas:
    """The limits, counted in ``limiter``; ``tables_per_minute`` is the table budget
    (``serve --max-new-tables``): per minute, and ten times that per hour; seats may be
    taken at :data:`JOINS_PER_TABLE` times that rate."""

    def __init__(self, limiter: Limiter, tables_per_minute: float = 30.0) -> None:
        self.limiter = limiter
        count = max(1, round(tables_per_minute))
        self.tables = (
            Limit(count, 60, f"at most {count} new tables a minute"),
            Limit(count * 10, 3600, f"at most {count * 10} new tables an hour"),
        )
        self.queue = Limit(QUEUE_JOINS, 60, f"at most {QUEUE_JOINS} quick-match requests a minute")
        self.looks = Limit(QUEUE_LOOKS, 60, "the queue is asked too often")
        joins = count * JOINS_PER_TABLE
        self.joins = Limit(joins, 60, f"at most {joins} seats taken a minute")

    @staticmethod
    def _each(kind: str, limits: tuple[Limit, ...], address: str, player_id: int | None) -> list[Use]:
        whose = [f"address:{address}"] + ([f"player:{player_id}"] if player_id is not None else [])
        return [(f"{kind}:{who}:{limit.seconds:g}", limit) for who in whose for limit in limits]

    async def new_table(self, address: str, player_id: int | None) -> None:
        """A table is about to be made: created, formed from the queue, played again."""
        await take_or_refuse(self.limiter, self._each("tables", self.tables, address, player_id))

    async def give_back_table(self, address: str, player_id: int | None) -> None:
        """No table was made after all."""
        await self.limiter.give_back(self._each("tables", self.tables, address, player_id))

    async def queue_join(self, address: str, player_id: int | None) -> None:
        """A quick-match ticket; it may become a table, so it draws on the table budget too."""
        uses = self._each("queue", (self.queue,), address, player_id)
        uses += self._each("tables", self.tables, address, player_id)
        await take_or_refuse(self.limiter, uses)

    async def queue_look(self, address: str) -> None:
        await take_or_refuse(self.limiter, self._each("looks", (self.looks,), address, None))

    async def use(
        self,
        kind: str,
        limits: tuple[Limit, ...],
        address: str,
        player_id: int | None,
        address_limits: tuple[Limit, ...] | None = None,
    ) -> None:
        """One use of ``kind`` (reports, blocks, moderator actions …) under ``limits`` per
        account and ``address_limits`` (the same if not given) per address."""
        uses = self._each(kind, address_limits or limits, address, None)
        if player_id is not None:
            uses += [(f"{kind}:player:{player_id}:{limit.seconds:g}", limit) for limit in limits]
        await take_or_refuse(self.limiter, uses)

    async def join(self, address: str, player_id: int | None) -> None:
        await take_or_refuse(self.limiter, self._each("joins", (self.joins,), address, player_id))

    async def chat(self, table_id: str, seat: int | None, address: str) -> None:
        """A chat line: per seat at the table (a spectator: per address at the table),
        and per address over everything."""
        writer = f"seat:{seat}" if seat is not None else f"address:{address}"
        await take_or_refuse(
            self.limiter, [(f"chat:{table_id}:{writer}", CHAT_SEAT), (f"chat:address:{address}", CHAT_ADDRESS)]
        )
