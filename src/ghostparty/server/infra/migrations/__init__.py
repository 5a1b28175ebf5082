"""Alembic migrations of the server's database (see :mod:`ghostparty.server.infra.db`)."""
