"""One event stream per bot account, on every instance: a lease.

A bot's stream hands out fresh seat tokens, each voiding the one before, so two streams
of one account would take each other's seats. Opening one takes the account's lease
``bot-stream:{id}`` (:mod:`ghostparty.server.bus.leases`: through Redis where the instances share one, else
in this process) for :data:`TTL` seconds; the open stream renews it every third of that
and gives it back when it ends. Any other stream of the account, on any instance, is
refused with ``stream_open`` (409) meanwhile. A stream of an instance that died (SIGKILL)
stops renewing, so its lease lapses within :data:`TTL` seconds and the bot connects
again then.

The check and the mark are one step on an instance (:attr:`StreamLeases.open_here`,
with no wait between them), so many streams opened at once give exactly one. If the
leases can't be reached (Redis away), a stream opens on that guard alone (one per
account on this instance) and open streams go on; once the leases answer again, a
stream whose lease another stream took meanwhile ends.
"""

from __future__ import annotations

import asyncio
import logging
import secrets

from ghostparty.server.bus.leases import Leases, MemoryLeases
from ghostparty.server.common.errors import ErrorCode, ServiceError

log = logging.getLogger("ghostparty.server")

#: Seconds a stream's lease lasts unless renewed: the longest a bot waits to connect
#: again after its stream's instance died.
TTL = 10.0


def lease_name(player_id: int) -> str:
    return f"bot-stream:{player_id}"


class StreamLease:
    """An open stream's hold on its account's lease (:meth:`StreamLeases.take`)."""

    def __init__(self, streams: StreamLeases, player_id: int) -> None:
        self.streams = streams
        self.player_id = player_id
        self.name = lease_name(player_id)
        #: This stream's own name as the lease's holder (this instance's, and random).
        self.owner = f"{streams.instance}:{secrets.token_hex(6)}"
        self.closed = False
        self._keeping: asyncio.Task[None] | None = None

    def keep(self, gone: asyncio.Event) -> None:
        """Renew the lease every third of its time until :meth:`close`; set ``gone`` if
        another stream holds it (it lapsed, or a restarted Redis forgot it and another
        took it first). While the leases can't be reached, the stream goes on."""
        if self._keeping is None and not self.closed:
            self._keeping = asyncio.get_running_loop().create_task(self._renew(gone))

    async def _renew(self, gone: asyncio.Event) -> None:
        streams = self.streams
        failing = False
        while not self.closed:
            await asyncio.sleep(streams.ttl / 3)
            try:  # taking it again renews it, and takes it back where Redis forgot it
                held = await streams.leases.acquire(self.name, self.owner, streams.ttl)
            except Exception as error:
                if not failing:
                    log.warning("renewing a bot stream's lease failed (%s); the stream goes on", error)
                failing = True
                continue
            failing = False
            if not held:
                log.warning("bot account %d's stream lost its lease to another stream: ending it", self.player_id)
                gone.set()
                return

    async def close(self) -> None:
        """Stop renewing and give the lease back, once; the giving back finishes even if
        the stream's task is being cancelled (a failure leaves the lease to lapse)."""
        if self.closed:
            return
        self.closed = True
        self.streams.open_here.discard(self.player_id)
        if self._keeping is not None:
            self._keeping.cancel()
        await asyncio.shield(self._give_back())

    async def _give_back(self) -> None:
        try:
            await self.streams.leases.release(self.name, self.owner)
        except Exception as error:
            log.warning("giving back a bot stream's lease failed (%s); it lapses in %g s", error, self.streams.ttl)


class StreamLeases:
    """The leases of bot streams over ``leases``, for the instance named ``instance``."""

    def __init__(self, leases: Leases | None = None, instance: str = "alone", *, ttl: float = TTL) -> None:
        self.leases: Leases = leases or MemoryLeases()
        self.instance = instance
        self.ttl = ttl
        #: Accounts with a stream open (or opening) on this instance.
        self.open_here: set[int] = set()

    async def take(self, player_id: int) -> StreamLease:
        """The account's lease for a new stream; ``stream_open`` (409) while another
        stream of the account holds it, here or on another instance."""
        if player_id in self.open_here:
            raise _open()
        self.open_here.add(player_id)  # checked and marked in one step: no wait between
        lease = StreamLease(self, player_id)
        try:
            taken = await self.leases.acquire(lease.name, lease.owner, self.ttl)
        except Exception as error:
            log.warning("taking a bot stream's lease failed (%s); one stream per account on this instance", error)
            taken = True
        except BaseException:  # cancelled: the stream never opens
            self.open_here.discard(player_id)
            raise
        if not taken:
            self.open_here.discard(player_id)
            raise _open()
        return lease


def _open() -> ServiceError:
    return ServiceError(
        ErrorCode.STREAM_OPEN,
        "this bot account has a stream open already (here or on another instance): close it first",
    )
