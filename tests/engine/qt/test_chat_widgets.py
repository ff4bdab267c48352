"""Bubbles, citation lines and the passage viewer show text literally and report taps."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

from engine.events import Citation
from engine.qt.chat_view import ChatView, citation_caption
from engine.qt.passage_viewer import NO_REVIEW_DATE, PassageViewer

HOSTILE = '<b>x</b><img src="http://example.invalid/a.png">'

CITATION = Citation(
    number=2,
    document_slug="fees",
    document_title="Fees",
    heading_path="Fees > Private letters",
    text="A letter costs £25. " + HOSTILE,
    similarity=0.6,
)


def test_html_in_answers_is_shown_literally(qtbot):
    view = ChatView()
    qtbot.addWidget(view)
    view.add_question(HOSTILE)
    answer = view.add_answer()
    answer.append_text(HOSTILE)
    for bubble in view.bubbles():
        assert bubble.body.text() == HOSTILE
        assert bubble.body.textFormat() == Qt.TextFormat.PlainText
    labels = view.findChildren(QLabel)
    assert all(label.textFormat() == Qt.TextFormat.PlainText for label in labels)


def test_status_then_tokens_then_citation_line_click(qtbot):
    view = ChatView(font_scale=2.0)
    qtbot.addWidget(view)
    bubble = view.add_answer("Searching the clinic's documents...")
    assert bubble.status_label.text() == "Searching the clinic's documents..."
    bubble.append_text("A letter ")
    bubble.append_text("costs £25 [2].")
    assert bubble.text == "A letter costs £25 [2]."
    assert bubble.status_label.isHidden()
    bubble.set_citations((CITATION,))
    (button,) = bubble.citation_buttons()
    assert button.caption == "Source: Private letters (Fees)"
    assert button.text() in (button.caption, button.caption[: len(button.text()) - 1] + "…")
    assert button.font().pointSizeF() >= 18
    with qtbot.waitSignal(view.citation_clicked, timeout=1000) as blocker:
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert blocker.args == [CITATION]


def test_citation_caption_adds_the_title_when_the_heading_lacks_it():
    other = Citation(1, "hours", "Opening hours", "Weekends", "Closed.", 0.5)
    assert citation_caption(other) == "[1] Opening hours > Weekends"
    assert citation_caption(CITATION) == "[2] Fees > Private letters"


def test_passage_viewer_shows_plain_text_and_dates(qtbot):
    host = QWidget()  # a shown top-level warns on the offscreen platform
    qtbot.addWidget(host)
    viewer = PassageViewer(parent=host)
    viewer.show_citation(CITATION)
    assert viewer.text.toPlainText() == CITATION.text
    assert viewer.title.text() == "[2] Fees"
    assert viewer.reviewed.text() == NO_REVIEW_DATE
    dated = Citation(1, "a", "A", "A > B", "t", 0.5, reviewed_on="2025-01-31")
    viewer.show_citation(dated)
    assert "31 Jan 2025" in viewer.reviewed.text()
    with qtbot.waitSignal(viewer.closed, timeout=1000):
        qtbot.mouseClick(viewer.close_button, Qt.MouseButton.LeftButton)
    assert viewer.text.toPlainText() == ""
    assert viewer.isHidden()


def test_clear_removes_every_bubble(qtbot):
    view = ChatView()
    qtbot.addWidget(view)
    view.add_question("my private question")
    view.add_answer().append_text("answer")
    view.clear()
    assert view.bubbles() == []


LONG = "The clinic's documents say:\n\n" + "Fasting blood tests are booked in the morning. " * 80


def test_a_long_answer_fits_its_bubble_with_no_gap_below(qtbot):
    view = ChatView(font_scale=2.3)
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    qtbot.waitExposed(view)
    view.add_question("How long do I fast?")
    bubble = view.add_answer("Searching")
    for start in range(0, len(LONG), 97):  # streamed in pieces, as the runner flushes them
        bubble.append_text(LONG[start : start + 97])
    assert bubble.text == LONG and bubble.body.text() == LONG
    qtbot.waitUntil(lambda: bubble.body.height() == bubble.body.document_height(), timeout=2000)
    assert bubble.body.height() > 600  # grew with its text, nothing clipped
    content = view.widget()
    assert content.height() - bubble.geometry().bottom() < 60  # no empty screen under it
    bar = view.verticalScrollBar()
    assert bar.value() == bar.maximum()  # followed the stream
    view.show_from_top(view.bubbles()[0])
    assert bar.value() < 40  # a finished answer is read from the question down


def test_setting_the_same_text_again_keeps_it(qtbot):
    view = ChatView()
    qtbot.addWidget(view)
    bubble = view.add_answer()
    bubble.append_text("A letter costs £25 [1].")
    bubble.set_text("A letter costs £25 [1].")
    bubble.set_text("A letter costs £25 [1]. Sources: [1]")
    assert bubble.body.text() == "A letter costs £25 [1]. Sources: [1]"
    bubble.set_text("Replaced")
    assert bubble.body.text() == "Replaced"


def test_reflow_joins_layout_line_breaks_and_keeps_paragraphs_and_lists():
    from engine.qt.chat_view import reflow

    text = (
        "Fasting blood tests need 10 to 12\nhours without food.\n\n"
        "Bring:\n- your appointment letter\n- a list of your\n  medicines\n1. Arrive early\n"
        "| Test | Hours |\n| Glucose | 10 |"
    )
    assert reflow(text) == (
        "Fasting blood tests need 10 to 12 hours without food.\n\n"
        "Bring:\n\u2022 your appointment letter\n\u2022 a list of your medicines\n"
        "1. Arrive early\n\n\u2022 Test: Glucose, Hours: 10"
    )
    assert reflow("One line.") == "One line."


OPENING_HOURS = Citation(
    number=1,
    document_slug="opening-hours-and-contact",
    document_title="Opening hours and contact",
    heading_path="Opening hours and contact > Opening hours",
    # As the Markdown loader stores a table: "cell | cell" rows, the header first.
    text=(
        "The building and the reception desk are open at these times:\n\n"
        "Day | Building open | Phone lines\n"
        "Monday | 8:00 to 18:30 | 8:00 to 18:30\n"
        "Saturday | 9:00 to 12:30 | closed\n"
        "Sunday | closed | closed\n\n"
        "On Tuesday and Thursday evenings, pre-booked appointments only."
    ),
    similarity=0.7,
)


def test_a_table_in_a_passage_is_shown_row_by_row_with_its_column_names(qtbot):
    host = QWidget()
    qtbot.addWidget(host)
    viewer = PassageViewer(parent=host)
    viewer.show_citation(OPENING_HOURS)
    shown = viewer.text.toPlainText()
    assert "|" not in shown
    assert shown == (
        "The building and the reception desk are open at these times:\n\n"
        "\u2022 Day: Monday, Building open: 8:00 to 18:30, Phone lines: 8:00 to 18:30\n"
        "\u2022 Day: Saturday, Building open: 9:00 to 12:30, Phone lines: closed\n"
        "\u2022 Day: Sunday, Building open: closed, Phone lines: closed\n\n"
        "On Tuesday and Thursday evenings, pre-booked appointments only."
    )


def test_markdown_tables_lose_their_separator_and_keep_every_cell():
    from engine.qt.chat_view import reflow

    text = (
        "| Department | Phone number | Hours |\n"
        "|:---|---:|---|\n"
        "| Test results | 020 7946 0123 | Monday to Friday, 14:00 to 16:00 |\n"
        "| Imaging |  | ask at reception |"
    )
    assert reflow(text) == (
        "\u2022 Department: Test results; Phone number: 020 7946 0123; "
        "Hours: Monday to Friday, 14:00 to 16:00\n"
        "\u2022 Department: Imaging, Hours: ask at reception"
    )
    # A sentence with one pipe in it is not a table.
    assert reflow("Press 1 | 2 for the desk.") == "Press 1 | 2 for the desk."


def test_source_caption_names_the_section_then_its_document():
    from engine.qt.chat_view import source_caption

    car_park = Citation(
        1,
        "p",
        "Parking, travel and accessibility",
        "Parking, travel and accessibility > Car park:",
        "x",
        0.5,
    )
    assert source_caption(car_park) == "Source: Car park (Parking, travel and accessibility)"
    whole = Citation(2, "f", "Fees", "", "x", 0.5)
    assert source_caption(whole) == "Source: Fees"


@pytest.mark.parametrize(("touch", "first_flush"), [(False, 3), (True, 1)])
def test_a_streamed_answer_is_laid_out_again_only_at_the_width_it_is_drawn(
    qtbot, monkeypatch, touch, first_flush
):
    """Each full re-layout of a long answer at another width is a stall (benchmarks/
    stream_stall.py): a size hint for another width is measured on a copy, and an answer's body
    is in the layout before its first text, so it is never laid out at a hidden widget's width;
    the kiosk's (touch) view keeps its scroll bar, so overflowing does not narrow the text."""
    from PySide6.QtGui import QTextDocument

    relayouts: list[float] = []
    original = QTextDocument.setTextWidth

    def counting(doc: QTextDocument, width: float) -> None:
        if doc.textWidth() != width and len(doc.toPlainText()) > 1000:
            relayouts.append(width)
        original(doc, width)

    monkeypatch.setattr(QTextDocument, "setTextWidth", counting)
    view = ChatView(font_scale=2.0, touch=touch)
    qtbot.addWidget(view)
    view.resize(1300, 560)
    view.show()
    qtbot.waitExposed(view)
    bubble = view.add_answer("Searching the clinic's documents...")
    qtbot.wait(20)
    bubble.append_text("the clinic opens at eight and closes at half past six " * 200)
    qtbot.wait(20)
    # Was 9: the hidden widget's width, there-and-back measurements, the scroll bar appearing.
    assert len(relayouts) <= first_flush, relayouts
    relayouts.clear()
    bubble.append_text("and more words ")
    qtbot.wait(20)
    assert len(relayouts) <= 1, relayouts  # was 2
