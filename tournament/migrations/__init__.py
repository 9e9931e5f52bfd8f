"""Alembic migrations for the results store (run by tournament.store.database.open_store)."""
