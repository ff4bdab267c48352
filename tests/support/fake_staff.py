"""In-memory fakes of the staff app's services: booking, users, review and knowledge.

They implement the same methods as ``engine.frontdesk.booking.BookingService``,
``engine.frontdesk.users.UserService``, ``engine.frontdesk.review.ReviewService`` and
``staff_app.services.KnowledgeBackend``, keep every call for assertions, and can be told to fail.
Optional ``gate`` events make a call block until a test releases it, so tests can prove work runs
off the GUI thread.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from engine.errors import AuthenticationFailed, BookingError, SlotTaken, ValidationError
from engine.knowledge.catalog import DocumentInfo, EmbeddingInfo
from engine.knowledge.ingest.results import IngestReport, IngestResult

try:  # the real view types, when the booking module has landed
    from engine.frontdesk.booking import AppointmentView, BookingRequest, SlotView
except ImportError:  # pragma: no cover - contract stand-ins

    @dataclass(frozen=True)
    class SlotView:  # type: ignore[no-redef]
        slot_id: int
        starts_at: dt.datetime
        duration_minutes: int
        clinician_id: int
        clinician: str
        department: str
        is_free: bool = True

    @dataclass(frozen=True)
    class AppointmentView:  # type: ignore[no-redef]
        reference: str
        slot: SlotView
        patient_name: str
        contact_number: str
        reason: str
        status: str
        created_by: str
        created_at: dt.datetime

    @dataclass(frozen=True)
    class BookingRequest:  # type: ignore[no-redef]
        slot_id: int
        patient_name: str
        contact_number: str
        reason: str = ""


try:
    from engine.frontdesk.users import StaffUserView
except ImportError:  # pragma: no cover

    @dataclass(frozen=True)
    class StaffUserView:  # type: ignore[no-redef]
        username: str
        display_name: str
        is_active: bool = True


try:
    from engine.frontdesk.review import ReviewItem
except ImportError:  # pragma: no cover

    @dataclass(frozen=True)
    class ReviewItem:  # type: ignore[no-redef]
        answer_id: int
        created_at: dt.datetime
        channel: str
        audience: str
        question: str
        route: str
        outcome: str
        shown_text: str
        original_text: str | None
        guard_reason: str | None
        decision: str | None = None
        decided_by: str | None = None
        comment: str | None = None


LONDON = dt.timezone(dt.timedelta(hours=0))
MONDAY = dt.date(2025, 3, 10)

CLINICIANS = [
    (1, "Dr Amelia Hart", "General Practice"),
    (2, "Dr Samuel Okafor", "General Practice"),
    (3, "Nurse Priya Shah", "Nursing"),
    (4, "Dr Lena Fischer", "Physiotherapy"),
]


def make_slots(day: dt.date = MONDAY, days: int = 3) -> list[SlotView]:
    slots: list[SlotView] = []
    slot_id = 100
    for offset in range(days):
        date = day + dt.timedelta(days=offset)
        for clinician_id, name, department in CLINICIANS:
            for hour, minute in ((9, 0), (9, 30), (11, 0), (14, 0), (15, 30)):
                slot_id += 1
                slots.append(
                    SlotView(
                        slot_id=slot_id,
                        starts_at=dt.datetime.combine(date, dt.time(hour, minute), LONDON),
                        duration_minutes=20 if department == "Nursing" else 15,
                        clinician_id=clinician_id,
                        clinician=name,
                        department=department,
                        is_free=True,
                    )
                )
    return slots


@dataclass
class FakeBooking:
    slots: list[SlotView] = field(default_factory=make_slots)
    appointments: dict[str, AppointmentView] = field(default_factory=dict)
    taken: set[int] = field(default_factory=set)  # booking these raises SlotTaken
    validation: ValidationError | None = None  # raised by the next book()
    failure: Exception | None = None  # raised by every call
    calls: list[tuple[str, tuple[Any, ...]]] = field(default_factory=list)
    counter: int = 0

    def _record(self, name: str, *args: Any) -> None:
        self.calls.append((name, args))
        if self.failure is not None:
            raise self.failure

    def departments(self) -> list[str]:
        self._record("departments")
        return sorted({d for _, _, d in CLINICIANS})

    def clinicians(self, department: str | None = None) -> list[tuple[int, str, str]]:
        self._record("clinicians", department)
        return [c for c in CLINICIANS if department in (None, c[2])]

    def _booked_slot_ids(self) -> set[int]:
        return {a.slot.slot_id for a in self.appointments.values() if a.status == "booked"}

    def find_free_slots(
        self,
        query: str = "",
        date_from: dt.date | None = None,
        date_to: dt.date | None = None,
        part_of_day: str = "any",
        limit: int = 50,
    ) -> list[SlotView]:
        self._record("find_free_slots", query, date_from, date_to, part_of_day, limit)
        words = query.lower().split()
        booked = self._booked_slot_ids()
        found = []
        for slot in self.slots:
            text = f"{slot.clinician} {slot.department}".lower()
            day = slot.starts_at.date()
            if slot.slot_id in booked or not all(w in text for w in words):
                continue
            if (date_from and day < date_from) or (date_to and day > date_to):
                continue
            hour = slot.starts_at.hour
            if (part_of_day == "morning" and hour >= 12) or (
                part_of_day == "afternoon" and hour < 12
            ):
                continue
            found.append(slot)
        return found[:limit]

    def _slot(self, slot_id: int) -> SlotView:
        for slot in self.slots:
            if slot.slot_id == slot_id:
                return slot
        raise BookingError(f"There is no slot {slot_id}.")

    def book(self, request: BookingRequest, user: str) -> AppointmentView:
        self._record("book", request, user)
        if self.validation is not None:
            error, self.validation = self.validation, None
            raise error
        slot = self._slot(request.slot_id)
        if request.slot_id in self.taken or request.slot_id in self._booked_slot_ids():
            self.taken.discard(request.slot_id)
            alternatives = [
                s for s in self.find_free_slots(slot.clinician) if s.slot_id != request.slot_id
            ][:3]
            error = SlotTaken("That slot was booked by someone else a moment ago.", alternatives)
            # From now on the slot really is taken.
            self.appointments[f"X{request.slot_id}"] = AppointmentView(
                f"X{request.slot_id}", slot, "Someone else", "0", "", "booked", "bob", _now()
            )
            raise error
        self.counter += 1
        reference = f"RFC-{4800 + self.counter}"
        view = AppointmentView(
            reference=reference,
            slot=replace(slot, is_free=False),
            patient_name=request.patient_name,
            contact_number=request.contact_number,
            reason=request.reason,
            status="booked",
            created_by=user,
            created_at=_now(),
        )
        self.appointments[reference] = view
        return view

    def cancel(self, reference: str, user: str) -> AppointmentView:
        self._record("cancel", reference, user)
        view = replace(self.get(reference), status="cancelled")
        self.appointments[reference] = view
        return view

    def reschedule(self, reference: str, new_slot_id: int, user: str) -> AppointmentView:
        self._record("reschedule", reference, new_slot_id, user)
        view = replace(self.get(reference), slot=self._slot(new_slot_id))
        self.appointments[reference] = view
        return view

    def day_view(self, day: dt.date, clinician_id: int | None = None) -> list[AppointmentView]:
        self._record("day_view", day, clinician_id)
        return sorted(
            (
                a
                for a in self.appointments.values()
                if a.slot.starts_at.date() == day and clinician_id in (None, a.slot.clinician_id)
            ),
            key=lambda a: a.slot.starts_at,
        )

    def search(self, text: str) -> list[AppointmentView]:
        self._record("search", text)
        needle = text.lower().strip()
        return [
            a
            for a in self.appointments.values()
            if needle in a.reference.lower()
            or needle in a.patient_name.lower()
            or needle.replace(" ", "") in a.contact_number.replace(" ", "")
        ]

    def get(self, reference: str) -> AppointmentView:
        try:
            return self.appointments[reference]
        except KeyError:
            raise BookingError(f"No appointment has the reference {reference}.") from None


def _now() -> dt.datetime:
    return dt.datetime(2025, 3, 7, 10, 15, tzinfo=dt.UTC)


@dataclass
class FakeUsers:
    passwords: dict[str, str] = field(default_factory=lambda: {"alice": "correct horse"})
    names: dict[str, str] = field(default_factory=lambda: {"alice": "Alice Moreno"})
    attempts: list[str] = field(default_factory=list)
    disabled: set[str] = field(default_factory=set)  # accounts switched off since sign-in
    checks: list[str] = field(default_factory=list)  # check_active calls (worker threads)

    def check_active(self, username: str) -> None:
        self.checks.append(username)
        if username in self.disabled or username not in self.passwords:
            raise AuthenticationFailed("This account is disabled or locked.")

    def authenticate(self, username: str, password: str) -> StaffUserView:
        self.attempts.append(username)
        if self.passwords.get(username) != password:
            raise AuthenticationFailed("The username or password is not right.")
        return StaffUserView(username, self.names.get(username, username), True)

    def list(self) -> list[StaffUserView]:
        return [StaffUserView(u, self.names.get(u, u), True) for u in sorted(self.passwords)]


def review_items() -> list[ReviewItem]:
    base = dt.datetime(2025, 3, 7, 9, 0, tzinfo=dt.UTC)
    return [
        ReviewItem(
            answer_id=41,
            created_at=base,
            channel="kiosk",
            audience="public",
            question="Can I bring my dog to the clinic?",
            route="information",
            outcome="no_answer",
            shown_text="I don't know: the clinic's documents don't answer that.",
            original_text=None,
            guard_reason=None,
            decision=None,
            decided_by=None,
            comment=None,
        ),
        ReviewItem(
            answer_id=42,
            created_at=base + dt.timedelta(hours=2),
            channel="staff",
            audience="staff",
            question="What is the fee for a <b>travel</b> letter?",
            route="information",
            outcome="guarded",
            shown_text="I don't know: the clinic's documents don't answer that.",
            original_text="A travel letter costs <i>£35</i>, usually ready in 5 days.",
            guard_reason="no citation to an offered passage",
            decision=None,
            decided_by=None,
            comment=None,
        ),
    ]


@dataclass
class FakeReview:
    items: list[ReviewItem] = field(default_factory=review_items)
    decisions: list[tuple[int, str, str, str]] = field(default_factory=list)
    broken: list[int] = field(default_factory=list)

    def queue(self, include_decided: bool = False, limit: int = 200) -> list[ReviewItem]:
        items = [i for i in self.items if include_decided or i.decision is None]
        return sorted(items, key=lambda i: i.created_at, reverse=True)[:limit]

    def weekly_counts(self, weeks: int = 8) -> list[tuple[dt.date, dict[str, int]]]:
        return [
            (dt.date(2025, 3, 3), {"no_answer": 4, "guarded": 1}),
            (dt.date(2025, 2, 24), {"no_answer": 2}),
        ][:weeks]

    def decide(self, answer_id: int, decision: str, comment: str, reviewer: str) -> str:
        self.decisions.append((answer_id, decision, comment, reviewer))
        self.items = [
            replace(i, decision=decision, decided_by=reviewer, comment=comment)
            if i.answer_id == answer_id
            else i
            for i in self.items
        ]
        return "f" * 64

    def verify_chain(self) -> list[int]:
        return list(self.broken)


def document(slug: str, title: str, status: str = "ok", audience: str = "public") -> DocumentInfo:
    return DocumentInfo(
        slug=slug,
        title=title,
        audience=audience,
        chunks=6,
        reviewed_on=dt.date(2025, 1, 15),
        ingested_at=dt.datetime(2025, 3, 6, 17, 40, tzinfo=dt.UTC),
        source_path=f"/srv/clinic-docs/{audience}/{slug}.md",
        status=status,
        ingested_by="alice",
    )


@dataclass
class FakeKnowledge:
    documents: list[DocumentInfo] = field(
        default_factory=lambda: [
            document("visiting", "Visiting the clinic"),
            document("fees", "Private fees <b>2025</b>", "changed on disk", "staff"),
            document("travel", "Travel vaccinations", "file missing"),
        ]
    )
    info: EmbeddingInfo = field(
        default_factory=lambda: EmbeddingInfo(
            "sentence-transformers/all-MiniLM-L6-v2", 384, 0.45, None
        )
    )
    results: list[IngestResult] = field(default_factory=list)
    gate: threading.Event | None = None  # ingest waits on it (after the first progress call)
    started: threading.Event = field(default_factory=threading.Event)
    ingest_threads: list[str] = field(default_factory=list)
    calls: list[tuple[str, tuple[Any, ...]]] = field(default_factory=list)

    def list_documents(self) -> list[DocumentInfo]:
        return list(self.documents)

    def embedding_info(self) -> EmbeddingInfo:
        return self.info

    def _ingest(
        self,
        name: str,
        paths: Sequence[Path],
        audience: str | None,
        user: str,
        progress: Callable[[str, int, int], None] | None,
    ) -> IngestReport:
        self.calls.append((name, (tuple(paths), audience, user)))
        self.ingest_threads.append(threading.current_thread().name)
        self.started.set()
        if progress is not None:
            progress("visiting", 1, 4)
        if self.gate is not None:
            self.gate.wait(10)
        if progress is not None:
            progress("visiting", 4, 4)
        if audience is not None:
            return IngestReport(
                tuple(
                    IngestResult(str(p), p.stem, p.stem.title(), audience, "created", 3)
                    for p in paths
                )
            )
        return IngestReport(tuple(self.results))

    def ingest_folders(
        self,
        folders: Sequence[Path],
        *,
        audience: str | None = None,
        user: str,
        progress: Callable[[str, int, int], None] | None = None,
    ) -> IngestReport:
        return self._ingest("ingest_folders", folders, audience, user, progress)

    def ingest_files(
        self,
        files: Sequence[Path],
        *,
        audience: str | None = None,
        user: str,
        progress: Callable[[str, int, int], None] | None = None,
    ) -> IngestReport:
        return self._ingest("ingest_files", files, audience, user, progress)

    def remove_document(self, slug: str, *, user: str) -> bool:
        self.calls.append(("remove_document", (slug, user)))
        before = len(self.documents)
        self.documents = [d for d in self.documents if d.slug != slug]
        return len(self.documents) < before
