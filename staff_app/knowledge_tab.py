"""The Knowledge tab: what is indexed, ingesting folders or dropped files, and removing documents.

Ingest runs on a worker thread through ``Tasks``; its progress callback reaches the progress bar
through ``ProgressRelay`` (a queued signal), so the window stays responsive. Per-file failures are
listed in words. A file that declares no audience is not guessed: the person is asked, and only
those files are ingested again with the chosen audience. Titles are shown as plain text.
"Run evaluation" runs on a worker thread (the shipped questions, or a YAML file the person picks)
and shows the report and plot in ``EvaluationDialog``.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QMenu,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from engine.knowledge.ingest.results import IngestReport
from engine.knowledge.loaders.ocr import ocr_status
from staff_app.appointments_tab import confirm, make_table, selected_payload, set_rows
from staff_app.errors import describe
from staff_app.evaluation_dialog import EvaluationDialog
from staff_app.services import EvaluationOutcome, KnowledgeBackend
from staff_app.tasks import ProgressRelay, Tasks

COLUMNS = (
    "Title",
    "Audience",
    "Chunks",
    "Reviewed",
    "Last ingested",
    "Status",
    "File",
    "Loader warnings",
)
NO_AUDIENCE = "no audience declared"
EVALUATION_MISSING = (
    "The evaluation is run from the command line: clinic-assistant evaluate "
    "(it is not available from this window in this version)."
)
EVALUATION_HELP = (
    "Measure routing, retrieval and the relevance gate on labelled questions (takes a minute)."
)
STATUS_WORDS = {
    "created": "added",
    "updated": "updated",
    "unchanged": "unchanged",
    "removed": "removed (file no longer in the folder)",
    "failed": "FAILED",
}


def ask_audience(parent: QWidget, names: list[str]) -> str | None:
    """Ask who may see files that declare no audience. Tests replace this function."""
    listed = "\n".join(f"  {name}" for name in names[:10])
    more = f"\n  ... and {len(names) - 10} more" if len(names) > 10 else ""
    choice, ok = QInputDialog.getItem(
        parent,
        "Who may see these documents?",
        f"These files do not say who may see them:\n{listed}{more}\n\n"
        "Public documents are shown on the waiting-room kiosk. Staff documents only here.",
        ["staff (front desk only)", "public (kiosk and front desk)"],
        0,
        False,
    )
    if not ok:
        return None
    return "public" if choice.startswith("public") else "staff"


def choose_questions_file(parent: QWidget, start: Path | None) -> Path | None:
    """Ask for a YAML questions file. Tests replace this function."""
    name, _filter = QFileDialog.getOpenFileName(
        parent,
        "Labelled questions for the evaluation",
        str(start.parent) if start is not None else "",
        "Questions (*.yaml *.yml)",
    )
    return Path(name) if name else None


def local_time(moment: dt.datetime) -> dt.datetime:
    """A stored UTC time in this computer's time zone (the clinic's)."""
    return moment.astimezone() if moment.tzinfo is not None else moment


#: Who ingested, for the accounts that are not people.
INGESTED_BY_WORDS = {"cli": "command line", "system": "the system", "smoke-test": "smoke test"}
NO_INGEST_YET = "Nothing ingested from this window yet."


def document_cells(doc: Any) -> list[str]:
    ingested = f"{local_time(doc.ingested_at):%d %b %Y %H:%M}"
    by = INGESTED_BY_WORDS.get(doc.ingested_by or "", doc.ingested_by)
    return [
        doc.title,
        doc.audience,
        str(doc.chunks),
        f"{doc.reviewed_on:%d %b %Y}" if doc.reviewed_on else "not recorded",
        ingested + (f" by {by}" if by else ""),
        doc.status,
        doc.source_path,
        "; ".join(getattr(doc, "warnings", ())) or "none",
    ]


# Command-line advice that means nothing at the desk, and what to do here instead.
DESK_WORDS = (("or use --audience", "or ingest it again and choose Public or Staff when asked"),)


def desk_wording(error: str) -> str:
    for cli, desk in DESK_WORDS:
        error = error.replace(cli, desk)
    return error


def report_lines(report: IngestReport) -> list[str]:
    lines = []
    for result in report.results:
        name = Path(result.path).name
        word = STATUS_WORDS.get(result.status, result.status)
        if result.status == "failed":
            lines.append(f"{name}: {word}: {desk_wording(result.error or 'no reason given')}")
        elif result.status != "unchanged":
            lines.append(f"{name}: {word} ({result.chunks} passages, {result.audience})")
    unchanged = report.count("unchanged")
    if unchanged:
        lines.append(f"{unchanged} documents unchanged.")
    return lines or ["Nothing to ingest."]


class KnowledgeTab(QWidget):
    def __init__(
        self,
        knowledge: KnowledgeBackend,
        tasks: Tasks,
        run_evaluation: Any = None,
        parent: QWidget | None = None,
        *,
        default_questions: Path | None = None,
    ) -> None:
        super().__init__(parent)
        self.knowledge = knowledge
        self.tasks = tasks
        self.user = ""
        self.documents: list[Any] = []
        self._busy = False
        self.relay = ProgressRelay(self)
        self.relay.progress.connect(self._on_progress)
        self.setAcceptDrops(True)

        _, detail = ocr_status()
        self.ocr = QLabel(f"OCR for scanned PDFs: {detail}.")
        self.ocr.setTextFormat(Qt.TextFormat.PlainText)
        self.ocr.setObjectName("ocrInfo")
        self.ocr.setWordWrap(True)
        self.embedding = QLabel("Embedding model: loading...")
        self.embedding.setTextFormat(Qt.TextFormat.PlainText)
        self.embedding.setObjectName("embeddingInfo")
        self.embedding.setWordWrap(True)  # a long model path must not widen the window
        self.table = make_table(COLUMNS, "Indexed documents")
        self.ingest_button = QPushButton("Ingest folder...")
        self.ingest_button.setAccessibleName("Ingest a folder of documents")
        self.ingest_button.clicked.connect(self.choose_folder)
        self.files_button = QPushButton("Ingest files...")
        self.files_button.setAccessibleName("Ingest chosen files")
        self.files_button.clicked.connect(self.choose_files)
        self.changed_button = QPushButton("Re-ingest changed")
        self.changed_button.setAccessibleName("Re-ingest documents changed on disk")
        self.changed_button.clicked.connect(self.reingest_changed)
        self.remove_button = QPushButton("Remove document...")
        self.remove_button.setAccessibleName("Remove the selected document")
        self.remove_button.clicked.connect(self.remove_selected)
        self.refresh_button = QPushButton("Refresh")
        self.refresh_button.clicked.connect(self.refresh)
        self.evaluate_button = QPushButton("Run evaluation")
        self.evaluate_button.setAccessibleName("Run the evaluation")
        self.run_evaluation = run_evaluation
        self.default_questions = default_questions
        self.evaluation_dialog: EvaluationDialog | None = None
        if run_evaluation is None:
            self.evaluate_button.setEnabled(False)
            self.evaluate_button.setToolTip(EVALUATION_MISSING)
        else:
            self.evaluate_button.setToolTip(EVALUATION_HELP)
            menu = QMenu(self.evaluate_button)
            if default_questions is not None and default_questions.is_file():
                shipped = menu.addAction(f"Shipped questions ({default_questions.name})")
                shipped.triggered.connect(lambda: self.evaluate(default_questions))
            other = menu.addAction("Choose a questions file...")
            other.triggered.connect(self.choose_and_evaluate)
            self.evaluate_button.setMenu(menu)
        buttons = QHBoxLayout()
        for button in (
            self.ingest_button,
            self.files_button,
            self.changed_button,
            self.remove_button,
            self.refresh_button,
        ):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.evaluate_button)

        self.drop_hint = QLabel("Tip: drop files onto this tab to ingest them.")
        self.progress = QProgressBar()
        self.progress.setAccessibleName("Ingest progress")
        self.progress.hide()
        self.progress_label = QLabel("")
        self.progress_label.setTextFormat(Qt.TextFormat.PlainText)
        self.results = QListWidget()
        self.results.setObjectName("ingestResults")
        self.results.setAccessibleName("Ingest results")
        self.results.setMaximumHeight(150)
        self.results.addItem(NO_INGEST_YET)
        self.message = QLabel("")
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.setWordWrap(True)

        layout = QVBoxLayout(self)
        layout.addWidget(self.embedding)
        layout.addWidget(self.ocr)
        layout.addLayout(buttons)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.drop_hint)
        layout.addWidget(self.progress_label)
        layout.addWidget(self.progress)
        layout.addWidget(QLabel("Last ingest:"))
        layout.addWidget(self.results)
        layout.addWidget(self.message)

    # ----- listing -----------------------------------------------------------------------

    def refresh(self) -> None:
        knowledge = self.knowledge
        self.tasks.run(knowledge.list_documents, self._on_documents, self._on_error)
        self.tasks.run(knowledge.embedding_info, self._on_embedding, self._on_error)

    def _on_documents(self, documents: list[Any]) -> None:
        self.documents = list(documents)
        set_rows(self.table, [(doc, document_cells(doc)) for doc in documents])
        changed = sum(1 for d in documents if d.status == "changed on disk")
        missing = sum(1 for d in documents if d.status == "file missing")
        parts = [f"{len(documents)} documents indexed."]
        if changed:
            parts.append(f"{changed} changed on disk: press Re-ingest changed.")
        if missing:
            parts.append(f"{missing} whose file is missing: remove them or restore the file.")
        self.message.setText(" ".join(parts))
        self.changed_button.setEnabled(changed > 0 and not self.busy())

    def _on_embedding(self, info: Any) -> None:
        floor = "not set" if info.similarity_floor is None else f"{info.similarity_floor:.2f}"
        calibrated = (
            f", measured {info.calibrated_at:%Y-%m-%d}"
            if info.calibrated_at
            else " (configured, not measured)"
        )
        self.embedding.setText(
            f"Embedding model: {info.model_name} ({info.dimension} dimensions). "
            f"Similarity floor: {floor}{calibrated}."
        )

    def _on_error(self, error: BaseException) -> None:
        self.message.setText(describe(error))

    # ----- ingest ------------------------------------------------------------------------

    def busy(self) -> bool:
        return self._busy

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Ingest a folder of documents")
        if folder:
            self.ingest([Path(folder)], folders=True)

    def choose_files(self) -> None:
        files, _filter = QFileDialog.getOpenFileNames(
            self,
            "Ingest documents",
            "",
            "Documents (*.md *.markdown *.txt *.docx *.pdf *.html *.htm)",
        )
        if files:
            self.ingest([Path(f) for f in files], folders=False)

    def reingest_changed(self) -> None:
        changed = [d for d in self.documents if d.status == "changed on disk"]
        by_audience: dict[str, list[Path]] = {}
        for doc in changed:
            by_audience.setdefault(doc.audience, []).append(Path(doc.source_path))
        for audience, paths in by_audience.items():
            # Keep each document's audience: a changed file is not re-judged by where it sits.
            self.ingest(paths, folders=False, audience=audience)

    def ingest(self, paths: list[Path], *, folders: bool, audience: str | None = None) -> None:
        knowledge, user, relay = self.knowledge, self.user, self.relay
        method = knowledge.ingest_folders if folders else knowledge.ingest_files
        self._set_busy(True, f"Ingesting {', '.join(p.name for p in paths[:3])}...")
        self.tasks.run(
            lambda: method(paths, audience=audience, user=user, progress=relay.report),
            lambda report: self._on_ingested(report, paths, folders),
            self._on_ingest_failed,
        )

    @Slot(str, int, int)
    def _on_progress(self, slug: str, done: int, total: int) -> None:
        self.progress.setMaximum(max(total, 1))
        self.progress.setValue(done)
        self.progress_label.setText(f"Embedding {slug}: {done} of {total} passages")

    def _on_ingested(self, report: IngestReport, paths: list[Path], folders: bool) -> None:
        self._set_busy(False)
        self.results.clear()
        self.results.addItems(report_lines(report))
        undeclared = [
            Path(r.path)
            for r in report.results
            if r.status == "failed" and NO_AUDIENCE in (r.error or "")
        ]
        if undeclared:
            audience = ask_audience(self, [p.name for p in undeclared])
            if audience is not None:
                self.ingest(undeclared, folders=False, audience=audience)
                return
        self.refresh()

    def _on_ingest_failed(self, error: BaseException) -> None:
        self._set_busy(False)
        self.results.clear()
        self.results.addItem(f"Ingest stopped: {describe(error)}")

    def _set_busy(self, busy: bool, text: str = "") -> None:
        self._busy = busy
        self.progress.setVisible(busy)
        self.progress.setRange(0, 0)  # busy indicator until the first progress report
        self.progress_label.setText(text)
        for button in (
            self.ingest_button,
            self.files_button,
            self.changed_button,
            self.remove_button,
        ):
            button.setEnabled(not busy)

    # ----- drag and drop -----------------------------------------------------------------

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls() and not self.busy():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = [Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            event.acceptProposedAction()
            self.ingest(paths, folders=False)

    # ----- remove and evaluate -----------------------------------------------------------

    def remove_selected(self) -> None:
        doc = selected_payload(self.table)
        if doc is None:
            self.message.setText("Select a document first.")
            return
        question = (
            f"Remove '{doc.title}' ({doc.audience}) from the assistant?\n\n"
            "Its passages stop being used for answers at once. The file itself is not deleted."
        )
        if not confirm(self, "Remove document", question):
            return
        knowledge, user, slug = self.knowledge, self.user, doc.slug
        self.tasks.run(
            lambda: knowledge.remove_document(slug, user=user),
            lambda _removed: self.refresh(),
            self._on_error,
        )

    def choose_and_evaluate(self) -> None:
        path = choose_questions_file(self, self.default_questions)
        if path is not None:
            self.evaluate(path)

    def evaluate(self, questions: Path | None = None) -> None:
        run, path = self.run_evaluation, questions or self.default_questions
        if run is None:
            return
        if path is None:
            self.choose_and_evaluate()
            return
        self.evaluate_button.setEnabled(False)
        self.message.setText(f"Running the evaluation on {path.name}; this can take a minute...")
        self.tasks.run(lambda: run(path), self._on_evaluated, self._on_evaluation_failed)

    def _on_evaluated(self, outcome: EvaluationOutcome) -> None:
        self.evaluate_button.setEnabled(True)
        verdict = "passed" if outcome.passed else "FAILED (safety mistake or audience leak)"
        self.message.setText(f"Evaluation of {outcome.questions_file.name}: {verdict}.")
        dialog = EvaluationDialog(outcome, self)
        self.evaluation_dialog = dialog
        dialog.open()

    def _on_evaluation_failed(self, error: BaseException) -> None:
        self.evaluate_button.setEnabled(True)
        self.message.setText(describe(error))
