"""Drop the match table's index on tournament_id alone.

The unique (tournament_id, number) constraint's own index serves every read by tournament as well (its first
column), so the second index only cost each stored match an extra B-tree insert (~0.8 us of the shortest
matches' ~37 us a run spends beside playing them, issue 32). Dropping an index keeps every row.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None

INDEX = 'ix_match_tournament_id'


def upgrade() -> None:
    # A store made without it (stamped from the models) has nothing to drop.
    if INDEX in {ix['name'] for ix in sa.inspect(op.get_bind()).get_indexes('match')}:
        op.drop_index(INDEX, table_name='match')


def downgrade() -> None:
    op.create_index(INDEX, 'match', ['tournament_id'], unique=False)
