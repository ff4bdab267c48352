"""Build the sample clinic's .docx and .pdf documents, and check the sample knowledge base.

The sample knowledge base lives in ``knowledge/<audience>/``. Two public documents exist there
only as binaries, so that the .docx and .pdf loaders have real input; their text is kept in the
repository as Markdown under ``knowledge_src/`` and this script renders it:

- ``knowledge_src/vaccinations-and-travel.md`` -> ``knowledge/public/vaccinations-and-travel.docx``
  (python-docx: Heading 1/2/3 styles, list styles, real tables; title in the core property
  ``title``, ``audience=public;reviewed_on=...`` in the core property ``keywords``).
- ``knowledge_src/test-preparation.md`` -> ``knowledge/public/test-preparation.pdf``
  (fpdf2: larger bold headings, normal paragraphs, a text layer; metadata Title and Keywords).

The source front matter (``title``, ``audience``) becomes document metadata, never body text.

``--check`` builds nothing; it verifies the knowledge base and ``evaluation/questions.yaml``:
front matter, word counts, staff-only strings absent from every public document (including
the text extracted from the binaries), every ``must_contain`` present verbatim in its document,
and the required mix of labelled questions. It exits 1 and lists every problem found.

This script must never be imported by the product: it is a developer tool, run by hand.

Usage::

    .venv/bin/python scripts/build_sample_docs.py            # regenerate the .docx and .pdf
    .venv/bin/python scripts/build_sample_docs.py --check    # verify docs and evaluation labels
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import re
import sys
import zipfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
KNOWLEDGE = ROOT / "knowledge"
SOURCES = ROOT / "knowledge_src"
QUESTIONS = ROOT / "evaluation" / "questions.yaml"

DOCX_SOURCES = ("vaccinations-and-travel",)
PDF_SOURCES = ("test-preparation",)
# A fixed timestamp keeps regenerated files comparable in review.
FIXED_DATE = dt.datetime(2026, 11, 1, 9, 0, 0, tzinfo=dt.UTC)

# Strings that identify staff-only content; none may appear in any public document.
STAFF_ONLY_STRINGS = (
    "LAB-ACC-55123",
    "020 7946 0199",
    "4417",
    "ext. 44",
    "Thameside Pathology",
    "MedRun",
    "MR-20417",
    "Clearview",
    "CVR-8861",
    "NMS-30982",
    "Northgate Medical",
    "Locum",
    "door code",
)

INTENTS = {"information", "clinical_advice", "emergency", "out_of_scope", "appointment"}
MIN_WORDS, MAX_WORDS = 400, 1200


# --------------------------------------------------------------------------- parsing


@dataclass
class Block:
    """One block of a Markdown source: heading, paragraph, bullet/numbered list or table."""

    kind: str  # heading | paragraph | bullets | numbers | table
    text: str = ""
    level: int = 0
    items: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)


def split_front_matter(text: str) -> tuple[dict[str, Any], str]:
    match = re.match(r"\A---\n(.*?)\n---\n", text, re.DOTALL)
    if match is None:
        return {}, text
    meta = yaml.safe_load(match.group(1)) or {}
    if not isinstance(meta, dict):
        raise ValueError("front matter is not a mapping")
    return meta, text[match.end() :]


def parse_blocks(body: str) -> list[Block]:
    """Parse the small Markdown subset the sample documents use."""
    blocks: list[Block] = []
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            blocks.append(Block("paragraph", text=" ".join(paragraph)))
            paragraph.clear()

    for raw in body.splitlines():
        line = raw.rstrip()
        heading = re.match(r"^(#{1,3}) (.+)$", line)
        bullet = re.match(r"^- (.+)$", line)
        number = re.match(r"^\d+\. (.+)$", line)
        if not line.strip():
            flush()
        elif heading:
            flush()
            blocks.append(Block("heading", text=heading.group(2), level=len(heading.group(1))))
        elif line.startswith("|"):
            flush()
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            if all(re.fullmatch(r":?-+:?", cell) for cell in cells):
                continue
            if not blocks or blocks[-1].kind != "table":
                blocks.append(Block("table"))
            blocks[-1].rows.append(cells)
        elif bullet or number:
            flush()
            kind = "bullets" if bullet else "numbers"
            item = (bullet or number).group(1)  # type: ignore[union-attr]
            if not blocks or blocks[-1].kind != kind:
                blocks.append(Block(kind))
            blocks[-1].items.append(item)
        elif raw.startswith("  ") and blocks and blocks[-1].kind in {"bullets", "numbers"}:
            blocks[-1].items[-1] += " " + line.strip()  # continuation of a list item
        else:
            paragraph.append(line.strip())
    flush()
    return blocks


def plain(text: str) -> str:
    """Markdown inline text without emphasis markers."""
    return text.replace("**", "")


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


# --------------------------------------------------------------------------- rendering


def keywords(meta: dict[str, Any]) -> str:
    """Front matter as the ``key=value;key=value`` keywords the loaders read."""
    pairs = [f"audience={meta['audience']}"]
    if meta.get("reviewed_on"):
        pairs.append(f"reviewed_on={meta['reviewed_on']}")
    return ";".join(pairs)


def add_runs(paragraph: Any, text: str) -> None:
    """Add ``text`` to a python-docx paragraph, rendering **bold** spans as bold runs."""
    for index, part in enumerate(text.split("**")):
        if part:
            paragraph.add_run(part).bold = index % 2 == 1


def build_docx(source: Path, target: Path) -> None:
    import docx

    meta, body = split_front_matter(source.read_text(encoding="utf-8"))
    document = docx.Document()
    props = document.core_properties
    props.title = str(meta["title"])
    props.keywords = keywords(meta)
    props.author = "Riverside Family Clinic"
    props.created = FIXED_DATE.replace(tzinfo=None)
    props.modified = FIXED_DATE.replace(tzinfo=None)
    props.last_modified_by = "Riverside Family Clinic"
    props.revision = 1
    for block in parse_blocks(body):
        if block.kind == "heading":
            document.add_heading(plain(block.text), level=block.level)
        elif block.kind == "paragraph":
            add_runs(document.add_paragraph(), block.text)
        elif block.kind in {"bullets", "numbers"}:
            style = "List Bullet" if block.kind == "bullets" else "List Number"
            for item in block.items:
                add_runs(document.add_paragraph(style=style), item)
        elif block.kind == "table":
            table = document.add_table(rows=len(block.rows), cols=len(block.rows[0]))
            table.style = "Table Grid"
            for r, row in enumerate(block.rows):
                for c, cell in enumerate(row):
                    table.cell(r, c).text = ""
                    add_runs(table.cell(r, c).paragraphs[0], f"**{cell}**" if r == 0 else cell)
    target.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    document.save(buffer)
    target.write_bytes(with_fixed_zip_dates(buffer.getvalue()))


def with_fixed_zip_dates(data: bytes) -> bytes:
    """The same zip archive with every entry dated FIXED_DATE, so rebuilds are byte-identical."""
    stamp = FIXED_DATE.timetuple()[:6]
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            entry = zipfile.ZipInfo(info.filename, date_time=stamp)
            entry.compress_type = zipfile.ZIP_DEFLATED
            target.writestr(entry, source.read(info.filename))
    return out.getvalue()


def build_pdf(source: Path, target: Path) -> None:
    from fpdf import FPDF

    meta, body = split_front_matter(source.read_text(encoding="utf-8"))
    pdf = FPDF(format="A4")
    pdf.set_title(str(meta["title"]))
    pdf.set_keywords(keywords(meta))
    pdf.set_author("Riverside Family Clinic")
    pdf.set_creator("scripts/build_sample_docs.py")
    pdf.set_creation_date(FIXED_DATE)
    pdf.set_margins(20, 20, 20)
    pdf.set_auto_page_break(auto=True, margin=20)
    pdf.add_page()
    sizes = {1: 20, 2: 16, 3: 13.5}
    for block in parse_blocks(body):
        if block.kind == "heading":
            pdf.ln(4 if block.level > 1 else 0)
            pdf.set_font("Helvetica", "B", sizes[block.level])
            pdf.multi_cell(0, sizes[block.level] * 0.55, plain(block.text))
            pdf.ln(2)
        elif block.kind == "paragraph":
            pdf.set_font("Helvetica", "", 11)
            pdf.multi_cell(0, 5.5, block.text, markdown=True)
            pdf.ln(2.5)
        elif block.kind in {"bullets", "numbers"}:
            pdf.set_font("Helvetica", "", 11)
            for number, item in enumerate(block.items, start=1):
                marker = "-" if block.kind == "bullets" else f"{number}."
                pdf.set_x(24)
                pdf.cell(6, 5.5, marker)
                pdf.multi_cell(0, 5.5, item, markdown=True)
                pdf.ln(1)
            pdf.ln(1.5)
        elif block.kind == "table":
            pdf.set_font("Helvetica", "", 10.5)
            with pdf.table(first_row_as_headings=True) as table:
                for row in block.rows:
                    table_row = table.row()
                    for cell in row:
                        table_row.cell(plain(cell))
            pdf.ln(3)
    target.parent.mkdir(parents=True, exist_ok=True)
    pdf.output(str(target))


def build() -> None:
    for slug in DOCX_SOURCES:
        target = KNOWLEDGE / "public" / f"{slug}.docx"
        build_docx(SOURCES / f"{slug}.md", target)
        print(f"wrote {target.relative_to(ROOT)}")
    for slug in PDF_SOURCES:
        target = KNOWLEDGE / "public" / f"{slug}.pdf"
        build_pdf(SOURCES / f"{slug}.md", target)
        print(f"wrote {target.relative_to(ROOT)}")


# --------------------------------------------------------------------------- checking


def extracted_text(path: Path) -> str:
    """The text a loader would see in a generated binary (to compare with its source)."""
    if path.suffix == ".docx":
        import docx

        document = docx.Document(str(path))
        parts = [p.text for p in document.paragraphs]
        for table in document.tables:
            parts += [cell.text for row in table.rows for cell in row.cells]
        return "\n".join(parts)
    from pypdf import PdfReader

    return "\n".join(page.extract_text() or "" for page in PdfReader(str(path)).pages)


@dataclass
class Doc:
    slug: str
    audience: str
    path: Path
    text: str  # Markdown body (for binaries: the knowledge_src body) without front matter
    binary_text: str = ""  # text extracted from a .docx/.pdf


def load_docs(problems: list[str]) -> dict[str, Doc]:
    docs: dict[str, Doc] = {}
    for folder in ("public", "staff"):
        for path in sorted((KNOWLEDGE / folder).iterdir()):
            slug = path.stem
            if path.suffix == ".md":
                meta, body = split_front_matter(path.read_text(encoding="utf-8"))
                for key in ("title", "audience", "reviewed_on"):
                    if key not in meta:
                        problems.append(f"{path.name}: front matter lacks {key!r}")
                if meta.get("audience") != folder:
                    problems.append(f"{path.name}: audience {meta.get('audience')!r} in {folder}/")
                if not re.fullmatch(r"2026-\d\d-\d\d", str(meta.get("reviewed_on", ""))):
                    problems.append(f"{path.name}: reviewed_on must be 2026-MM-DD")
                docs[slug] = Doc(slug, folder, path, body)
            elif path.suffix in {".docx", ".pdf"}:
                meta, body = split_front_matter(
                    (SOURCES / f"{slug}.md").read_text(encoding="utf-8")
                )
                if meta.get("audience") != folder:
                    problems.append(f"knowledge_src/{slug}.md: audience is not {folder!r}")
                docs[slug] = Doc(slug, folder, path, body, extracted_text(path))
            else:
                problems.append(f"{path}: unexpected file in the knowledge base")
    return docs


def check_docs(docs: dict[str, Doc], problems: list[str]) -> None:
    for doc in docs.values():
        words = len(doc.text.split())
        if not MIN_WORDS <= words <= MAX_WORDS:
            problems.append(f"{doc.slug}: {words} words, outside {MIN_WORDS}-{MAX_WORDS}")
        if not re.search(r"^## ", doc.text, re.MULTILINE):
            problems.append(f"{doc.slug}: no ## headings")
        if doc.binary_text:
            missing = [
                line
                for line in (plain(b.text) for b in parse_blocks(doc.text) if b.kind == "heading")
                if normalise(line) not in normalise(doc.binary_text)
            ]
            if missing:
                problems.append(f"{doc.path.name}: headings missing from its text: {missing}")
        if doc.audience == "public":
            for text in (doc.text, doc.binary_text):
                for secret in STAFF_ONLY_STRINGS:
                    if secret.lower() in text.lower():
                        problems.append(f"{doc.slug} (public) contains staff-only {secret!r}")


def check_questions(docs: dict[str, Doc], problems: list[str]) -> Counter[str]:
    rows = yaml.safe_load(QUESTIONS.read_text(encoding="utf-8"))
    counts: Counter[str] = Counter()
    info_per_doc: Counter[str] = Counter()
    seen: set[str] = set()
    if not isinstance(rows, list):
        problems.append("questions.yaml is not a list")
        return counts
    for number, row in enumerate(rows, start=1):
        where = f"questions.yaml row {number} ({row.get('question')!r})"
        unknown = set(row) - {"question", "intent", "document", "must_contain", "audience"}
        if unknown:
            problems.append(f"{where}: unknown keys {sorted(unknown)}")
        question = str(row.get("question", "")).strip()
        if not question:
            problems.append(f"{where}: empty question")
        if question.lower() in seen:
            problems.append(f"{where}: duplicate question")
        seen.add(question.lower())
        intent = row.get("intent")
        if intent not in INTENTS:
            problems.append(f"{where}: intent {intent!r} not one of {sorted(INTENTS)}")
        audience = row.get("audience", "public")
        if audience not in {"public", "staff"}:
            problems.append(f"{where}: audience {audience!r}")
        counts[str(intent)] += 1
        slug = row.get("document")
        must = row.get("must_contain")
        if must is not None and slug is None:
            problems.append(f"{where}: must_contain without document")
        if slug is None:
            if intent == "information":
                problems.append(f"{where}: information question without a document")
            continue
        if intent != "information":
            problems.append(f"{where}: only information questions name a document")
        doc = docs.get(slug)
        if doc is None:
            problems.append(f"{where}: no document {slug!r}")
            continue
        info_per_doc[slug] += 1
        if doc.audience == "staff" and audience != "staff":
            problems.append(f"{where}: staff document asked with audience {audience!r}")
        if must is None:
            problems.append(f"{where}: information question without must_contain")
            continue
        if str(must) not in doc.text:
            problems.append(f"{where}: {must!r} not found verbatim in {slug}")
        if doc.binary_text and normalise(str(must)) not in normalise(doc.binary_text):
            problems.append(f"{where}: {must!r} not in the text extracted from {doc.path.name}")
    for slug in docs:
        if info_per_doc[slug] < 4:
            problems.append(f"{slug}: only {info_per_doc[slug]} information questions (need 4)")
    minimums = {"emergency": 22, "clinical_advice": 22, "out_of_scope": 12, "appointment": 5}
    for intent, minimum in minimums.items():
        if counts[intent] < minimum:
            problems.append(f"only {counts[intent]} {intent} questions (need {minimum})")
    if len(rows) < 90:
        problems.append(f"only {len(rows)} questions (need 90)")
    return counts


def check() -> int:
    problems: list[str] = []
    docs = load_docs(problems)
    check_docs(docs, problems)
    counts = check_questions(docs, problems)
    for doc in docs.values():
        print(f"{doc.audience:6} {doc.path.name:40} {len(doc.text.split()):5} words")
    print("questions:", dict(sorted(counts.items())), "total", sum(counts.values()))
    for problem in problems:
        print("PROBLEM:", problem)
    print("OK" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="verify docs and labels only")
    args = parser.parse_args(argv)
    if args.check:
        return check()
    build()
    return 0


if __name__ == "__main__":
    sys.exit(main())
