"""Alembic's environment: migrations run on the connection :func:`~ghostparty.server.infra.db.migrate`
hands over (never from a URL in a file)."""

from alembic import context

from ghostparty.server.infra.db import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
