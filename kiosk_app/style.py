"""The kiosk's look: large type, big touch targets, high contrast, meaning never by colour alone.

Only constants and the stylesheet live here; no widget logic. Body text is at least 20 pt and
every touch target at least 48 px (we use 64+); text/background contrast is above 7:1.
"""

from __future__ import annotations

from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication

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


def font(points: float, bold: bool = False) -> QFont:
    result = QFont()
    result.setPointSizeF(points)
    result.setBold(bold)
    return result


STYLESHEET = f"""
QWidget#kioskWindow, QWidget#welcomeScreen, QWidget#chatScreen, QWidget#unavailableScreen,
QWidget#chatContent, QScrollArea#chatView, QScrollArea#welcomeArea {{
    background: {PAPER}; color: {INK};
}}
QLabel {{ color: {INK}; }}
QLineEdit#questionInput {{
    border: 3px solid {INK}; border-radius: 10px; padding: 10px 16px; background: {PAPER};
    color: {INK}; min-height: {TOUCH_MIN_PX}px;
}}
QLineEdit#questionInput:focus {{ border: 4px solid {PRIMARY}; }}
QPushButton {{
    background: {PAPER}; color: {INK}; border: 3px solid {INK}; border-radius: 10px;
    padding: 8px 18px; min-height: {TOUCH_MIN_PX - 20}px;
}}
QPushButton:pressed {{ background: {QUESTION_BG}; }}
QPushButton[primary="true"] {{ background: {PRIMARY}; color: {PAPER}; border-color: {PRIMARY}; }}
QPushButton[primary="true"]:pressed {{ background: #00205A; }}
QPushButton#key {{ min-width: {KEY_PX}px; min-height: {KEY_PX}px; padding: 0px; }}
QPushButton#key[active="true"] {{ background: {PRIMARY}; color: {PAPER}; }}
QPushButton#keyboardToggle {{ border-color: {PRIMARY}; color: {PRIMARY}; padding: 8px 28px; }}
QPushButton#suggestion {{ text-align: left; padding: 12px 22px; border-color: {PRIMARY}; }}
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
QScrollBar:vertical {{ width: 28px; }}
"""


def apply(app: QApplication) -> None:
    """Install the kiosk's stylesheet and base font on the application."""
    app.setStyleSheet(STYLESHEET)
    app.setFont(font(BODY_PT))
