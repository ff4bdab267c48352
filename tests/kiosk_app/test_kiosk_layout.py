"""The kiosk at the five screen sizes clinics buy: nothing outside the window, nothing wider
than the screen, the emergency banner whole (with the keyboard open too), touch targets >= 48 px.

Offscreen, the window is resized to each size; each check walks every visible widget.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QAbstractButton, QLabel, QLineEdit, QScrollArea, QWidget

from engine.events import Citation
from kiosk_app.layout import EMERGENCY_TEXT_PT, MIN_TOUCH_PX, PORTRAIT, SHORT, metrics_for
from kiosk_app.window import KioskWindow
from tests.support.fake_backend import FakeBackend, cited_answer

SIZES = [(1920, 1080), (1366, 768), (1280, 1024), (1080, 1920), (1024, 768)]
LONG_CAPTION = Citation(
    number=1,
    document_slug="tests",
    document_title="Getting ready for a blood test at the Riverside Family Clinic",
    heading_path="Getting ready for a blood test at the Riverside Family Clinic > "
    "Fasting blood tests (glucose, cholesterol, triglycerides and iron studies)",
    text="Fasting blood tests need 10 to 12 hours without food.",
    similarity=0.8,
)
LONG_ANSWER = " ".join(["Fasting blood tests need 10 to 12 hours without food [1]."] * 12)
TOPICS = [
    "Car park",
    "Opening hours",
    "What to bring to your appointment",
    "Fasting blood tests",
    "Fees for letters and forms",
    "Toilets and baby changing",
]


def visible_widgets(window: QWidget) -> list[QWidget]:
    return [w for w in window.findChildren(QWidget) if w.isVisible() and w.width() > 0]


def rect_in_window(window: QWidget, widget: QWidget) -> QRect:
    return QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())


def clipping_ancestor(widget: QWidget) -> QScrollArea | None:
    """The scroll area whose viewport holds ``widget`` (its scroll bars are not inside it)."""
    child, parent = widget, widget.parentWidget()
    while parent is not None:
        area = parent.parentWidget()
        if isinstance(area, QScrollArea) and parent is area.viewport():
            return area
        child, parent = parent, parent.parentWidget()
    del child
    return None


def assert_fits(window: KioskWindow) -> None:
    frame = window.rect()
    for widget in visible_widgets(window):
        if widget.objectName() in ("cornerHotspot",) or widget.parentWidget() is None:
            continue
        area = clipping_ancestor(widget)
        if area is not None:
            # Inside a scroll area only the width matters: text must wrap, never run off.
            viewport = area.viewport()
            rect = QRect(widget.mapTo(viewport, QPoint(0, 0)), widget.size())
            assert rect.right() <= viewport.width() + 1, (widget, rect, viewport.width())
            continue
        rect = rect_in_window(window, widget)
        assert frame.contains(rect), (widget.objectName() or widget, rect, frame)
    for label in window.findChildren(QLabel):
        if label.isVisible() and label.wordWrap() and label.width() > 0:
            needed = label.heightForWidth(label.width())
            assert label.height() >= needed - 1, (label.text()[:40], label.height(), needed)


def assert_touch_targets(window: KioskWindow) -> None:
    for button in window.findChildren(QAbstractButton):
        if button.isVisible():
            assert button.height() >= MIN_TOUCH_PX, (button.text(), button.height())
            assert button.width() >= MIN_TOUCH_PX, (button.text(), button.width())
    for area in window.findChildren(QScrollArea):
        bar = area.verticalScrollBar()
        if bar.isVisible():
            assert bar.width() >= MIN_TOUCH_PX


@pytest.fixture(params=SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def sized(request, qtbot, make_window):
    width, height = request.param
    backend = FakeBackend(
        default=cited_answer(LONG_ANSWER, (LONG_CAPTION,)), suggestions=list(TOPICS)
    )
    # With the check-in button too (shown where the kiosk can check patients in).
    window = make_window(
        backend, check_in=lambda: None, kiosk_name="kiosk:test", call_staff=lambda: None
    )
    assert window.welcome.check_in_button.isVisibleTo(window)
    assert window.call_staff_button.isVisibleTo(window)
    window.resize(width, height)
    qtbot.waitUntil(lambda: window.size().width() == width, timeout=2000)
    qtbot.waitUntil(lambda: len(window.welcome.suggestion_buttons()) == 6, timeout=5000)
    qtbot.wait(50)
    return window


def settle(qtbot) -> None:
    qtbot.wait(80)


def test_each_size_gets_its_layout_class(sized: KioskWindow):
    assert sized.metrics == metrics_for(sized.width(), sized.height())
    if sized.height() > sized.width():
        assert sized.metrics == PORTRAIT
    if sized.height() < 900:
        assert sized.metrics == SHORT


def test_welcome_with_the_keyboard_open_fits_with_all_topics(qtbot, sized: KioskWindow):
    assert sized.keyboard.isVisible()
    settle(qtbot)
    assert sized.welcome_area.verticalScrollBar().maximum() == 0  # no needless scrolling
    for button in sized.welcome.suggestion_buttons():
        assert button.isVisible()
        bottom = button.mapTo(sized, button.rect().bottomLeft()).y()
        assert bottom < sized.keyboard_toggle.mapTo(sized, QPoint(0, 0)).y()
    assert_fits(sized)
    assert_touch_targets(sized)


def test_a_long_answer_with_a_long_caption_wraps_to_the_width(qtbot, sized: KioskWindow):
    sized.ask("How long do I fast?")
    qtbot.waitUntil(lambda: sized.chat.view.bubbles()[-1].citation_buttons() != [], timeout=5000)
    settle(qtbot)
    view = sized.chat.view
    assert view.widget().width() <= view.viewport().width()
    assert view.horizontalScrollBar().maximum() == 0
    (button,) = view.bubbles()[-1].citation_buttons()
    assert button.caption.startswith("Source: Fasting blood tests")
    assert_fits(sized)
    assert_touch_targets(sized)


def test_emergency_then_a_tap_on_the_question_box_keeps_the_banner_whole(qtbot, sized: KioskWindow):
    sized.ask("How long do I fast?")
    qtbot.waitUntil(lambda: sized.chat.view.bubbles()[-1].citation_buttons() != [], timeout=5000)
    sized.ask("my dad has chest pain")
    assert sized.keyboard.isHidden()  # folded away as the banner appears
    qtbot.mouseClick(sized.chat.input.edit, Qt.MouseButton.LeftButton)
    assert sized.keyboard.isVisible()
    settle(qtbot)
    banner = sized.chat.banner
    assert banner.isVisible()
    assert banner.text.font().pointSizeF() >= EMERGENCY_TEXT_PT
    assert banner.text_fully_visible()
    top = banner.mapTo(sized, QPoint(0, 0)).y()
    assert top >= 0
    assert banner.mapTo(sized, banner.rect().bottomLeft()).y() < sized.keyboard.y()
    assert "999" in banner.text.text()
    edit: QLineEdit = sized.chat.input.edit
    assert edit.mapTo(sized, edit.rect().bottomLeft()).y() < sized.keyboard.y()
    assert_fits(sized)


def test_the_banner_belongs_to_its_answer_only(qtbot, sized: KioskWindow):
    sized.ask("my dad has chest pain")
    assert sized.chat.banner.isVisible()
    sized.ask("Where can I park?")
    assert sized.chat.banner.isHidden()
    # The emergency answer itself still says to call 999 in the conversation above.
    assert any("999" in b.text for b in sized.chat.view.bubbles() if b.role == "answer")


def test_unavailable_screen_fits_with_emergency_advice_and_phone(qtbot, sized: KioskWindow):
    sized.database.report_unavailable("test")
    qtbot.waitUntil(lambda: sized.stack.currentWidget() is sized.unavailable, timeout=2000)
    settle(qtbot)
    screen = sized.unavailable
    assert "999" in screen.emergency_text.text()
    assert sized.settings.kiosk.clinic_phone in screen.body.text()
    assert screen.verticalScrollBar().maximum() == 0  # all of it on screen, no scrolling
    assert_fits(sized)


def test_pin_pad_fits_and_does_not_shift_after_a_wrong_pin(qtbot, sized: KioskWindow):
    sized.pin_pad.open()
    settle(qtbot)
    before = sized.pin_pad.ok_button.mapTo(sized, QPoint(0, 0))
    for digit in "1111":
        sized.pin_pad.digit_buttons[digit].click()
    sized.pin_pad.ok_button.click()
    settle(qtbot)
    assert sized.pin_pad.message.text()
    assert sized.pin_pad.ok_button.mapTo(sized, QPoint(0, 0)) == before
    card = sized.pin_pad.card
    assert sized.rect().contains(rect_in_window(sized, card))


def test_every_answer_has_the_way_to_help_under_it(qtbot, sized: KioskWindow):
    """A missed emergency ("I don't know", or a quote) still meets "call 999": the note is under
    the question box after any answer, with the keyboard open or folded, whole and on screen;
    and after a wipe, the next patient's first answer has it again."""
    note = sized.chat.emergency_note

    def shown_whole() -> None:
        assert note.isVisible()
        assert "999" in note.text() and "reception" in note.text()
        assert sized.rect().contains(rect_in_window(sized, note))
        assert note.height() >= note.heightForWidth(note.width()) - 1
        edit = sized.chat.input.edit
        assert (
            note.mapTo(sized, QPoint(0, 0)).y() >= edit.mapTo(sized, edit.rect().bottomLeft()).y()
        )
        if sized.keyboard.isVisible():
            assert note.mapTo(sized, note.rect().bottomLeft()).y() < sized.keyboard.y()

    sized.ask("Where can I park?")
    qtbot.waitUntil(lambda: sized.chat.view.bubbles()[-1].citation_buttons() != [], timeout=5000)
    settle(qtbot)
    shown_whole()
    assert_fits(sized)
    qtbot.mouseClick(sized.keyboard_toggle, Qt.MouseButton.LeftButton)
    settle(qtbot)
    shown_whole()
    sized.wipe()
    sized.ask("Do you have a gym?")
    qtbot.waitUntil(lambda: not sized.runner.is_running(), timeout=5000)
    settle(qtbot)
    shown_whole()
