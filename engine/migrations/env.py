"""Alembic environment: runs on the connection engine.ops.db hands over (no alembic.ini)."""

from alembic import context

from engine.models import Base

config = context.config
connection = config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, compare_type=True)
with context.begin_transaction():
    context.run_migrations()
