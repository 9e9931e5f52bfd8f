"""Alembic migrations for the results store (run by tournament.store.open_store)."""
