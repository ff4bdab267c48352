"""The kiosk's "More below" button never hides a word of the conversation.

A long answer on the short landscape screens (1366x768, 1024x768) is paged through with the
button, as a patient does: at every page no line of text, caption or button in the conversation
lies under it, and the last page shows the answer's last line whole, with the button gone.
Geometry comes from the widgets and from the answer's own text layout (one rectangle per line).
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QApplication, QWidget

from engine.qt.chat_view import Bubble
from kiosk_app.chat_screen import ChatScreen
from kiosk_app.layout import MIN_TOUCH_PX
from tests.support.fake_backend import FakeBackend, cited_answer

QUESTION = "How do I prepare for a colonoscopy?"
STEPS = [
    "A week before, stop iron tablets and anything that thickens the stool [1].",
    "Three days before, eat a low-fibre diet: white bread, white rice, eggs, fish, chicken [1].",
    "Avoid seeds, nuts, fruit skins, salad, brown bread and cereals with bran [1].",
    "The day before, have a light breakfast, then only clear fluids until the test [1].",
    "Clear fluids are water, clear soup, black tea or coffee and jelly that is not red [1].",
    "Drink the first sachet of bowel preparation at 6 pm, mixed in a litre of water [1].",
    "Drink the second sachet at 6 am on the day, and finish it four hours before the test [1].",
    "Stay near a toilet: the preparation works within one to three hours [1].",
    "Bring a list of your medicines, your glasses and something to read [1].",
    "Someone must take you home and stay with you if you have sedation [1].",
    "You cannot drive for 24 hours after sedation, so plan your journey home [1].",
    "Ring the endoscopy unit on 020 7946 0133 if you have not opened your bowels by 10 am [1].",
    "Wear loose, comfortable clothes; you will change into a gown for the test [1].",
    "Leave jewellery and valuables at home, and remove nail varnish if you can [1].",
    "Tell the nurse if you take insulin, blood thinners or tablets for diabetes [1].",
    "The test itself takes 30 to 45 minutes; allow three hours for the whole visit [1].",
    "Afterwards you may feel bloated; walking about and warm drinks help the wind pass [1].",
    "The nurse explains the findings before you leave and gives you a written copy [1].",
    "Any samples taken go to the laboratory; the results reach your doctor within two weeks [1].",
]
LONG_ANSWER = "The clinic's documents say:\n\n" + "\n".join(f"- {s}" for s in STEPS)


def settle() -> None:
    """Let posted layout requests run, so geometry is what the screen shows."""
    for _ in range(5):
        QApplication.sendPostedEvents()
        QApplication.processEvents()


def rect_on(chat: ChatScreen, widget: QWidget) -> QRect:
    return QRect(widget.mapTo(chat, QPoint(0, 0)), widget.size())


def visible_area(chat: ChatScreen) -> QRect:
    """The part of the screen where the conversation is drawn (the scroll area's viewport)."""
    return rect_on(chat, chat.view.viewport())


def body_lines(chat: ChatScreen, bubble: Bubble) -> list[QRect]:
    """Each laid-out line of a bubble's text, where it is drawn on the chat screen."""
    body = bubble.body
    if not body.isVisible() or not body.text():
        return []
    document = body._doc  # the document the body draws (PlainTextBody.paintEvent)
    origin = body.mapTo(chat, QPoint(0, 0))
    lines = []
    block = document.begin()
    while block.isValid():
        layout = block.layout()
        for index in range(layout.lineCount()):
            line = layout.lineAt(index).naturalTextRect().translated(layout.position())
            lines.append(line.toAlignedRect().translated(origin))
        block = block.next()
    return lines


def conversation_text(chat: ChatScreen) -> list[tuple[str, QRect]]:
    """Every line of text, caption and button of the conversation, as far as it is visible."""
    shown = visible_area(chat)
    found: list[tuple[str, QRect]] = []
    for bubble in chat.view.bubbles():
        widgets: list[QWidget] = [bubble.header, bubble.status_label]
        widgets += bubble.citation_buttons() + bubble.action_buttons()
        for widget in widgets:
            if widget.isVisible():
                found.append((widget.objectName(), rect_on(chat, widget)))
        found += [(f"{bubble.role} line {n}", r) for n, r in enumerate(body_lines(chat, bubble))]
    return [(name, rect & shown) for name, rect in found if rect.intersects(shown)]


def covered(chat: ChatScreen) -> list[str]:
    button = chat.more_below
    if not button.isVisible():
        return []
    return [name for name, rect in conversation_text(chat) if rect.intersects(button.geometry())]


@pytest.mark.parametrize("size", [(1366, 768), (1024, 768)])
def test_more_below_never_covers_the_answer_and_pages_to_its_last_line(qtbot, make_window, size):
    window = make_window(FakeBackend(default=cited_answer(LONG_ANSWER)))
    window.resize(*size)
    window.ask(QUESTION)
    qtbot.waitUntil(lambda: bool(window.chat.view.bubbles()[-1].citation_buttons()), timeout=5000)
    chat, button = window.chat, window.chat.more_below
    qtbot.waitUntil(button.isVisible, timeout=2000)
    pages = 0
    while button.isVisible():
        settle()
        assert button.height() >= MIN_TOUCH_PX
        assert covered(chat) == [], (size, pages)
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=button.rect().center())
        settle()
        pages += 1
        assert pages < 30, "More below never reached the end"
    assert pages >= 2  # the answer was long enough to page through
    answer = chat.view.bubbles()[-1]
    last_line = body_lines(chat, answer)[-1]
    last_source = rect_on(chat, answer.citation_buttons()[-1])
    shown = visible_area(chat)
    assert shown.contains(last_line), (last_line, shown)
    assert shown.contains(last_source), (last_source, shown)
    assert button.isHidden() and covered(chat) == []
