"""The Knowledge tab (ingest off the GUI thread, per-file errors, audience prompt, remove) and the
Review tab (decisions recorded under the signed-in user, chain indicator, literal text)."""

import threading
from pathlib import Path

from engine.knowledge.ingest.results import IngestResult
from staff_app import knowledge_tab
from staff_app.appointments_tab import confirm  # noqa: F401 (patched through the module)
from staff_app.knowledge_tab import NO_INGEST_YET


def test_documents_are_listed_with_status_and_titles_literally(qtbot, window):
    tab = window.knowledge
    qtbot.waitUntil(lambda: tab.table.rowCount() == 3, timeout=3000)
    titles = [tab.table.item(r, 0).text() for r in range(3)]
    assert "Private fees <b>2025</b>" in titles
    statuses = {tab.table.item(r, 0).text(): tab.table.item(r, 5).text() for r in range(3)}
    assert statuses["Travel vaccinations"] == "file missing"
    assert "all-MiniLM-L6-v2" in tab.embedding.text() and "0.45" in tab.embedding.text()
    assert "1 changed on disk" in tab.message.text()


def test_ingest_runs_off_the_gui_thread_and_shows_per_file_errors(qtbot, window, services):
    knowledge = services.knowledge
    knowledge.gate = threading.Event()
    knowledge.results = [
        IngestResult("/docs/parking.md", "parking", "Parking", "public", "created", 4),
        IngestResult(
            "/docs/scan.pdf", "scan", "", "", "failed", 0, "no text was found in the document"
        ),
    ]
    tab = window.knowledge
    tab.ingest([Path("/docs")], folders=True)
    # The fake blocks inside ingest: the GUI thread is free and shows progress meanwhile.
    qtbot.waitUntil(lambda: tab.progress.value() == 1 and tab.progress.maximum() == 4, timeout=3000)
    assert tab.progress.isVisibleTo(tab) and tab.busy() and not tab.ingest_button.isEnabled()
    assert "visiting: 1 of 4" in tab.progress_label.text()
    knowledge.gate.set()
    assert [tab.results.item(i).text() for i in range(tab.results.count())] == [NO_INGEST_YET]
    qtbot.waitUntil(lambda: not tab.busy(), timeout=3000)
    lines = [tab.results.item(i).text() for i in range(tab.results.count())]
    assert "scan.pdf: FAILED: no text was found in the document" in lines
    assert "parking.md: added (4 passages, public)" in lines
    assert knowledge.ingest_threads and knowledge.ingest_threads[0] != threading.main_thread().name
    assert knowledge.calls[0] == ("ingest_folders", ((Path("/docs"),), None, "alice"))
    assert not tab.progress.isVisibleTo(tab) and not tab.busy()


def test_files_without_audience_are_asked_about(qtbot, window, services, monkeypatch):
    knowledge = services.knowledge
    knowledge.results = [
        IngestResult(
            "/drop/rota.md",
            "rota",
            "",
            "",
            "failed",
            0,
            "no audience declared: add 'audience: public' or 'audience: staff' to the document",
        ),
    ]
    asked = []
    monkeypatch.setattr(
        knowledge_tab, "ask_audience", lambda _p, names: asked.append(names) or "staff"
    )
    window.knowledge.ingest([Path("/drop/rota.md")], folders=False)
    qtbot.waitUntil(lambda: len(knowledge.calls) == 2, timeout=3000)
    assert asked == [["rota.md"]]
    assert knowledge.calls[1] == ("ingest_files", ((Path("/drop/rota.md"),), "staff", "alice"))


def test_remove_document_confirms_first(qtbot, window, services, monkeypatch):
    tab = window.knowledge
    qtbot.waitUntil(lambda: tab.table.rowCount() == 3, timeout=3000)
    answers = iter([False, True])
    monkeypatch.setattr(knowledge_tab, "confirm", lambda *_a: next(answers))
    tab.table.selectRow(0)
    slug = tab.table.item(0, 0).data(0x0100).slug
    tab.remove_selected()
    assert not [c for c in services.knowledge.calls if c[0] == "remove_document"]
    tab.remove_selected()
    qtbot.waitUntil(lambda: tab.table.rowCount() == 2, timeout=3000)
    assert ("remove_document", (slug, "alice")) in services.knowledge.calls


def test_evaluation_button_is_disabled_with_a_reason_when_not_available(window):
    button = window.knowledge.evaluate_button
    assert not button.isEnabled()
    assert "clinic-assistant evaluate" in button.toolTip()


def test_review_decision_is_recorded_with_the_signed_in_user(qtbot, window, services):
    tab = window.review
    qtbot.waitUntil(lambda: tab.table.rowCount() == 2, timeout=3000)
    # Newest first: the guarded staff question, with its original draft shown literally.
    assert tab.table.item(0, 2).text() == "What is the fee for a <b>travel</b> letter?"
    tab.table.selectRow(0)
    assert (
        tab.original.toPlainText() == "A travel letter costs <i>£35</i>, usually ready in 5 days."
    )
    assert tab.original.isVisibleTo(tab)
    assert "Week of 03 Mar 2025: 5" in tab.weekly.text()
    assert tab.chain.text().startswith("Decision log intact")

    tab.comment.setText("Add the travel letter fee to the fees document")
    tab.decision_buttons["needs_section"].click()
    qtbot.waitUntil(lambda: tab.table.rowCount() == 1, timeout=3000)
    assert services.review.decisions == [
        (42, "needs_section", "Add the travel letter fee to the fees document", "alice")
    ]
    assert "alice" in tab.recorded.text()


def test_a_broken_decision_chain_is_flagged(qtbot, window, services):
    services.review.broken = [7]
    window.review.refresh()
    qtbot.waitUntil(lambda: "WARNING" in window.review.chain.text(), timeout=3000)
    assert "7" in window.review.chain.text()
