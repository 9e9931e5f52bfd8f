"""Initial results tables: bots, tournaments, entrants, matches, seats, ratings, OpenSkill ratings.

Revision ID: 0001
Revises: (none)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql.sqltypes import AutoString, UTCDateTime

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('bot',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', AutoString(), nullable=False),
    sa.Column('spec', AutoString(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('bot', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_bot_name'), ['name'], unique=True)

    op.create_table('tournament',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', AutoString(), nullable=False),
    sa.Column('game', AutoString(), nullable=False),
    sa.Column('format', AutoString(), nullable=False),
    sa.Column('players', sa.Integer(), nullable=False),
    sa.Column('seed', sa.BigInteger(), nullable=False),
    sa.Column('config_json', AutoString(), nullable=False),
    sa.Column('settings_json', AutoString(), nullable=False),
    sa.Column('status', AutoString(), nullable=False),
    sa.Column('created_at', UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('entrant',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('bot_id', sa.Integer(), nullable=False),
    sa.Column('alias', AutoString(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['bot_id'], ['bot.id'], ),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournament.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('tournament_id', 'alias')
    )
    with op.batch_alter_table('entrant', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_entrant_tournament_id'), ['tournament_id'], unique=False)

    op.create_table('match',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=True),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('game', AutoString(), nullable=False),
    sa.Column('seed', sa.BigInteger(), nullable=False),
    sa.Column('players', sa.Integer(), nullable=False),
    sa.Column('config_json', AutoString(), nullable=False),
    sa.Column('termination', AutoString(), nullable=False),
    sa.Column('reason', AutoString(), nullable=False),
    sa.Column('plies', sa.Integer(), nullable=False),
    sa.Column('duration_s', sa.Float(), nullable=False),
    sa.Column('replay_json', AutoString(), nullable=False),
    sa.Column('details_json', AutoString(), nullable=False),
    sa.Column('finished_at', UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournament.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('tournament_id', 'number')
    )
    with op.batch_alter_table('match', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_match_tournament_id'), ['tournament_id'], unique=False)

    op.create_table('rating',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('alias', AutoString(), nullable=False),
    sa.Column('rating', sa.Float(), nullable=False),
    sa.Column('low', sa.Float(), nullable=False),
    sa.Column('high', sa.Float(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournament.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('tournament_id', 'alias')
    )
    with op.batch_alter_table('rating', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_rating_tournament_id'), ['tournament_id'], unique=False)

    op.create_table('skillrating',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('alias', AutoString(), nullable=False),
    sa.Column('mu', sa.Float(), nullable=False),
    sa.Column('sigma', sa.Float(), nullable=False),
    sa.Column('buchholz', sa.Float(), nullable=False),
    sa.Column('sonneborn_berger', sa.Float(), nullable=False),
    sa.Column('direct', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournament.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('tournament_id', 'alias')
    )
    with op.batch_alter_table('skillrating', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_skillrating_tournament_id'), ['tournament_id'], unique=False)

    op.create_table('matchseat',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('entrant_id', sa.Integer(), nullable=True),
    sa.Column('alias', AutoString(), nullable=False),
    sa.Column('tier', sa.Integer(), nullable=False),
    sa.Column('points', sa.Float(), nullable=False),
    sa.Column('score', sa.Float(), nullable=False),
    sa.Column('decisions', sa.Integer(), nullable=False),
    sa.Column('think_s', sa.Float(), nullable=False),
    sa.Column('faults_json', AutoString(), nullable=False),
    sa.ForeignKeyConstraint(['entrant_id'], ['entrant.id'], ),
    sa.ForeignKeyConstraint(['match_id'], ['match.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('matchseat', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_matchseat_match_id'), ['match_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('matchseat', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_matchseat_match_id'))

    op.drop_table('matchseat')
    with op.batch_alter_table('skillrating', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_skillrating_tournament_id'))

    op.drop_table('skillrating')
    with op.batch_alter_table('rating', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_rating_tournament_id'))

    op.drop_table('rating')
    with op.batch_alter_table('match', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_match_tournament_id'))

    op.drop_table('match')
    with op.batch_alter_table('entrant', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_entrant_tournament_id'))

    op.drop_table('entrant')
    op.drop_table('tournament')
    with op.batch_alter_table('bot', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_bot_name'))

    op.drop_table('bot')
