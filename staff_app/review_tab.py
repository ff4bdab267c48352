"""The Review tab: questions the documents could not answer, newest first, and decisions on them.

Shows counts per week, the question, what was shown and (for guarded answers) the model's
original draft, all as plain text. A decision (document needs a section / correct refusal /
other) with a comment is recorded by the review service under the signed-in user's name; the
decision log is hash-chained and its verification result is shown.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from staff_app.appointments_tab import make_table, selected_payload, set_rows
from staff_app.errors import describe
from staff_app.services import ReviewBackend
from staff_app.tasks import Tasks

QUEUE_COLUMNS = ("When", "Where", "Question", "Outcome", "Decision")
DECISIONS = (
    ("needs_section", "Document needs a section"),
    ("correct_refusal", "Correct refusal"),
    ("other", "Other"),
)
OUTCOME_WORDS = {
    "no_answer": "not in the documents",
    "guarded": "draft withheld (no valid citation)",
    "failed": "failed",
    "clinical": "clinical referral",
    "emergency": "emergency redirect",
}
#: Outcomes counted per week that are not in the queue (answers people got).
ANSWERED_WORDS = {"extractive": "quoted from the documents", "answered": "answered"}
CHANNEL_WORDS = {"kiosk": "Kiosk", "staff": "Front desk", "cli": "Command line"}
CHAIN_OK = "Decision log intact: every entry's checksum verifies."


def where_text(item: Any) -> str:
    """Which screen asked, and whose documents it could see: "Kiosk (public)"."""
    return f"{CHANNEL_WORDS.get(item.channel, item.channel)} ({item.audience})"


def queue_cells(item: Any) -> list[str]:
    decision = dict(DECISIONS).get(item.decision or "", "")
    if decision and item.decided_by:
        decision = f"{decision} ({item.decided_by})"
    return [
        f"{item.created_at:%a %d %b %H:%M}",
        where_text(item),
        item.question,
        OUTCOME_WORDS.get(item.outcome, item.outcome),
        decision or "waiting",
    ]


def weekly_text(weeks: list[tuple[Any, dict[str, int]]]) -> str:
    """Questions asked per week and how they ended, newest week first; a run of quiet weeks is
    one line, so the queue keeps the space."""
    if not any(counts for _start, counts in weeks):
        return "No questions asked in the last weeks."
    words = {**ANSWERED_WORDS, **OUTCOME_WORDS}
    lines: list[str] = []
    quiet = 0
    for start, counts in reversed(weeks):
        total = sum(counts.values())
        if not total:
            quiet += 1
            continue
        if quiet:
            weeks_text = f"{quiet} week{'s' if quiet > 1 else ''}"
            lines.append(
                f"Last {weeks_text}: no questions"
                if not lines
                else f"{weeks_text} with no questions"
            )
            quiet = 0
        parts = ", ".join(
            f"{count} {words.get(outcome, outcome)}" for outcome, count in sorted(counts.items())
        )
        noun = "question" if total == 1 else "questions"
        lines.append(f"Week of {start:%d %b %Y}: {total} {noun} ({parts})")
    if quiet:
        lines.append(f"Before that, {quiet} week{'s' if quiet > 1 else ''} with no questions")
    return "\n".join(lines)


def plain_box(name: str) -> QPlainTextEdit:
    box = QPlainTextEdit()
    box.setReadOnly(True)
    box.setAccessibleName(name)
    return box


class ReviewTab(QWidget):
    def __init__(self, review: ReviewBackend, tasks: Tasks, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.review = review
        self.tasks = tasks
        self.user = ""

        self.chain = QLabel("Checking the decision log...")
        self.chain.setObjectName("chainStatus")
        self.chain.setTextFormat(Qt.TextFormat.PlainText)
        self.chain.setWordWrap(True)
        self.weekly = QLabel("")
        self.weekly.setObjectName("weeklyCounts")
        self.weekly.setTextFormat(Qt.TextFormat.PlainText)
        self.show_decided = QCheckBox("Show decided")
        self.show_decided.setAccessibleName("Show questions already decided")
        self.show_decided.toggled.connect(self.refresh)
        self.recorded = QLabel("")
        self.recorded.setObjectName("recordedDecision")
        self.recorded.setTextFormat(Qt.TextFormat.PlainText)
        refresh = QPushButton("Refresh")
        refresh.clicked.connect(self.refresh)
        top = QHBoxLayout()
        top.addWidget(self.weekly, 1)
        top.addWidget(self.recorded, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self.show_decided, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(refresh, 0, Qt.AlignmentFlag.AlignTop)

        self.table = make_table(QUEUE_COLUMNS, "Review queue")
        self.table.itemSelectionChanged.connect(self._show_selected)

        self.question = plain_box("Question")
        self.question.setMaximumHeight(64)
        self.shown = plain_box("Text shown to the person")
        self.original = plain_box("The model's original draft")
        self.reason = QLabel("")
        self.reason.setTextFormat(Qt.TextFormat.PlainText)
        self.reason.setWordWrap(True)
        self.comment = QLineEdit()
        self.comment.setAccessibleName("Comment on the decision")
        self.comment.setPlaceholderText("What is missing or wrong? (optional)")
        self.decision_buttons: dict[str, QPushButton] = {}
        decision_row = QHBoxLayout()
        for key, label in DECISIONS:
            button = QPushButton(label)
            button.setAccessibleName(label)
            button.clicked.connect(lambda _checked=False, k=key: self.decide(k))
            self.decision_buttons[key] = button
            decision_row.addWidget(button)
        self.message = QLabel("")
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.setWordWrap(True)

        details = QGroupBox("Selected question")
        form = QFormLayout(details)
        form.addRow("Question", self.question)
        form.addRow("Shown", self.shown)
        self.original_label = QLabel("Original draft")
        form.addRow(self.original_label, self.original)
        self.reason_label = QLabel("Why withheld")
        form.addRow(self.reason_label, self.reason)
        form.addRow("Comment", self.comment)
        form.addRow("Decision", decision_row)
        form.addRow("", self.message)

        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.table)
        splitter.addWidget(details)
        layout = QVBoxLayout(self)
        layout.addWidget(self.chain)
        layout.addLayout(top)
        layout.addWidget(splitter, 1)
        self._set_details(None)

    def refresh(self) -> None:
        review, decided = self.review, self.show_decided.isChecked()
        self.tasks.run(
            lambda: review.queue(include_decided=decided), self._on_queue, self._on_error
        )
        self.tasks.run(review.weekly_counts, self._on_weekly, self._on_error)
        self.tasks.run(review.verify_chain, self._on_chain, self._on_chain_error)

    def _on_queue(self, items: list[Any]) -> None:
        current = selected_payload(self.table)
        row = self.table.currentRow()
        set_rows(self.table, [(item, queue_cells(item)) for item in items])
        if current is not None and items:
            # Stay where the reviewer was: the same question if it is still listed, else the
            # one that moved up into its place (never back to the top of the queue).
            ids = [item.answer_id for item in items]
            if current.answer_id in ids:
                self.table.selectRow(ids.index(current.answer_id))
            else:
                self.table.selectRow(min(max(row, 0), len(items) - 1))
        if not items:
            self._set_details(None)
            self.message.setText("Nothing waiting for review.")

    def _on_weekly(self, weeks: list[tuple[Any, dict[str, int]]]) -> None:
        self.weekly.setText(weekly_text(weeks))

    def _on_chain(self, bad: list[int]) -> None:
        if bad:
            shown = ", ".join(str(b) for b in bad[:10])
            self.chain.setText(
                f"WARNING: the decision log does not verify at entries {shown}. It may have been "
                "edited outside the app; tell IT."
            )
            self.chain.setStyleSheet("color: #a40000; font-weight: bold;")
        else:
            self.chain.setText(CHAIN_OK)
            self.chain.setStyleSheet("color: #1b5e20;")

    def _on_chain_error(self, error: BaseException) -> None:
        self.chain.setText(f"Could not check the decision log: {describe(error)}")
        self.chain.setStyleSheet("")

    def _on_error(self, error: BaseException) -> None:
        self.message.setText(describe(error))

    def _show_selected(self) -> None:
        self._set_details(selected_payload(self.table))

    def _set_details(self, item: Any) -> None:
        self.question.setPlainText(item.question if item else "")
        self.shown.setPlainText(item.shown_text if item else "")
        original = item.original_text if item else None
        self.original.setPlainText(original or "")
        self.original.setVisible(bool(original))
        self.original_label.setVisible(bool(original))
        reason = (item.guard_reason or "") if item else ""
        self.reason.setText(reason)
        self.reason.setVisible(bool(reason))
        self.reason_label.setVisible(bool(reason))
        for button in self.decision_buttons.values():
            button.setEnabled(item is not None and not item.decision)
        if item is not None and item.decision:
            self.message.setText(f"Already decided by {item.decided_by}: {item.comment or ''}")
        else:
            self.message.setText("")

    def decide(self, decision: str) -> None:
        item = selected_payload(self.table)
        if item is None:
            self.message.setText("Select a question first.")
            return
        review, user, comment = self.review, self.user, self.comment.text().strip()
        answer_id = item.answer_id
        for button in self.decision_buttons.values():
            button.setEnabled(False)
        self.tasks.run(
            lambda: review.decide(answer_id, decision, comment, user),
            lambda _hash: self._on_decided(decision),
            self._on_error,
        )

    def _on_decided(self, decision: str) -> None:
        self.comment.clear()
        self.recorded.setText(f"Recorded: {dict(DECISIONS)[decision]}, by {self.user}.")
        self.refresh()
