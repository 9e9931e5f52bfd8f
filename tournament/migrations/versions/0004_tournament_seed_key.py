"""The tournament's seed key: the organiser's secret behind every match seed.

Tournaments stored before it get the empty key, which keeps their old unkeyed match seeds.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql.sqltypes import AutoString

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A store made by create_all from newer models already has the column: keep it.
    columns = {c['name'] for c in sa.inspect(op.get_bind()).get_columns('tournament')}
    if 'seed_key' not in columns:
        with op.batch_alter_table('tournament', schema=None) as batch_op:
            batch_op.add_column(sa.Column('seed_key', AutoString(), nullable=False, server_default=''))


def downgrade() -> None:
    with op.batch_alter_table('tournament', schema=None) as batch_op:
        batch_op.drop_column('seed_key')
