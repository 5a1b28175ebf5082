"""Following individual guests through a game's events.

Positions hold guests as interchangeable locations per seat (FORMAT.md, RULES.md §4.6),
so a statistic about *one* guest — "the guest placed on G7 at the start: was it ever
captured, and what did it cost its owner?" — needs the guests' identities. A
:class:`GuestTracker` gives every guest an identity when it is first placed and moves it
with the events that :func:`ghostparty.rules.apply` appends:

* :class:`~ghostparty.rules.events.Placed` puts a waiting guest of the seat on the square
  (round 1: a new guest, numbered per seat in placement order; later Midnight Party
  rounds: a guest back from the cellar — the one from the highest-valued step first, as
  RULES.md §8.6.3 orders the placing);
* :class:`~ghostparty.rules.events.GuestMoved` moves a guest of the seat from ``source``
  to ``target``;
* :class:`~ghostparty.rules.events.Captured` sends every guest on the square to the step;
* :class:`~ghostparty.rules.events.GuestExpelled` puts the room's guest on the door;
* :class:`~ghostparty.rules.events.SentToCellar` puts a gallery guest on the wine cellar;
* :class:`~ghostparty.rules.events.RoundStarted` returns room guests to their doors and
  makes cellar guests wait to be placed again (RULES.md §8.6, ``transition._end_round``).

When several guests of one seat share a location, the one that moves is the one with
the lowest number: arbitrary (guests are interchangeable) but deterministic.

Spooky points are booked to the guest that caused them, per round, in a
:class:`RoundLedger`: each capture's step value; in ``hugo`` the shield of a room it
entered (the actual score change, so the green room's floor at 0 is respected); in
``midnight-party``, at the round's end, the wine cellar (step 2) for a guest that was
still on the gallery, +1 for a red room and −3 for a green one (RULES.md §8.5). The
tracker checks itself: in ``hugo`` a seat's booked points add up to its score change,
in ``midnight-party`` to each round's score, or :class:`TrackingError` is raised.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ghostparty.rules import Board, Event, Position, Ruleset
from ghostparty.rules.events import (
    Captured,
    GameOver,
    GuestExpelled,
    GuestMoved,
    Placed,
    RoundEnded,
    RoundStarted,
    ScoreChanged,
    SentToCellar,
)

#: The location of a guest that waits to be placed (it is on no board location).
WAITING = -1


class TrackingError(RuntimeError):
    """The events do not fit the tracked guests: a bug in the tracker or in the engine."""


@dataclass
class RoundLedger:
    """What one guest did to its owner's score in one round."""

    #: How many times Hugo captured it (``hugo``: a guest may leave the cellar and be
    #: captured again; ``midnight-party``: at most once per round).
    captures: int = 0
    #: The step values of those captures.
    capture_points: int = 0
    #: Everything else booked to it: shields; the wine cellar at a Midnight Party round's end.
    other_points: int = 0
    #: ``midnight-party``: it was still on the gallery when the round ended (§8.4).
    sent_to_cellar: bool = False

    @property
    def points(self) -> int:
        """All spooky points booked to the guest in this round (lower is better)."""
        return self.capture_points + self.other_points


@dataclass
class TrackedGuest:
    """One guest with an identity: ``(seat, number)``, numbered per seat from 0."""

    seat: int
    number: int
    #: Its board location, or :data:`WAITING` while it waits to be placed.
    location: int
    #: ``(round, square)`` of every placement it made (RULES.md §2.2, §8.6.3).
    placements: list[tuple[int, int]] = field(default_factory=list)
    #: Its ledger per round number.
    ledgers: dict[int, RoundLedger] = field(default_factory=dict)
    #: While waiting: the step it came from, to order the placing (§8.6.3).
    waiting_from: int = 0

    @property
    def start(self) -> int | None:
        """The square of its placement at the start of the game (round 1), if seen."""
        for round_, square in self.placements:
            if round_ == 1:
                return square
        return None

    def ledger(self, round_: int) -> RoundLedger:
        """Its ledger for ``round_`` (an empty one is made on first use)."""
        ledger = self.ledgers.get(round_)
        if ledger is None:
            ledger = self.ledgers[round_] = RoundLedger()
        return ledger

    def total(self) -> RoundLedger:
        """Its ledgers of every round added up (``sent_to_cellar``: in any round)."""
        total = RoundLedger()
        for ledger in self.ledgers.values():
            total.captures += ledger.captures
            total.capture_points += ledger.capture_points
            total.other_points += ledger.other_points
            total.sent_to_cellar = total.sent_to_cellar or ledger.sent_to_cellar
        return total


