"""The appointment book: finding, booking, cancelling, rescheduling, searching, seeding."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time

import pytest
import sqlalchemy as sa

from engine.errors import BookingError, SlotTaken, ValidationError
from engine.frontdesk.booking import BookingRequest, BookingService, seed_schedule
from engine.frontdesk.references import ALPHABET, new_reference, normalise_reference
from engine.ops.db import Database
from tests.support.booking_clinic import LONDON, NOW, Clinic, build_clinic

REFERENCE = re.compile(r"^CL-[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$")


@pytest.fixture
def clinic(db: Database) -> Clinic:
    return build_clinic(db)


def free_ids(service: BookingService, query: str = "", **kwargs: object) -> list[int]:
    return [s.slot_id for s in service.find_free_slots(query, **kwargs)]  # type: ignore[arg-type]


def audit_rows(db: Database) -> list[tuple[str, str, dict[str, object]]]:
    with db.engine.connect() as conn:
        rows = conn.execute(
            sa.text("SELECT username, action, details FROM audit_events ORDER BY id")
        ).all()
    return [(r[0], r[1], r[2]) for r in rows]


def test_booking_takes_the_slot_and_is_audited_without_the_phone_number(
    clinic: Clinic, db: Database
) -> None:
    slot_id = clinic.slots["hughes_mon_0930"]
    view = clinic.service.book(
        BookingRequest(slot_id, "  Ada   Lovelace ", "+44 7700 900123", "palpitations"), "meera"
    )
    assert REFERENCE.match(view.reference)
    assert view.status == "booked"
    assert view.patient_name == "Ada Lovelace"
    assert view.contact_number == "07700 900123"
    assert view.created_by == "meera"
    assert view.slot.slot_id == slot_id and not view.slot.is_free
    assert view.slot.starts_at == datetime(2030, 6, 3, 9, 30, tzinfo=LONDON)
    assert view.slot.clinician == "Dr Oliver Hughes" and view.slot.department == "Cardiology"
    assert slot_id not in free_ids(clinic.service)
    (user, action, details), *_ = audit_rows(db)
    assert (user, action, details["reference"]) == ("meera", "book", view.reference)
    assert "900123" not in str(details) and "Lovelace" not in str(details)


def test_a_taken_slot_says_just_taken_and_offers_the_same_clinicians_next_slots(
    clinic: Clinic, db: Database
) -> None:
    clinic.book("hughes_mon_0930")
    with pytest.raises(SlotTaken, match="just taken") as caught:
        clinic.book("hughes_mon_0930", name="Grace Hopper")
    alternatives = [s.slot_id for s in caught.value.alternatives]
    # Same clinician first (in time order), then the rest of the department.
    assert alternatives == [
        clinic.slots["hughes_mon_1000"],
        clinic.slots["hughes_tue_1400"],
        clinic.slots["rahman_tue_0900"],
    ]
    assert all(s.is_free for s in caught.value.alternatives)
    with db.engine.connect() as conn:
        count = conn.execute(sa.text("SELECT count(*) FROM appointments")).scalar_one()
    assert count == 1


def test_cancel_frees_the_slot_for_a_new_booking_and_cannot_be_repeated(
    clinic: Clinic, db: Database
) -> None:
    reference = clinic.book("shaw_wed_0900")
    cancelled = clinic.service.cancel(reference.lower(), "meera")
    assert cancelled.status == "cancelled"
    assert cancelled.slot.is_free
    assert clinic.slots["shaw_wed_0900"] in free_ids(clinic.service, "dermatology")
    again = clinic.book("shaw_wed_0900", name="Grace Hopper")
    assert again != reference
    assert clinic.service.get(again).status == "booked"
    with pytest.raises(BookingError, match="already cancelled"):
        clinic.service.cancel(reference, "meera")
    assert [a for _, a, _ in audit_rows(db)] == ["book", "cancel", "book"]


def test_reschedule_keeps_the_reference_and_frees_the_old_slot(
    clinic: Clinic, db: Database
) -> None:
    reference = clinic.book("hughes_mon_0930")
    moved = clinic.service.reschedule(reference, clinic.slots["hughes_tue_1400"], "meera")
    assert moved.reference == reference
    assert moved.status == "booked"
    assert moved.slot.slot_id == clinic.slots["hughes_tue_1400"]
    free = free_ids(clinic.service, "cardiology")
    assert clinic.slots["hughes_mon_0930"] in free
    assert clinic.slots["hughes_tue_1400"] not in free
    _, action, details = audit_rows(db)[-1]
    assert action == "reschedule"
    assert details["to_slot_id"] == clinic.slots["hughes_tue_1400"]


def test_reschedule_into_a_taken_slot_changes_nothing(clinic: Clinic, db: Database) -> None:
    mine = clinic.book("patel_mon_1130")
    theirs = clinic.book("patel_mon_1200", name="Grace Hopper", phone="020 7946 0100")
    with pytest.raises(SlotTaken, match="just taken"):
        clinic.service.reschedule(mine, clinic.slots["patel_mon_1200"], "meera")
    assert clinic.service.get(mine).slot.slot_id == clinic.slots["patel_mon_1130"]
    assert clinic.service.get(mine).status == "booked"
    assert clinic.service.get(theirs).slot.slot_id == clinic.slots["patel_mon_1200"]
    assert [a for _, a, _ in audit_rows(db)] == ["book", "book"]


def test_a_slot_that_has_started_cannot_be_booked_or_moved_into(clinic: Clinic) -> None:
    with pytest.raises(BookingError, match="already started"):
        clinic.book("patel_past")
    reference = clinic.book("patel_mon_1130")
    with pytest.raises(BookingError, match="already started"):
        clinic.service.reschedule(reference, clinic.slots["patel_past"], "meera")
    # Later in the day, the 11:30 slot itself has started.
    later = BookingService(clinic.service.db, now=lambda: datetime(2030, 6, 3, 10, 45, tzinfo=UTC))
    with pytest.raises(BookingError, match="already started"):
        later.book(BookingRequest(clinic.slots["hughes_mon_1000"], "Ada", "07700 900123"), "x")


def test_unknown_slot_and_unknown_reference_are_explained(clinic: Clinic) -> None:
    with pytest.raises(BookingError, match="no longer exists"):
        clinic.service.book(BookingRequest(999_999, "Ada", "07700 900123"), "meera")
    with pytest.raises(BookingError, match="No appointment has the reference"):
        clinic.service.get("CL-ZZZZZZ")
    with pytest.raises(BookingError, match="No appointment has the reference"):
        clinic.service.cancel("not a reference", "meera")


@pytest.mark.parametrize(
    ("name", "phone", "message"),
    [
        ("", "07700 900123", "Patient name is required"),
        ("   ", "07700 900123", "Patient name is required"),
        ("Ada", "", "Contact number is required"),
        ("Ada", "12345", "Contact number must be a UK phone number such as 020 7946 0100"),
        ("Ada", "+1 212 555 0100", "Contact number must be a UK phone number"),
        ("Ada", "07700 9001234567", "Contact number must be a UK phone number"),
        ("Ada", "call me", "Contact number must be a UK phone number"),
    ],
)
def test_validation_names_the_field(clinic: Clinic, name: str, phone: str, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        clinic.service.book(BookingRequest(clinic.slots["shaw_wed_0900"], name, phone), "x")
    assert clinic.slots["shaw_wed_0900"] in free_ids(clinic.service)


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("020 7946 0100", "020 7946 0100"),
        ("02079460100", "020 7946 0100"),
        ("+44 (0)20 7946 0100", "020 7946 0100"),
        ("07700-900-123", "07700 900123"),
        ("0044 7700 900123", "07700 900123"),
    ],
)
def test_uk_numbers_are_stored_in_one_readable_form(
    clinic: Clinic, typed: str, stored: str
) -> None:
    reference = clinic.book("shaw_wed_0900", phone=typed)
    assert clinic.service.get(reference).contact_number == stored


def test_a_colliding_reference_is_redrawn(db: Database, clinic: Clinic) -> None:
    draws = iter(["CL-AAAAAA", "CL-AAAAAA", "CL-BBBBBB"])
    service = BookingService(db, now=lambda: NOW, references=lambda: next(draws))
    slots = clinic.slots
    first = service.book(BookingRequest(slots["hughes_mon_0930"], "Ada", "07700 900123"), "x")
    second = service.book(BookingRequest(slots["hughes_mon_1000"], "Bob", "07700 900124"), "x")
    assert (first.reference, second.reference) == ("CL-AAAAAA", "CL-BBBBBB")


def test_references_avoid_characters_people_confuse() -> None:
    references = {new_reference() for _ in range(500)}
    assert len(references) == 500
    assert all(REFERENCE.match(r) for r in references)
    assert not set("01OIL") & set(ALPHABET)
    assert normalise_reference(" cl-7kq2xm ") == "CL-7KQ2XM"
    assert normalise_reference("7kq2xm") == "CL-7KQ2XM"
    assert normalise_reference("CL-7KQ2X0") is None


@pytest.mark.parametrize("query", ["cardio", "Cardiology", "CARDIOLGY", "heart", "cardiac"])
def test_fuzzy_department_search(clinic: Clinic, query: str) -> None:
    assert free_ids(clinic.service, query) == [
        clinic.slots["hughes_mon_0930"],
        clinic.slots["hughes_mon_1000"],
        clinic.slots["rahman_tue_0900"],
        clinic.slots["hughes_tue_1400"],
    ]


@pytest.mark.parametrize("query", ["dr patel", "Patel", "appointment with Dr Patle", "priya"])
def test_fuzzy_clinician_search(clinic: Clinic, query: str) -> None:
    assert free_ids(clinic.service, query) == [
        clinic.slots["patel_mon_1130"],
        clinic.slots["patel_mon_1200"],
    ]


def test_words_must_all_match_and_nonsense_finds_nothing(clinic: Clinic) -> None:
    assert free_ids(clinic.service, "cardiology rahman") == [clinic.slots["rahman_tue_0900"]]
    assert free_ids(clinic.service, "cardiology patel") == []
    assert free_ids(clinic.service, "zzqx") == []


def test_empty_query_lists_every_future_free_slot_in_time_order(clinic: Clinic) -> None:
    slots = clinic.service.find_free_slots()
    assert clinic.slots["patel_past"] not in [s.slot_id for s in slots]
    assert len(slots) == len(clinic.slots) - 1
    assert [s.starts_at for s in slots] == sorted(s.starts_at for s in slots)
    assert all(s.is_free and s.starts_at.tzinfo is not None for s in slots)
    assert len(clinic.service.find_free_slots(limit=2)) == 2


def test_morning_and_afternoon_use_local_time(clinic: Clinic) -> None:
    # 12:00 BST is 11:00 UTC: it is an afternoon slot for the clinic.
    assert free_ids(clinic.service, "patel", part_of_day="morning") == [
        clinic.slots["patel_mon_1130"]
    ]
    assert free_ids(clinic.service, "patel", part_of_day="afternoon") == [
        clinic.slots["patel_mon_1200"]
    ]
    assert free_ids(clinic.service, "gp afternoon") == [clinic.slots["patel_mon_1200"]]
    with pytest.raises(ValidationError, match="Part of day"):
        clinic.service.find_free_slots(part_of_day="evening")


def test_date_range_is_inclusive_local_days(clinic: Clinic) -> None:
    tuesday = date(2030, 6, 4)
    assert free_ids(clinic.service, date_from=tuesday, date_to=tuesday) == [
        clinic.slots["rahman_tue_0900"],
        clinic.slots["hughes_tue_1400"],
    ]
    summary = clinic.service.next_free_summary("cardiology", on=date(2030, 6, 3), limit=1)
    assert [s.slot_id for s in summary] == [clinic.slots["hughes_mon_0930"]]
    assert clinic.service.next_free_summary("dermatology", "afternoon") == []


def test_day_view_lists_booked_appointments_in_time_order(clinic: Clinic) -> None:
    late = clinic.book("patel_mon_1200", name="Late Patient")
    early = clinic.book("hughes_mon_0930", name="Early Patient")
    gone = clinic.book("hughes_mon_1000", name="Cancelled Patient")
    clinic.book("hughes_tue_1400", name="Tuesday Patient")
    clinic.service.cancel(gone, "meera")
    monday = clinic.service.day_view(date(2030, 6, 3))
    assert [a.reference for a in monday] == [early, late]
    hughes = clinic.clinicians["Dr Oliver Hughes"]
    assert [a.reference for a in clinic.service.day_view(date(2030, 6, 3), hughes)] == [early]
    assert clinic.service.day_view(date(2030, 6, 6)) == []


def test_search_by_reference_name_or_phone(clinic: Clinic) -> None:
    ada = clinic.book("hughes_mon_0930", name="Ada Lovelace", phone="07700 900123")
    grace = clinic.book("shaw_wed_0900", name="Grace Hopper", phone="020 7946 0100")
    refs = lambda text: [a.reference for a in clinic.service.search(text)]  # noqa: E731
    assert refs(ada.lower()) == [ada]
    assert refs(ada[3:]) == [ada]
    assert refs("lovelace") == [ada]
    assert refs("HOPPER") == [grace]
    assert refs("07700900123") == [ada]
    assert refs("+44 20 7946 0100") == [grace]
    assert refs("7946 0100") == [grace]
    assert refs("%") == []
    assert refs("") == []
    clinic.service.cancel(grace, "meera")
    assert [a.status for a in clinic.service.search("hopper")] == ["cancelled"]


def test_seed_schedule_is_realistic_and_idempotent(db: Database) -> None:
    start = date(2030, 6, 3)
    created = seed_schedule(db, start, weeks=2)
    assert created > 500
    assert seed_schedule(db, start, weeks=2) == 0
    service = BookingService(db, now=lambda: NOW)
    assert service.departments() == [
        "Cardiology",
        "Dermatology",
        "General Practice",
        "Paediatrics",
        "Physiotherapy",
        "Women's Health",
    ]
    clinicians = service.clinicians()
    assert 12 <= len(clinicians) <= 18
    assert all(2 <= len(service.clinicians(d)) <= 3 for d in service.departments())
    with db.engine.connect() as conn:
        starts = conn.execute(sa.text("SELECT starts_at FROM slots")).scalars().all()
        booked = conn.execute(sa.text("SELECT count(*) FROM appointments")).scalar_one()
    assert len(starts) == created
    assert 0 < booked < created // 5
    for start_at in starts:
        local = start_at.astimezone(LONDON)
        assert local.weekday() < 5
        assert time(9) <= local.time() < time(12, 30) or time(13, 30) <= local.time() < time(17)
    assert service.find_free_slots("physio", limit=1)[0].duration_minutes == 30
