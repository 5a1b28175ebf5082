"""The game server: tables, seats, actions and bot turns, over HTTP and WebSocket.

Layers, inside out: :mod:`.model` (tables as values), :mod:`.store` (persistence through
SQLAlchemy), :mod:`.pubsub` (change notices between server instances), :mod:`.service`
(the authority: it knows no transport), :mod:`.schemas` (what clients may send) and
:mod:`.app` (the Starlette application that only decodes, calls the service and
encodes). docs/PROTOCOL.md is the contract with clients.
"""

from ghostparty.server.tables.service import ServiceError, TableService

__all__ = ["ServiceError", "TableService"]
