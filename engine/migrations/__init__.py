"""Alembic migrations. Applied by ``clinic-assistant db upgrade`` and on first start."""
