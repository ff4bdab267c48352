"""Model measurements: the router's false escalation rate and the generation qualification.

``model_measurements`` keeps one row per measurement (``kind`` router or generation) of one
chat model (``backend`` and ``model``), with its headline ``rate`` and every figure as JSON.
The engine uses a model router only when the latest router row for the model in use shows at
most 2 % false escalation; ``doctor`` shows the latest rows. The kiosk role may read it.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "model_measurements",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("backend", sa.String(length=20), nullable=False),
        sa.Column("model", sa.String(length=300), nullable=False),
        sa.Column(
            "measured_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column("questions", sa.Integer(), nullable=False),
        sa.Column("rate", sa.Double(), nullable=False),
        sa.Column("figures", postgresql.JSONB(), server_default="{}", nullable=False),
        sa.CheckConstraint("kind IN ('router', 'generation')", name="model_measurements_kind"),
        sa.CheckConstraint("rate >= 0 AND rate <= 1", name="model_measurements_rate"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "ix_model_measurements_latest",
        "model_measurements",
        ["kind", "backend", "model", "measured_at"],
    )
    # A kiosk reads the router's measurement before it may use the router (engine.answering.qualification).
    op.execute(
        "DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'clinic_kiosk') THEN "
        "GRANT SELECT ON model_measurements TO clinic_kiosk; END IF; END $$"
    )


def downgrade() -> None:
    op.drop_index("ix_model_measurements_latest", table_name="model_measurements")
    op.drop_table("model_measurements")
