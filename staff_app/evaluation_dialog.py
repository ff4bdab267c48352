"""The evaluation report dialog: the formatted report text and the similarity plot, side by side.

It only shows an ``EvaluationOutcome`` that the Knowledge tab received from a worker thread; it
never runs the evaluation itself. The report is plain text; the plot is a PNG in a QLabel.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QPixmap
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QSplitter,
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

        self.report = QPlainTextEdit(outcome.text)
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

        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.plot)
        splitter.addWidget(self.report)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.addWidget(self.verdict)
        layout.addWidget(source)
        layout.addWidget(splitter, 1)
        layout.addWidget(note)
        layout.addWidget(buttons)
        self.resize(980, 900)
