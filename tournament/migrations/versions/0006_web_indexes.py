"""Indexes for the web pages: a bot's entries and its seats (the bot page's joins).

Revision ID: 0006
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0006'
down_revision = "0004"
branch_labels = None
depends_on = None

INDEXES = (('ix_entrant_bot_id', 'entrant', 'bot_id'), ('ix_matchseat_entrant_id', 'matchseat', 'entrant_id'))


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    for name, table, column in INDEXES:
        # A store that already has the index (made by hand or by another branch) keeps it.
        if name not in {ix['name'] for ix in inspector.get_indexes(table)}:
            op.create_index(name, table, [column], unique=False)


def downgrade() -> None:
    for name, table, _column in INDEXES:
        op.drop_index(name, table_name=table)
