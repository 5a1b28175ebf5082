"""The game server: tables, seats, actions and bot turns, over HTTP and WebSocket.

Packages, inside out, each importing only those before it (import-linter's contracts in
pyproject.toml): :mod:`.common` (errors, the messages to clients, the tables' model);
:mod:`.infra` (database, Redis, rate limits, logs) beside :mod:`.wire` (a table as its
clients see it); :mod:`.bus` (the pub/sub between instances); :mod:`.tables` (the table
service, the authority: it knows no transport); :mod:`.accounts`; the other domains side by
side, none importing another (:mod:`.community`, :mod:`.mail`, :mod:`.botapi`,
:mod:`.quickmatch`, :mod:`.tournaments`, :mod:`.reviews`, :mod:`.opendata`); :mod:`.stores`
(each domain's store side by side on one database) beside :mod:`.http` (the edge: what clients may send, the routes,
the sockets); :mod:`.wiring` (every part of an instance made in one place) and :mod:`.app`
(the Starlette application). docs/PROTOCOL.md is the contract with clients.
"""

from ghostparty.server.tables.service import ServiceError, TableService

__all__ = ["ServiceError", "TableService"]
