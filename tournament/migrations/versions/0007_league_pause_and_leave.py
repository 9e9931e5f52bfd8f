"""Leagues can be paused, and a member can leave: league.paused, leaguemember.left_ts.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0007'
down_revision = "0006"
branch_labels = None
depends_on = None


def _columns(table: str) -> set[str]:
    return {c['name'] for c in sa.inspect(op.get_bind()).get_columns(table)}


def upgrade() -> None:
    # A store that already has the columns (made by a newer build) keeps them.
    if 'paused' not in _columns('league'):
        with op.batch_alter_table('league', schema=None) as batch_op:
            batch_op.add_column(sa.Column('paused', sa.Boolean(), nullable=False, server_default=sa.false()))
    if 'left_ts' not in _columns('leaguemember'):
        with op.batch_alter_table('leaguemember', schema=None) as batch_op:
            batch_op.add_column(sa.Column('left_ts', sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('leaguemember', schema=None) as batch_op:
        batch_op.drop_column('left_ts')
    with op.batch_alter_table('league', schema=None) as batch_op:
        batch_op.drop_column('paused')
