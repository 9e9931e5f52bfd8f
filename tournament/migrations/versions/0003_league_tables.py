"""The league tables (until now made by create_all on first use).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql.sqltypes import AutoString

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A store that held leagues before this revision already has their tables: keep them.
    existing = set(sa.inspect(op.get_bind()).get_table_names())

    if 'league' not in existing:
        op.create_table('league',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('name', AutoString(), nullable=False),
        sa.Column('game', AutoString(), nullable=False),
        sa.Column('format', AutoString(), nullable=False),
        sa.Column('schedule', AutoString(), nullable=False),
        sa.Column('rounds_per_season', sa.Integer(), nullable=True),
        sa.Column('divisions', sa.Integer(), nullable=False),
        sa.Column('promote', sa.Integer(), nullable=False),
        sa.Column('games_per_pair', sa.Integer(), nullable=False),
        sa.Column('players', sa.Integer(), nullable=False),
        sa.Column('move_ms', sa.Integer(), nullable=True),
        sa.Column('config_json', AutoString(), nullable=False),
        sa.Column('seed', sa.Integer(), nullable=False),
        sa.Column('anchor_ts', sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint('id')
        )
        with op.batch_alter_table('league', schema=None) as batch_op:
            batch_op.create_index(batch_op.f('ix_league_name'), ['name'], unique=True)

    if 'leaguedivision' not in existing:
        op.create_table('leaguedivision',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('league_id', sa.Integer(), nullable=False),
        sa.Column('season', sa.Integer(), nullable=False),
        sa.Column('division', sa.Integer(), nullable=False),
        sa.Column('tournament_id', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('league_id', 'season', 'division')
        )
        with op.batch_alter_table('leaguedivision', schema=None) as batch_op:
            batch_op.create_index(batch_op.f('ix_leaguedivision_league_id'), ['league_id'], unique=False)

    if 'leaguemember' not in existing:
        op.create_table('leaguemember',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('league_id', sa.Integer(), nullable=False),
        sa.Column('alias', AutoString(), nullable=False),
        sa.Column('spec', AutoString(), nullable=False),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('division', sa.Integer(), nullable=True),
        sa.Column('joined_ts', sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('league_id', 'alias')
        )
        with op.batch_alter_table('leaguemember', schema=None) as batch_op:
            batch_op.create_index(batch_op.f('ix_leaguemember_league_id'), ['league_id'], unique=False)

    if 'leagueround' not in existing:
        op.create_table('leagueround',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('league_id', sa.Integer(), nullable=False),
        sa.Column('slot', sa.Integer(), nullable=False),
        sa.Column('season', sa.Integer(), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('due_ts', sa.Float(), nullable=False),
        sa.Column('status', AutoString(), nullable=False),
        sa.Column('owner', AutoString(), nullable=False),
        sa.Column('claimed_ts', sa.Float(), nullable=False),
        sa.Column('matches', sa.Integer(), nullable=False),
        sa.Column('forfeits', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('league_id', 'slot')
        )
        with op.batch_alter_table('leagueround', schema=None) as batch_op:
            batch_op.create_index(batch_op.f('ix_leagueround_league_id'), ['league_id'], unique=False)

    if 'leagueseason' not in existing:
        op.create_table('leagueseason',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('league_id', sa.Integer(), nullable=False),
        sa.Column('season', sa.Integer(), nullable=False),
        sa.Column('rounds', sa.Integer(), nullable=False),
        sa.Column('started_ts', sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('league_id', 'season')
        )
        with op.batch_alter_table('leagueseason', schema=None) as batch_op:
            batch_op.create_index(batch_op.f('ix_leagueseason_league_id'), ['league_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('leagueseason', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_leagueseason_league_id'))

    op.drop_table('leagueseason')
    with op.batch_alter_table('leagueround', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_leagueround_league_id'))

    op.drop_table('leagueround')
    with op.batch_alter_table('leaguemember', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_leaguemember_league_id'))

    op.drop_table('leaguemember')
    with op.batch_alter_table('leaguedivision', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_leaguedivision_league_id'))

    op.drop_table('leaguedivision')
    with op.batch_alter_table('league', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_league_name'))

    op.drop_table('league')
