"""The ladder tables: a ladder per game, its entrants with their current ratings, its matches.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql.sqltypes import AutoString, UTCDateTime

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A store that already has the ladder tables (made by a newer build) keeps them.
    existing = set(sa.inspect(op.get_bind()).get_table_names())
    if 'ladder' not in existing:
        op.create_table('ladder',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game', AutoString(), nullable=False),
        sa.Column('seed_key', AutoString(), nullable=False),
        sa.Column('settings_json', AutoString(), nullable=False),
        sa.Column('runner', AutoString(), nullable=False),
        sa.Column('heartbeat_ts', sa.Float(), nullable=False),
        sa.Column('created_at', UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint('id')
        )
        with op.batch_alter_table('ladder', schema=None) as batch_op:
            batch_op.create_index(batch_op.f('ix_ladder_game'), ['game'], unique=True)
    if 'ladderbot' not in existing:
        op.create_table('ladderbot',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('ladder_id', sa.Integer(), nullable=False),
        sa.Column('alias', AutoString(), nullable=False),
        sa.Column('spec', AutoString(), nullable=False),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('matches', sa.Integer(), nullable=False),
        sa.Column('wins', sa.Integer(), nullable=False),
        sa.Column('active', sa.Boolean(), nullable=False, server_default=sa.true()),
        sa.Column('added_at', UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['ladder_id'], ['ladder.id'], ),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('ladder_id', 'alias')
        )
        with op.batch_alter_table('ladderbot', schema=None) as batch_op:
            batch_op.create_index(batch_op.f('ix_ladderbot_ladder_id'), ['ladder_id'], unique=False)
    if 'laddermatch' not in existing:
        op.create_table('laddermatch',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('ladder_id', sa.Integer(), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('seed', sa.BigInteger(), nullable=False),
        sa.Column('aliases_json', AutoString(), nullable=False),
        sa.Column('status', AutoString(), nullable=False),
        sa.Column('rated', sa.Integer(), nullable=True),
        sa.Column('termination', AutoString(), nullable=False),
        sa.Column('reason', AutoString(), nullable=False),
        sa.Column('plies', sa.Integer(), nullable=False),
        sa.Column('duration_s', sa.Float(), nullable=False),
        sa.Column('seats_json', AutoString(), nullable=False),
        sa.Column('replay_json', AutoString(), nullable=False),
        sa.Column('scheduled_at', UTCDateTime(), nullable=False),
        sa.Column('finished_at', UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(['ladder_id'], ['ladder.id'], ),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('ladder_id', 'number')
        )
        with op.batch_alter_table('laddermatch', schema=None) as batch_op:
            batch_op.create_index(batch_op.f('ix_laddermatch_ladder_id'), ['ladder_id'], unique=False)
            batch_op.create_index(batch_op.f('ix_laddermatch_status'), ['status'], unique=False)
            batch_op.create_index('ix_laddermatch_ladder_rated', ['ladder_id', 'rated'], unique=False)


def downgrade() -> None:
    op.drop_table('laddermatch')
    op.drop_table('ladderbot')
    op.drop_table('ladder')
