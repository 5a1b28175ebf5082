"""The games' reviews' table.

Declared on the one :data:`~ghostparty.server.infra.db.metadata`, so the migrations
(``ghostparty/server/infra/migrations``) and their test compare one schema.
"""

from __future__ import annotations

from sqlalchemy import JSON, Column, DateTime, Float, ForeignKey, String
from sqlalchemy import Table as SqlTable

from ghostparty.server.infra.db import metadata

# -- 0010: game reviews -----------------------------------------------------------------

#: A finished game's review (``ghostparty-review/1``), made once by the review jobs
#: (``reviews.py``); ``version`` is the review code's (:data:`~ghostparty.server.reviews.pool.REVIEW_VERSION`):
#: a review of another version is made again when asked for.
reviews = SqlTable(
    "gp_reviews",
    metadata,
    Column("table_id", String(16), ForeignKey("gp_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("version", String(32), nullable=False),
    Column("review", JSON, nullable=False),
    Column("computed", DateTime(timezone=True), nullable=False, index=True),
    Column("cpu_seconds", Float, nullable=False),
)

# -- 0021: deep reviews -----------------------------------------------------------------

#: A finished game's deep review (``ghostparty-review/1`` with ``"judge": "deep"``), made
#: only when asked for; beside the game's review in :data:`reviews`, with the same columns.
deep_reviews = SqlTable(
    "gp_deep_reviews",
    metadata,
    Column("table_id", String(16), ForeignKey("gp_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("version", String(32), nullable=False),
    Column("review", JSON, nullable=False),
    Column("computed", DateTime(timezone=True), nullable=False),
    Column("cpu_seconds", Float, nullable=False),
)
