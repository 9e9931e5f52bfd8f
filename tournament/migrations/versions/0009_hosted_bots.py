"""Hosted bots: hostedbot, hostedversion, bundleblob (creates only these tables).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql.sqltypes import AutoString, UTCDateTime

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    tables = set(sa.inspect(op.get_bind()).get_table_names())
    if 'hostedbot' not in tables:
        op.create_table(
            'hostedbot',
            sa.Column('id', sa.Integer(), nullable=False),
            sa.Column('name', AutoString(), nullable=False),
            sa.Column('retired', sa.Boolean(), nullable=False),
            sa.Column('token_hash', AutoString(), nullable=False),
            sa.Column('created_at', UTCDateTime(), nullable=False),
            sa.PrimaryKeyConstraint('id'),
        )
        op.create_index(op.f('ix_hostedbot_name'), 'hostedbot', ['name'], unique=True)
    if 'hostedversion' not in tables:
        op.create_table(
            'hostedversion',
            sa.Column('id', sa.Integer(), nullable=False),
            sa.Column('bot_id', sa.Integer(), nullable=False),
            sa.Column('version', sa.Integer(), nullable=False),
            sa.Column('sha256', AutoString(), nullable=False),
            sa.Column('run', AutoString(), nullable=False),
            sa.Column('games_json', AutoString(), nullable=False),
            sa.Column('files', sa.Integer(), nullable=False),
            sa.Column('size', sa.Integer(), nullable=False),
            sa.Column('status', AutoString(), nullable=False),
            sa.Column('status_reason', AutoString(), nullable=False),
            sa.Column('log_tail', AutoString(), nullable=False),
            sa.Column('created_at', UTCDateTime(), nullable=False),
            sa.PrimaryKeyConstraint('id'),
            sa.UniqueConstraint('bot_id', 'version'),
        )
        op.create_index(op.f('ix_hostedversion_bot_id'), 'hostedversion', ['bot_id'], unique=False)
        op.create_index(op.f('ix_hostedversion_sha256'), 'hostedversion', ['sha256'], unique=False)
    if 'bundleblob' not in tables:
        op.create_table(
            'bundleblob',
            sa.Column('sha256', AutoString(), nullable=False),
            sa.Column('data', sa.LargeBinary(), nullable=False),
            sa.PrimaryKeyConstraint('sha256'),
        )


def downgrade() -> None:
    op.drop_table('bundleblob')
    op.drop_index(op.f('ix_hostedversion_sha256'), table_name='hostedversion')
    op.drop_index(op.f('ix_hostedversion_bot_id'), table_name='hostedversion')
    op.drop_table('hostedversion')
    op.drop_index(op.f('ix_hostedbot_name'), table_name='hostedbot')
    op.drop_table('hostedbot')
