"""The tournament's lease: tournament.runner and tournament.heartbeat_ts (tournament/lease.py).

One driver at a time plays a tournament; a `resume` while another process plays it is refused. A
tournament stored before this has no runner ("", heartbeat 0): free to resume, as it was.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql.sqltypes import AutoString

revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A store that already has the columns (made by a newer build) keeps them.
    columns = {c['name'] for c in sa.inspect(op.get_bind()).get_columns('tournament')}
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        if 'runner' not in columns:
            batch_op.add_column(sa.Column('runner', AutoString(), nullable=False, server_default=''))
        if 'heartbeat_ts' not in columns:
            batch_op.add_column(sa.Column('heartbeat_ts', sa.Float(), nullable=False, server_default='0'))


def downgrade() -> None:
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.drop_column('heartbeat_ts')
        batch_op.drop_column('runner')
