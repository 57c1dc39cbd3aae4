"""Alembic environment: migrations run on the connection the application hands over.

``storage.database.Database.migrate`` puts a synchronous connection into
``config.attributes["connection"]`` and calls ``alembic.command.upgrade``.
"""

from __future__ import annotations

from alembic import context

from storage.schema import metadata

config = context.config
connection = config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through storage.database.Database.migrate()")

context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=True,  # SQLite alters tables by copying them
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
