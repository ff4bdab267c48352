"""Documents keep the warnings their loader raised at ingest, for the staff app's Knowledge tab.

- ``documents.loader_warnings`` (JSON list of short sentences, ``[]`` by default): what the loader
  changed or guessed (running headers dropped, two columns read in order, table rows rebuilt,
  text boxes and footnotes read, long paragraphs split). Written by ``engine.knowledge.ingest`` with each
  new version of a document.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "documents",
        sa.Column(
            "loader_warnings", JSONB(), nullable=False, server_default=sa.text("'[]'::jsonb")
        ),
    )


def downgrade() -> None:
    op.drop_column("documents", "loader_warnings")
