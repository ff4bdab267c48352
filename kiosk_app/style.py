"""The kiosk's look: large type, big touch targets, high contrast, meaning never by colour alone.

Only constants and the stylesheet live here; no widget logic. Body text is at least 18 pt (24 pt
on screens 1024 px high or more), the emergency text 24 pt, every touch target at least 48 px
(scroll bar arrows included); text/background contrast is above 4.5:1 everywhere (7:1 mostly).
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import QApplication, QLineEdit

from kiosk_app.layout import MIN_TOUCH_PX, TALL, Metrics

CHAT_FONT_SCALE = 2.3  # engine.qt chat widgets: 11 pt x 2.3 = 25 pt body
BODY_PT = 24
TITLE_PT = 40
TOUCH_MIN_PX = 72
KEY_PX = 62

INK = "#000000"
PAPER = "#FFFFFF"
PRIMARY = "#003A8C"  # white on this: 10.8:1
QUESTION_BG = "#E8EEF7"
EMERGENCY = "#A50016"  # white on this: 8.3:1
WARNING_BG = "#FFF4CC"
PLACEHOLDER = "#595959"  # on white: 7.0:1 (Qt's default grey was 3.98:1)


def font(points: float, bold: bool = False) -> QFont:
    result = QFont()
    result.setPointSizeF(points)
    result.setBold(bold)
    return result


def stylesheet(m: Metrics = TALL) -> str:
    """The kiosk's stylesheet with the key and button sizes of one layout class."""
    return f"""
QWidget#kioskWindow, QWidget#welcomeScreen, QWidget#chatScreen, QWidget#unavailableScreen,
QWidget#chatContent, QScrollArea#chatView, QScrollArea#welcomeArea, QScrollArea#unavailableArea {{
    background: {PAPER}; color: {INK};
}}
QLabel {{ color: {INK}; }}
QLineEdit#questionInput {{
    border: 3px solid {INK}; border-radius: 10px; padding: 10px 16px; background: {PAPER};
    color: {INK}; min-height: {m.touch_px - 24}px;
}}
QLineEdit#questionInput:focus {{ border: 4px solid {PRIMARY}; }}
QPushButton {{
    background: {PAPER}; color: {INK}; border: 3px solid {INK}; border-radius: 10px;
    padding: 6px 18px; min-height: {MIN_TOUCH_PX - 12}px;
}}
QPushButton:pressed {{ background: {QUESTION_BG}; }}
QPushButton:disabled {{ color: #595959; border-color: #8C8C8C; background: #F0F0F0; }}
QPushButton[primary="true"] {{ background: {PRIMARY}; color: {PAPER}; border-color: {PRIMARY}; }}
QPushButton[primary="true"]:pressed {{ background: #00205A; }}
QPushButton[primary="true"]:disabled {{ background: #595959; border-color: #595959; }}
QPushButton#key {{
    min-width: {max(MIN_TOUCH_PX, int(m.key_px * 0.8))}px; min-height: {m.key_px}px; padding: 0px;
}}
QPushButton#key[active="true"] {{ background: {PRIMARY}; color: {PAPER}; }}
QLabel#emergencyNote {{ color: {EMERGENCY}; }}
QPushButton#keyboardToggle {{ border-color: {PRIMARY}; color: {PRIMARY}; padding: 8px 28px; }}
QPushButton#suggestion {{
    text-align: left; padding: 4px 12px; border-color: {PRIMARY};
    min-height: {(m.topic_px or m.touch_px) - 14}px;
}}
QPushButton#bubbleAction {{ border: 2px solid {PRIMARY}; color: {PRIMARY}; padding: 6px 18px; }}
QPushButton#citationButton {{
    text-align: left; border: 2px solid {PRIMARY}; color: {PRIMARY}; padding: 8px 14px;
}}
QFrame#questionBubble {{
    background: {QUESTION_BG}; border: 2px solid #5A6B85; border-radius: 14px;
}}
QFrame#answerBubble {{ background: {PAPER}; border: 3px solid {INK}; border-radius: 14px; }}
QFrame#questionBubble QLabel, QFrame#answerBubble QLabel {{
    border: none; background: transparent;
}}
QLabel#bubbleStatus {{ color: #333333; font-style: italic; }}
QFrame#emergencyBanner {{ background: {EMERGENCY}; border: 6px solid {INK}; }}
QFrame#emergencyBanner QLabel {{ color: {PAPER}; background: transparent; }}
QFrame#idleOverlay, QFrame#pinOverlay, QFrame#passageOverlay {{ background: rgba(0, 0, 0, 170); }}
QFrame#idleCard, QFrame#pinCard {{
    background: {PAPER}; border: 4px solid {INK}; border-radius: 18px;
}}
QFrame#passageViewer {{ background: {PAPER}; border: 4px solid {INK}; border-radius: 18px; }}
QPlainTextEdit#passageText {{ border: none; background: {PAPER}; color: {INK}; }}
QLabel#countdown {{ color: {INK}; }}
QLabel#pinMessage {{ color: {EMERGENCY}; }}
QScrollBar:vertical {{ width: {MIN_TOUCH_PX}px; background: #E6E6E6; }}
QScrollBar::handle:vertical {{ background: #4D4D4D; min-height: {MIN_TOUCH_PX}px; }}
QScrollBar::add-line:vertical, QScrollBar::sub-line:vertical {{
    height: {MIN_TOUCH_PX}px; background: #CCCCCC; subcontrol-origin: margin;
}}
QScrollBar::sub-line:vertical {{ subcontrol-position: top; }}
QScrollBar::add-line:vertical {{ subcontrol-position: bottom; }}
QScrollBar:vertical {{ margin: {MIN_TOUCH_PX}px 0px {MIN_TOUCH_PX}px 0px; }}
QPushButton#moreBelow {{
    background: {PRIMARY}; color: {PAPER}; border: 3px solid {PAPER}; border-radius: 24px;
    padding: 6px 24px;
}}
QPushButton#textSize {{ min-width: {MIN_TOUCH_PX + 16}px; padding: 4px 10px; }}
"""


STYLESHEET = stylesheet(TALL)


def readable_placeholder(edit: QLineEdit) -> None:
    """Placeholder text at 7:1 on white instead of the platform's light grey."""
    palette = edit.palette()
    palette.setColor(QPalette.ColorRole.PlaceholderText, QColor(PLACEHOLDER))
    edit.setPalette(palette)


def apply(app: QApplication) -> None:
    """Install the kiosk's stylesheet and base font on the application."""
    app.setStyleSheet(STYLESHEET)
    app.setFont(font(BODY_PT))
