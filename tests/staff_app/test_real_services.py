"""The staff app end to end on the REAL engine services: the embedded PostgreSQL database, the real
booking, user, review, knowledge and ingest services wired by ``build_services``, the sample
knowledge folder and the demo schedule. Only the embedding model is replaced (FakeEmbedder), so
no model files are needed; no model server is configured, so answers are extractive.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
import sqlalchemy as sa
from PySide6.QtCore import Qt

from engine.events import Outcome
from engine.frontdesk.booking import BookingRequest, BookingService, seed_schedule
from engine.frontdesk.users import StaffUserView, UserService
from engine.frontdesk.waiting_queue import QueueService
from engine.knowledge.ingest import Ingester
from engine.ops.paths import knowledge_dir
from engine.ops.service import ServiceBackend
from engine.ops.settings import DatabaseSettings, EmbeddingSettings, RetrievalSettings
from staff_app import appointments_tab
from staff_app.booking_dialog import JUST_TAKEN
from staff_app.login_dialog import NO_ACCOUNTS, WRONG_PASSWORD, LoginDialog
from staff_app.services import EXTRACTIVE_NO_HOSTS, build_services, default_questions_file
from staff_app.window import StaffWindow
from tests.support.fake_embedder import FakeEmbedder

FAKE_MODEL = "fake/hash-embedder"
PASSWORD = "correct horse battery"
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@pytest.fixture
def real_settings(settings):
    return settings.replace(
        embedding=EmbeddingSettings(model=FAKE_MODEL),
        retrieval=RetrievalSettings(similarity_floors={FAKE_MODEL: 0.3}),
    )


@pytest.fixture
def embedder():
    return FakeEmbedder()


@pytest.fixture
def clinic(db, real_settings, embedder):
    """The sample knowledge ingested, three weeks of demo schedule from tomorrow, and Amy."""
    report = Ingester(db, embedder, real_settings, user="setup").ingest_folders([knowledge_dir()])
    assert not report.failed, report.failed
    seed_schedule(db, dt.date.today() + dt.timedelta(days=1))
    UserService(db).add("amy", PASSWORD, "Amy Clarke")
    return report


@pytest.fixture
def services(real_settings, embedder):
    services = build_services(real_settings, embedder=embedder)
    yield services
    services.close()


def sign_in_through_the_dialog(qtbot, services, tasks):
    dialog = LoginDialog(services.users, tasks)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.keyClicks(dialog.username, "amy")
    qtbot.keyClicks(dialog.password, PASSWORD)
    with qtbot.waitSignal(dialog.accepted, timeout=10000):
        qtbot.keyClick(dialog.password, Qt.Key.Key_Return)
    return dialog.user


@pytest.fixture
def window(qtbot, clinic, services, ui_settings):
    window = StaffWindow(services, ui_settings)
    qtbot.addWidget(window)
    user = sign_in_through_the_dialog(qtbot, services, window.tasks)
    window.show()
    qtbot.waitExposed(window)
    window.sign_in(user)
    qtbot.waitUntil(
        lambda: window.health_checks >= 1 and window.tasks.running() == 0, timeout=15000
    )
    yield window
    window.shutdown()


def cells(table, row):
    return [table.item(row, c).text() for c in range(table.columnCount())]


def find_slots(qtbot, tab, query):
    tab.query.setText(query)
    tab.find_slots()
    qtbot.waitUntil(lambda: tab.find_button.isEnabled() and tab.slots.rowCount() > 0, timeout=5000)


def test_signs_in_a_real_account_and_reports_extractive_answers(window):
    assert window.user.username == "amy"
    assert window.user_label.text() == "Signed in as Amy Clarke"
    assert not window.banner.isVisible()
    assert window.note.isVisible() and window.note.text() == EXTRACTIVE_NO_HOSTS


def test_wrong_password_is_refused_by_the_real_user_service(qtbot, clinic, services, window):
    dialog = LoginDialog(services.users, window.tasks)
    qtbot.addWidget(dialog)
    dialog.username.setText("amy")
    dialog.password.setText("not the password")
    dialog.submit()
    qtbot.waitUntil(lambda: dialog.message.text() == WRONG_PASSWORD, timeout=10000)
    assert dialog.user is None


def test_sign_in_explains_how_to_create_the_first_account(qtbot, db, services, ui_settings):
    window = StaffWindow(services, ui_settings)
    qtbot.addWidget(window)
    dialog = LoginDialog(services.users, window.tasks)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.no_accounts, timeout=10000)
    assert dialog.message.text() == NO_ACCOUNTS
    assert "clinic-assistant users add NAME" in dialog.message.text()
    window.tasks.wait_all()


def test_book_a_seeded_slot_and_the_reference_is_in_the_database(qtbot, window, db):
    tab = window.appointments
    find_slots(qtbot, tab, "physio")
    first = cells(tab.slots, 0)
    assert first[4] == "Physiotherapy" and first[2] == "30 min"
    assert not ISO_DATE.search(first[0])  # "Tue 03 Jun 2025", not 2025-06-03
    slot = tab.slots.item(0, 0).data(Qt.ItemDataRole.UserRole)

    tab.book_selected()
    dialog = tab.booking_dialog
    dialog.name.setText("Maria Lopez")
    dialog.contact.setText("02079460123")
    dialog.reason.setText("Sore knee")
    dialog.submit()
    qtbot.waitUntil(lambda: dialog.appointment is not None, timeout=5000)
    reference = dialog.reference_label.text()

    stored = BookingService(db).get(reference)
    assert stored.slot.slot_id == slot.slot_id
    assert (stored.patient_name, stored.contact_number) == ("Maria Lopez", "020 7946 0123")
    assert stored.created_by == "amy" and stored.status == "booked"
    assert "Contact number: 020 7946 0123" in dialog.summary.toPlainText()

    dialog.accept()
    qtbot.waitUntil(lambda: tab.appointments.rowCount() == 1, timeout=5000)
    assert tab.appointments.item(0, 0).text() == reference
    # The booked slot is no longer offered.
    qtbot.waitUntil(lambda: tab.find_button.isEnabled(), timeout=5000)
    offered = [
        tab.slots.item(r, 0).data(Qt.ItemDataRole.UserRole).slot_id
        for r in range(tab.slots.rowCount())
    ]
    assert slot.slot_id not in offered


def test_slot_taken_behind_the_ui_offers_real_alternatives(qtbot, window, db):
    tab = window.appointments
    find_slots(qtbot, tab, "dermatology")
    slot = tab.slots.item(0, 0).data(Qt.ItemDataRole.UserRole)
    tab.book_selected()
    dialog = tab.booking_dialog
    # Another desk books the same slot while this dialog is open.
    BookingService(db).book(BookingRequest(slot.slot_id, "Other Desk", "07700 900111"), "bob")

    dialog.name.setText("Maria Lopez")
    dialog.contact.setText("07700 900123")
    dialog.submit()
    qtbot.waitUntil(lambda: dialog.alternatives.isVisibleTo(dialog), timeout=5000)
    assert dialog.errors["general"].text() == JUST_TAKEN
    assert dialog.alternatives.count() > 0
    alternatives = [
        dialog.alternatives.item(i).data(Qt.ItemDataRole.UserRole)
        for i in range(dialog.alternatives.count())
    ]
    assert slot.slot_id not in [a.slot_id for a in alternatives]

    dialog.alternatives.setCurrentRow(0)
    dialog.submit()
    qtbot.waitUntil(lambda: dialog.appointment is not None, timeout=5000)
    assert BookingService(db).get(dialog.reference_label.text()).slot.slot_id == (
        alternatives[0].slot_id
    )


def test_cancel_an_appointment_frees_the_slot(qtbot, window, db, monkeypatch):
    booked = BookingService(db).book(
        BookingRequest(
            BookingService(db).find_free_slots("cardiology")[0].slot_id,
            "Tom Baker",
            "07700 900456",
        ),
        "amy",
    )
    tab = window.appointments
    tab.search.setText("Tom Baker")
    tab.search_appointments()
    qtbot.waitUntil(lambda: tab.appointments.rowCount() == 1, timeout=5000)
    assert tab.appointments.item(0, 0).text() == booked.reference
    monkeypatch.setattr(appointments_tab, "confirm", lambda *_args: True)
    tab.cancel_selected()
    qtbot.waitUntil(lambda: tab.appointments.item(0, 5).text() == "cancelled", timeout=5000)
    assert BookingService(db).get(booked.reference).status == "cancelled"
    assert tab.appointment_message.text().startswith(f"Cancelled {booked.reference}")


def test_knowledge_tab_lists_the_ingested_sample_documents(qtbot, window, clinic):
    tab = window.knowledge
    expected = len(clinic.results)
    qtbot.waitUntil(lambda: tab.table.rowCount() == expected, timeout=5000)
    rows = [cells(tab.table, r) for r in range(expected)]
    by_title = {row[0]: row for row in rows}
    assert by_title["Front desk procedures"][1] == "staff"
    assert by_title["Suppliers and internal rates"][1] == "staff"
    assert {row[5] for row in rows} == {"ok"}
    assert all(int(row[2]) > 0 for row in rows)
    for row in rows:  # dates a receptionist reads: "16 Nov 2026", never 2026-11-16
        assert not ISO_DATE.search(row[3] + row[4]), row
    assert "by setup" in by_title["Front desk procedures"][4]
    assert FAKE_MODEL in tab.embedding.text() and "0.30" in tab.embedding.text()
    assert tab.message.text() == f"{expected} documents indexed."


def test_evaluation_runs_in_the_background_and_shows_report_and_plot(qtbot, window, services):
    tab = window.knowledge
    assert services.default_questions == default_questions_file()
    assert services.default_questions.is_file()
    tab.evaluate()
    assert not tab.evaluate_button.isEnabled()
    qtbot.waitUntil(lambda: tab.evaluation_dialog is not None, timeout=60000)
    dialog = tab.evaluation_dialog
    assert dialog.report.toPlainText().startswith("Evaluated ")
    assert "Recommended floor:" in dialog.report.toPlainText()
    assert "{" not in dialog.report.toPlainText()  # summaries in words, not Python dicts
    assert "median" in dialog.report.toPlainText()
    assert dialog.plot.pixmap() is not None and not dialog.plot.pixmap().isNull()
    assert tab.evaluate_button.isEnabled()
    dialog.close()


def test_review_tab_shows_real_unanswered_questions_and_records_amy(
    qtbot, window, db, real_settings, embedder
):
    kiosk = ServiceBackend(
        real_settings, audience="public", channel="kiosk", embedder=embedder, db=db
    )
    outcomes = {
        question: [e for e in kiosk.answer(question)][-1].outcome
        for question in ("Do you have a gym?", "Should I stop my warfarin?")
    }
    assert outcomes == {
        "Do you have a gym?": Outcome.NO_ANSWER,
        "Should I stop my warfarin?": Outcome.CLINICAL,
    }
    tab = window.review
    tab.refresh()
    qtbot.waitUntil(lambda: tab.table.rowCount() == 2, timeout=5000)
    rows = {tab.table.item(r, 2).text(): cells(tab.table, r) for r in range(2)}
    gym = rows["Do you have a gym?"]
    assert gym[1:] == ["Kiosk (public)", "Do you have a gym?", "not in the documents", "waiting"]
    assert not ISO_DATE.search(gym[0])
    row = next(r for r in range(2) if tab.table.item(r, 2).text() == "Do you have a gym?")
    tab.table.selectRow(row)
    assert tab.shown.toPlainText() == real_settings.texts.refusal

    tab.comment.setText("We have no gym: correct")
    tab.decision_buttons["correct_refusal"].click()
    qtbot.waitUntil(lambda: tab.table.rowCount() == 1, timeout=5000)
    with db.session() as session:
        decision = session.execute(
            sa.text("SELECT decision, reviewer, comment FROM review_decisions")
        ).one()
    assert tuple(decision) == ("correct_refusal", "amy", "We have no gym: correct")
    assert tab.recorded.text() == "Recorded: Correct refusal, by amy."


def test_assistant_answers_a_staff_only_question_with_a_citation(qtbot, window, db):
    tab = window.assistant
    tab.input.setText("When do the couriers collect samples?")
    tab.ask()
    qtbot.waitUntil(lambda: tab._last is not None, timeout=15000)
    done = tab._last
    assert done.outcome is Outcome.EXTRACTIVE
    assert "MedRun Couriers" in done.text
    assert done.citations
    assert done.citations[0].document_title == "Suppliers and internal rates"
    assert tab.sources.count() == len(done.citations)
    assert "Suppliers and internal rates" in tab.sources.item(0).text()
    assert tab.passage.reviewed.text() == "Last reviewed: 16 Nov 2026"  # not 2026-11-16

    # The engine logs the answer as the worker closes the stream, just after the answer shows.
    def logged() -> tuple[object, ...] | None:
        with db.session() as session:
            row = session.execute(
                sa.text("SELECT channel, audience, username FROM answers ORDER BY id DESC LIMIT 1")
            ).first()
        return None if row is None else tuple(row)

    qtbot.waitUntil(lambda: logged() is not None, timeout=5000)
    assert logged() == ("staff", "staff", "amy")


def test_assistant_lists_who_is_waiting_from_the_live_queue(qtbot, window, db):
    """'Who is waiting for Sarah Jenkins?' at the desk: the live queue's rows, cited as the live
    queue in the sources panel (staff only: the kiosk side is tested in the engine)."""
    [(clinician_id, name, department), *_] = BookingService(db).clinicians("Physiotherapy")
    queue = QueueService(db)
    queue.walk_in(department, "amy", name="Maria Lopez", clinician_id=clinician_id)
    queue.walk_in("General Practice", "amy", name="Tom Dyke")
    tab = window.assistant
    tab.input.setText(f"Who is waiting for {name}?")
    tab.ask()
    qtbot.waitUntil(lambda: tab._last is not None, timeout=15000)
    done = tab._last
    assert done.outcome is Outcome.QUEUE
    assert done.text.startswith(f"1 patient is waiting for {name} ({department}) at ")
    assert "Maria Lopez" in done.text and "Tom Dyke" not in done.text
    assert tab.sources.count() == 1 and "Live queue, " in tab.sources.item(0).text()


def test_a_question_the_desk_could_not_answer_reaches_the_review_tab(qtbot, window, services):
    assistant = window.assistant
    assistant.input.setText("Do you have a gym?")
    assistant.ask()
    qtbot.waitUntil(lambda: assistant._last is not None, timeout=15000)
    assert assistant._last.outcome is Outcome.NO_ANSWER
    # The engine logs the answer as the worker closes the stream, just after the answer shows.
    qtbot.waitUntil(lambda: len(services.review.queue()) == 1, timeout=5000)
    tab = window.review
    tab.refresh()
    qtbot.waitUntil(lambda: tab.table.rowCount() == 1, timeout=5000)
    where, question, outcome = cells(tab.table, 0)[1:4]
    assert where == "Front desk (staff)" and question == "Do you have a gym?"
    assert outcome == "not in the documents"


def test_smoke_test_flag_runs_the_engine_smoke_test_on_the_staff_channel(tmp_path, monkeypatch):
    from engine.ops import smoke
    from staff_app import main

    calls = []

    def fake_smoke(settings):
        calls.append((settings.data_dir, "staff"))
        return 3

    monkeypatch.setattr(smoke, "run_staff_smoke_test", fake_smoke)
    assert main.main(["--smoke-test", "--data-dir", str(tmp_path)]) == 3
    assert calls == [(tmp_path, "staff")]


def test_an_unreachable_database_shows_the_banner_and_never_blocks_sign_in(
    qtbot, real_settings, embedder, ui_settings
):
    down = real_settings.replace(
        database=DatabaseSettings(url="postgresql+psycopg://x@127.0.0.1:9/x", connect_timeout=1)
    )
    services = build_services(down, embedder=embedder)
    window = StaffWindow(services, ui_settings)
    qtbot.addWidget(window)
    window.show()
    # Looking up the services' methods on the GUI thread does no I/O and raises nothing.
    window.sign_in(StaffUserView("amy", "Amy Clarke", True))
    qtbot.waitUntil(
        lambda: window.health_checks >= 1 and window.tasks.running() == 0, timeout=15000
    )
    assert window.banner.isVisible()
    assert window.banner.text().startswith("The database cannot be reached.")
    assert "127.0.0.1" not in window.banner.text()
    assert window.banner.text().count("cannot be reached") == 1
    assert not window.note.isVisible()
    window.shutdown()


def test_a_changed_document_is_shown_and_reingested_by_amy(
    qtbot, window, db, real_settings, embedder, tmp_path
):
    folder = tmp_path / "extra" / "public"
    folder.mkdir(parents=True)
    leaflet = folder / "flu-clinic.md"
    leaflet.write_text(
        "---\ntitle: Flu clinic\naudience: public\n---\n# Flu clinic\n\nSaturday flu clinics "
        "run from 9:00 to 12:00.\n",
        encoding="utf-8",
    )
    Ingester(db, embedder, real_settings, user="setup").ingest_folders([tmp_path / "extra"])
    leaflet.write_text(
        leaflet.read_text(encoding="utf-8").replace("9:00 to 12:00", "9:30 to 13:00"),
        encoding="utf-8",
    )
    tab = window.knowledge
    tab.refresh()
    qtbot.waitUntil(lambda: "1 changed on disk" in tab.message.text(), timeout=10000)
    assert tab.changed_button.isEnabled()
    qtbot.mouseClick(tab.changed_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "changed on disk" not in tab.message.text(), timeout=15000)
    qtbot.waitUntil(lambda: window.tasks.running() == 0, timeout=15000)
    with db.engine.connect() as conn:
        text = conn.execute(
            sa.text(
                "SELECT c.text FROM chunks c JOIN documents d ON d.id = c.document_id "
                "WHERE d.slug = 'flu-clinic'"
            )
        ).scalar()
        who = conn.execute(
            sa.text("SELECT ingested_by FROM documents WHERE slug = 'flu-clinic'")
        ).scalar()
    assert "9:30 to 13:00" in text
    assert who == "amy"
