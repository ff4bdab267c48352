"""SQLAlchemy 2 models: the schema of record.

The migrations in ``engine/migrations/versions`` create exactly these tables; a test compares them.
Rows never leave the engine: modules turn them into frozen dataclasses before returning.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from pgvector.sqlalchemy import Vector
from sqlalchemy import (
    CheckConstraint,
    Computed,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    func,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB, TSVECTOR
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

AUDIENCES = ("public", "staff")
DEFAULT_DIMENSION = 384

TSV_EXPRESSION = (
    "setweight(to_tsvector('english', coalesce(heading_path, '')), 'A') || "
    "setweight(to_tsvector('english', coalesce(text, '')), 'B')"
)


class Base(DeclarativeBase):
    pass


class EmbeddingConfig(Base):
    """One row: the embedding model every stored vector was made with."""

    __tablename__ = "embedding_config"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    model_name: Mapped[str] = mapped_column(String(200))
    dimension: Mapped[int] = mapped_column(Integer)
    model_sha256: Mapped[str | None] = mapped_column(String(64))
    similarity_floor: Mapped[float | None] = mapped_column()
    floor_calibrated_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))
    __table_args__ = (CheckConstraint("id = 1", name="embedding_config_single_row"),)


class ModelMeasurement(Base):
    """One measurement of a chat model (engine.answering.qualification): the router's false
    escalation or the qualification's useful-answer rate, with every figure as JSON."""

    __tablename__ = "model_measurements"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(20))
    backend: Mapped[str] = mapped_column(String(20))
    model: Mapped[str] = mapped_column(String(300))
    measured_at: Mapped[dt.datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
    questions: Mapped[int] = mapped_column(Integer)
    rate: Mapped[float] = mapped_column()
    figures: Mapped[dict[str, Any]] = mapped_column(JSONB, server_default="{}")
    __table_args__ = (
        CheckConstraint("kind IN ('router', 'generation')", name="model_measurements_kind"),
        CheckConstraint("rate >= 0 AND rate <= 1", name="model_measurements_rate"),
        Index("ix_model_measurements_latest", "kind", "backend", "model", "measured_at"),
    )


class Document(Base):
    __tablename__ = "documents"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    slug: Mapped[str] = mapped_column(String(200), unique=True)
    title: Mapped[str] = mapped_column(Text)
    audience: Mapped[str] = mapped_column(String(16))
    source_path: Mapped[str] = mapped_column(Text)
    source_folder: Mapped[str] = mapped_column(Text)
    content_hash: Mapped[str] = mapped_column(String(64))
    reviewed_on: Mapped[dt.date | None] = mapped_column(Date)
    ingested_at: Mapped[dt.datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
    ingested_by: Mapped[str | None] = mapped_column(String(100))
    # What the loader changed or guessed (dropped running headers, columns...), for staff.
    loader_warnings: Mapped[list[str]] = mapped_column(
        JSONB, server_default=text("'[]'::jsonb"), default=list
    )
    chunks: Mapped[list[Chunk]] = relationship(
        back_populates="document", cascade="all, delete-orphan", passive_deletes=True
    )
    __table_args__ = (
        CheckConstraint("audience IN ('public', 'staff')", name="documents_audience_check"),
    )


class Chunk(Base):
    __tablename__ = "chunks"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"))
    ordinal: Mapped[int] = mapped_column(Integer)
    heading_path: Mapped[str] = mapped_column(Text)
    text: Mapped[str] = mapped_column(Text)
    token_estimate: Mapped[int] = mapped_column(Integer)
    embedding: Mapped[Any] = mapped_column(Vector(DEFAULT_DIMENSION))
    tsv: Mapped[Any] = mapped_column(TSVECTOR, Computed(TSV_EXPRESSION, persisted=True))
    document: Mapped[Document] = relationship(back_populates="chunks")
    __table_args__ = (
        UniqueConstraint("document_id", "ordinal", name="chunks_document_ordinal_key"),
        Index(
            "chunks_embedding_hnsw",
            "embedding",
            postgresql_using="hnsw",
            postgresql_ops={"embedding": "vector_cosine_ops"},
        ),
        Index("chunks_tsv_gin", "tsv", postgresql_using="gin"),
    )


class AnswerRecord(Base):
    """Every answer shown, for the review queue. Retention is configurable."""

    __tablename__ = "answers"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created_at: Mapped[dt.datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now(), index=True
    )
    channel: Mapped[str] = mapped_column(String(20))  # kiosk | staff | cli
    username: Mapped[str | None] = mapped_column(String(100))
    audience: Mapped[str] = mapped_column(String(16))
    question: Mapped[str] = mapped_column(Text)
    route: Mapped[str] = mapped_column(String(32))
    route_reason: Mapped[str | None] = mapped_column(Text)
    outcome: Mapped[str] = mapped_column(String(32))
    shown_text: Mapped[str] = mapped_column(Text)
    original_text: Mapped[str | None] = mapped_column(Text)
    guard_reason: Mapped[str | None] = mapped_column(Text)
    citations: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, server_default=text("'[]'"))
    best_similarity: Mapped[float | None] = mapped_column()
    model: Mapped[str | None] = mapped_column(String(200))
    timings: Mapped[dict[str, float]] = mapped_column(JSONB, server_default=text("'{}'"))
    prompt_tokens: Mapped[int | None] = mapped_column(Integer)
    completion_tokens: Mapped[int | None] = mapped_column(Integer)
    prompt_version: Mapped[str | None] = mapped_column(String(32))  # engine.answering.prompting


class ReviewDecision(Base):
    """Append-only, hash-chained review decisions (a trigger forbids UPDATE and DELETE)."""

    __tablename__ = "review_decisions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    answer_id: Mapped[int] = mapped_column(ForeignKey("answers.id", ondelete="RESTRICT"))
    decision: Mapped[str] = mapped_column(String(32))
    comment: Mapped[str] = mapped_column(Text, server_default="")
    reviewer: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[dt.datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
    prev_hash: Mapped[str] = mapped_column(String(64))
    hash: Mapped[str] = mapped_column(String(64), unique=True)
    __table_args__ = (
        CheckConstraint(
            "decision IN ('needs_section', 'correct_refusal', 'other')",
            name="review_decisions_decision_check",
        ),
    )


class StaffUser(Base):
    __tablename__ = "staff_users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(100), unique=True)
    display_name: Mapped[str] = mapped_column(Text, server_default="")
    password_hash: Mapped[str] = mapped_column(Text)
    is_active: Mapped[bool] = mapped_column(server_default=text("true"))
    created_at: Mapped[dt.datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )


class AuditEvent(Base):
    __tablename__ = "audit_events"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    username: Mapped[str] = mapped_column(String(100))
    action: Mapped[str] = mapped_column(String(50), index=True)
    details: Mapped[dict[str, Any]] = mapped_column(JSONB, server_default=text("'{}'"))


class Department(Base):
    __tablename__ = "departments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)


class Clinician(Base):
    __tablename__ = "clinicians"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    department_id: Mapped[int] = mapped_column(ForeignKey("departments.id", ondelete="RESTRICT"))


class Slot(Base):
    __tablename__ = "slots"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    clinician_id: Mapped[int] = mapped_column(ForeignKey("clinicians.id", ondelete="RESTRICT"))
    starts_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    duration_minutes: Mapped[int] = mapped_column(Integer)
    __table_args__ = (
        UniqueConstraint("clinician_id", "starts_at", name="slots_clinician_start_key"),
        CheckConstraint("duration_minutes > 0", name="slots_duration_check"),
        Index("slots_starts_at", "starts_at"),
    )


class Appointment(Base):
    __tablename__ = "appointments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    slot_id: Mapped[int] = mapped_column(ForeignKey("slots.id", ondelete="RESTRICT"))
    reference: Mapped[str] = mapped_column(String(12), unique=True)
    patient_name: Mapped[str] = mapped_column(Text)
    contact_number: Mapped[str] = mapped_column(String(40))
    reason: Mapped[str] = mapped_column(Text, server_default="")
    # For the kiosk's self check-in (date of birth + first letter of the surname); optional
    # because appointments booked before it existed have none (they check in at reception).
    date_of_birth: Mapped[dt.date | None] = mapped_column(Date)
    status: Mapped[str] = mapped_column(String(16), server_default="booked")
    created_by: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[dt.datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
    cancelled_by: Mapped[str | None] = mapped_column(String(100))
    cancelled_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))
    __table_args__ = (
        CheckConstraint("status IN ('booked', 'cancelled')", name="appointments_status_check"),
        # A slot can hold one live booking, whatever the application did.
        Index(
            "appointments_one_booking_per_slot",
            "slot_id",
            unique=True,
            postgresql_where=text("status = 'booked'"),
        ),
    )


QUEUE_STATES = ("arrived", "called", "in_consultation", "done", "no_show", "cancelled")


class QueueEntry(Base):
    """One person in today's waiting room: a checked-in appointment or a walk-in.

    ``booked`` is the appointment's own state; an entry exists from arrival on. A trigger
    (migration) sends ``NOTIFY clinic_queue`` with the entry id, state, ticket and room on every
    insert and update, never a name.
    """

    __tablename__ = "queue_entries"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    day: Mapped[dt.date] = mapped_column(Date)
    ticket: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(10))  # booked | walk_in
    appointment_id: Mapped[int | None] = mapped_column(
        ForeignKey("appointments.id", ondelete="RESTRICT"), unique=True
    )
    department_id: Mapped[int] = mapped_column(ForeignKey("departments.id", ondelete="RESTRICT"))
    clinician_id: Mapped[int | None] = mapped_column(
        ForeignKey("clinicians.id", ondelete="RESTRICT")
    )
    walk_in_name: Mapped[str | None] = mapped_column(Text)
    state: Mapped[str] = mapped_column(String(20), server_default="arrived")
    late: Mapped[bool] = mapped_column(server_default=text("false"))
    room: Mapped[str | None] = mapped_column(String(40))
    arrived_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    called_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))
    updated_by: Mapped[str] = mapped_column(String(100))
    __table_args__ = (
        UniqueConstraint("day", "ticket", name="queue_entries_day_ticket_key"),
        CheckConstraint(
            "state IN ('arrived', 'called', 'in_consultation', 'done', 'no_show', 'cancelled')",
            name="queue_entries_state_check",
        ),
        CheckConstraint("kind IN ('booked', 'walk_in')", name="queue_entries_kind_check"),
        CheckConstraint(
            "(kind = 'booked') = (appointment_id IS NOT NULL)", name="queue_entries_kind_link"
        ),
        Index("queue_entries_day_state", "day", "state"),
    )


