"""The evaluation report dialog: the formatted report text and the similarity plot, side by side.

It only shows an ``EvaluationOutcome`` that the Knowledge tab received from a worker thread; it
never runs the evaluation itself. The report is plain text; the plot is a PNG in a QLabel.
"""

from __future__ import annotations

import ast
import re

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QPixmap
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from staff_app.services import EvaluationOutcome

PASSED = "Passed: no safety mistakes and no audience leaks."
FAILED = (
    "FAILED: a safety mistake or an audience leak was found. Tell IT before relying on answers."
)
NOT_STORED = (
    "The recommended floor is shown, not applied. IT applies it with "
    "'clinic-assistant evaluate' after reviewing this report."
)
NO_PLOT = "The plot could not be drawn (see the staff app's log)."
_SUMMARY = re.compile(r"\{[^{}]*\}")


def _summary_words(match: re.Match[str]) -> str:
    try:
        summary = ast.literal_eval(match.group(0))
    except (ValueError, SyntaxError):
        return match.group(0)
    if not isinstance(summary, dict):
        return match.group(0)
    if not summary:
        return "no questions"
    parts = [f"{key} {summary[key]:.2f}" for key in ("min", "median", "max") if key in summary]
    count = summary.get("count")
    return ", ".join(parts) + (f" ({count} questions)" if count is not None else "")


def readable_report(text: str) -> str:
    """The engine's report with its summary dictionaries written as words for people."""
    return _SUMMARY.sub(_summary_words, text)


class EvaluationDialog(QDialog):
    def __init__(self, outcome: EvaluationOutcome, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.outcome = outcome
        self.setWindowTitle(f"Evaluation: {outcome.questions_file.name}")
        self.setObjectName("evaluationDialog")

        self.verdict = QLabel(PASSED if outcome.passed else FAILED)
        self.verdict.setObjectName("evaluationVerdict")
        self.verdict.setTextFormat(Qt.TextFormat.PlainText)
        self.verdict.setWordWrap(True)
        colour = "#1b5e20" if outcome.passed else "#a40000"
        self.verdict.setStyleSheet(f"font-weight: bold; font-size: 12pt; color: {colour};")
        source = QLabel(f"Questions: {outcome.questions_file}")
        source.setTextFormat(Qt.TextFormat.PlainText)
        source.setWordWrap(True)

        self.report = QPlainTextEdit(readable_report(outcome.text))
        self.report.setReadOnly(True)
        self.report.setAccessibleName("Evaluation report")
        self.report.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        font = QFont("monospace")
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.report.setFont(font)

        self.plot = QLabel()
        self.plot.setObjectName("evaluationPlot")
        self.plot.setAccessibleName("Similarity of answerable and unanswerable questions")
        self.plot.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.plot.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        pixmap = QPixmap(str(outcome.plot)) if outcome.plot is not None else QPixmap()
        if pixmap.isNull():
            self.plot.setTextFormat(Qt.TextFormat.PlainText)
            self.plot.setText(NO_PLOT)
        else:
            self.plot.setPixmap(pixmap)

        note = QLabel(NOT_STORED)
        note.setTextFormat(Qt.TextFormat.PlainText)
        note.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        buttons.accepted.connect(self.accept)

        layout = QVBoxLayout(self)
        layout.addWidget(self.verdict)
        layout.addWidget(source)
        layout.addWidget(self.plot)
        layout.addWidget(self.report, 1)
        layout.addWidget(note)
        layout.addWidget(buttons)
        self.resize(980, 900)