class GuestTracker:
    """Follows every guest of a game by its identity; feed it each action's events.

    Start it on the position before the first action it will see. Guests already on the
    board then get numbers in the order of ``position.guests``; guests in the position's
    ``place_queue`` wait to be placed. Typical use::

        tracker = GuestTracker(position)
        while not position.is_over:
            events = []
            position = apply(position, choose(position), events)
            tracker.feed(events)
    """

    def __init__(self, position: Position) -> None:
        self.ruleset: Ruleset = position.ruleset
        self.board: Board = position.ruleset.board
        self.round: int = position.round
        self.guests: list[list[TrackedGuest]] = []
        self.start_scores: tuple[int, ...] = position.scores
        self.final_scores: tuple[int, ...] | None = None
        self.winners: tuple[int, ...] | None = None
        #: Why the game ended (``GameOver.reason``), once it has.
        self.end_reason: str | None = None
        self._last_mover: TrackedGuest | None = None
        for seat, locs in enumerate(position.guests):
            mine = [TrackedGuest(seat, number, loc) for number, loc in enumerate(locs)]
            mine += [
                TrackedGuest(seat, len(locs) + i, WAITING, waiting_from=i)
                for i in range(position.place_queue.count(seat))
            ]
            self.guests.append(mine)

    # -- reading -------------------------------------------------------------------------

    def all_guests(self) -> list[TrackedGuest]:
        """Every guest, seat by seat, by number."""
        return [guest for mine in self.guests for guest in mine]

    def locations(self, seat: int) -> tuple[int, ...]:
        """The board locations of the seat's placed guests, sorted like ``Position.guests``."""
        return tuple(sorted(g.location for g in self.guests[seat] if g.location != WAITING))

    def check(self, position: Position) -> None:
        """Raise :class:`TrackingError` unless the tracked guests stand where ``position`` has them."""
        for seat, locs in enumerate(position.guests):
            tracked = self.locations(seat)
            if tracked != locs:
                names = self.board.names
                raise TrackingError(
                    f"seat {seat}: tracked {[names[l] for l in tracked]}, position has {[names[l] for l in locs]}"
                )

    # -- feeding -------------------------------------------------------------------------

    def feed(self, events: Iterable[Event]) -> None:
        """Follow the guests through the events of one (or more) actions, in order."""
        for event in events:
            self.observe(event)

    def observe(self, event: Event) -> None:
        """Follow the guests through one event; events that move no guest are ignored."""
        kind = type(event)
        if kind is GuestMoved:
            self._moved(event)  # type: ignore[arg-type]
        elif kind is Captured:
            self._captured(event)  # type: ignore[arg-type]
        elif kind is Placed:
            self._placed(event)  # type: ignore[arg-type]
        elif kind is ScoreChanged:
            self._score_changed(event)  # type: ignore[arg-type]
        elif kind is GuestExpelled:
            self._expelled(event)  # type: ignore[arg-type]
        elif kind is SentToCellar:
            self._sent_to_cellar(event)  # type: ignore[arg-type]
        elif kind is RoundEnded:
            self._round_ended(event)  # type: ignore[arg-type]
        elif kind is RoundStarted:
            self._round_started(event)  # type: ignore[arg-type]
        elif kind is GameOver:
            self._game_over(event)  # type: ignore[arg-type]

    def _loc(self, name: str) -> int:
        try:
            return self.board.index[name]
        except KeyError:
            raise TrackingError(f"no location {name!r} on the {self.board.id} board") from None

    def _guest_at(self, seat: int, loc: int, what: str) -> TrackedGuest:
        """The seat's lowest-numbered guest on ``loc``."""
        for guest in self.guests[seat]:
            if guest.location == loc:
                return guest
        raise TrackingError(f"{what}: seat {seat} has no tracked guest on {self.board.name(loc)}")

    def _placed(self, event: Placed) -> None:
        waiting = [g for g in self.guests[event.seat] if g.location == WAITING]
        if not waiting:
            raise TrackingError(f"placement on {event.square}: seat {event.seat} has no guest waiting")
        guest = min(waiting, key=lambda g: (g.waiting_from, g.number))
        square = self._loc(event.square)
        guest.location = square
        guest.placements.append((self.round, square))
        guest.ledger(self.round)

    def _moved(self, event: GuestMoved) -> None:
        guest = self._guest_at(event.seat, self._loc(event.source), f"move {event.source}→{event.target}")
        guest.location = self._loc(event.target)
        self._last_mover = guest

    def _captured(self, event: Captured) -> None:
        square = self._loc(event.square)
        step = self._loc(event.step)
        for seat in sorted(set(event.seats)):
            caught = [g for g in self.guests[seat] if g.location == square]
            if len(caught) != event.seats.count(seat):
                raise TrackingError(
                    f"capture on {event.square}: {event.seats.count(seat)} guests of seat {seat} "
                    f"captured, {len(caught)} tracked there"
                )
            for guest in caught:
                guest.location = step
                ledger = guest.ledger(self.round)
                ledger.captures += 1
                ledger.capture_points += event.points
        others = [g for mine in self.guests for g in mine if g.location == square]
        if others:
            raise TrackingError(f"capture on {event.square} left tracked guests there: {others}")

    def _expelled(self, event: GuestExpelled) -> None:
        guest = self._guest_at(event.seat, self._loc(event.room), f"expulsion from {event.room}")
        guest.location = self._loc(event.square)

    def _score_changed(self, event: ScoreChanged) -> None:
        if event.reason in ("red room", "green room"):
            guest = self._last_mover
            if guest is None or guest.seat != event.seat:
                raise TrackingError(f"{event.reason} score for seat {event.seat} without a guest of it moving")
            guest.ledger(self.round).other_points += event.new - event.old

    def _sent_to_cellar(self, event: SentToCellar) -> None:
        guest = self._guest_at(event.seat, self._loc(event.square), f"round end on {event.square}")
        guest.location = self._loc(event.step)
        guest.ledger(self.round).sent_to_cellar = True

    def _round_ended(self, event: RoundEnded) -> None:
        """Book the round's end (RULES.md §8.5) and check it against the round's scores."""
        board = self.board
        rules = self.ruleset
        for seat, mine in enumerate(self.guests):
            booked = 0
            for guest in mine:
                ledger = guest.ledger(self.round)
                loc = guest.location
                if board.is_step(loc):
                    if ledger.sent_to_cellar:
                        ledger.other_points += board.step_value[loc]
                    elif not ledger.captures:  # captured before the tracker started watching
                        ledger.capture_points += board.step_value[loc]
                elif loc in board.red:
                    ledger.other_points += rules.red_points
                elif loc in board.green:
                    ledger.other_points += rules.green_points
                booked += ledger.points
            if booked != event.scores[seat]:
                raise TrackingError(
                    f"round {event.round}: seat {seat} scored {event.scores[seat]}, tracked guests booked {booked}"
                )

    def _round_started(self, event: RoundStarted) -> None:
        """RULES.md §8.6: rooms empty onto their doors, the cellar's guests wait to be placed."""
        board = self.board
        self.round = event.round
        for mine in self.guests:
            for guest in mine:
                loc = guest.location
                if board.is_room(loc):
                    guest.location = board.room(loc).door
                    guest.ledger(self.round)
                elif board.is_step(loc):
                    guest.location = WAITING
                    guest.waiting_from = loc - board.step_base
        queued = [g.seat for mine in self.guests for g in mine if g.location == WAITING]
        if sorted(queued) != sorted(event.place_queue):
            raise TrackingError(f"round {event.round}: queue {event.place_queue}, tracked waiting seats {queued}")

    def _game_over(self, event: GameOver) -> None:
        self.final_scores = event.scores
        self.winners = event.winners
        self.end_reason = event.reason
        if self.ruleset.scores_during_play:
            for seat, mine in enumerate(self.guests):
                booked = sum(ledger.points for guest in mine for ledger in guest.ledgers.values())
                change = event.scores[seat] - self.start_scores[seat]
                if booked != change:
                    raise TrackingError(f"seat {seat}: score changed by {change}, tracked guests booked {booked}")