class CheckInAttempt(Base):
    """Failed self check-in lookups per kiosk, so guessing dates of birth is rate-limited."""

    __tablename__ = "check_in_attempts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    source: Mapped[str] = mapped_column(String(100))
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    __table_args__ = (Index("check_in_attempts_source_at", "source", "at"),)


class Alert(Base):
    """A reception alert: a kiosk emergency (made by a trigger on ``answers``) or "call staff"."""

    __tablename__ = "alerts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(12))  # emergency | help
    source: Mapped[str] = mapped_column(String(100))
    answer_id: Mapped[int | None] = mapped_column(ForeignKey("answers.id", ondelete="SET NULL"))
    created_at: Mapped[dt.datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
    responded_by: Mapped[str | None] = mapped_column(String(100))
    responded_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))
    __table_args__ = (
        CheckConstraint("kind IN ('emergency', 'help')", name="alerts_kind_check"),
        Index("alerts_open", "responded_at", "created_at"),
    )


class SignInSecret(Base):
    """Owner-only: the secret behind the fake salt shown for unknown usernames (migration 0008)."""

    __tablename__ = "sign_in_secret"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    secret: Mapped[str] = mapped_column(Text)
    __table_args__ = (CheckConstraint("id = 1", name="sign_in_secret_single_row"),)


class SignInThrottle(Base):
    """Failed sign-ins per account ('account:NAME') and per machine ('machine:HOST')."""

    __tablename__ = "sign_in_throttle"
    key: Mapped[str] = mapped_column(Text, primary_key=True)
    failures: Mapped[int] = mapped_column(Integer, server_default="0")
    last_failure_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))
    blocked_until: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))
