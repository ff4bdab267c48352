"""The answer log records which prompt wrote each generated answer.

- ``answers.prompt_version`` (nullable: fixed sentences, extractive answers and answers logged
  before this revision had no prompt) holds ``engine.answering.prompting.PROMPT_VERSION``.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("answers", sa.Column("prompt_version", sa.String(length=32), nullable=True))


def downgrade() -> None:
    op.drop_column("answers", "prompt_version")
