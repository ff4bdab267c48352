"""Loaders on real generated files (Markdown, python-docx, fpdf2), including their errors."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from pathlib import Path

import docx
import pypdf
import pytest
from docx.enum.style import WD_STYLE_TYPE
from fpdf import FPDF

from engine.errors import DocumentUnreadable
from engine.knowledge.chunking import chunk_document
from engine.knowledge.documents import Block, parse_metadata_pairs, title_from_filename
from engine.knowledge.loaders import SUPPORTED_SUFFIXES, load_document
from engine.ops.settings import ChunkingSettings

LONG_1 = (
    "The car park is behind the main building and has forty spaces, including six blue badge "
    "bays near the entrance. It opens at 7:30 and closes at 19:00 on weekdays."
)
LONG_2 = "Bicycles can be left in the covered rack next to the pharmacy door on Station Road."


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def texts(blocks: tuple[Block, ...]) -> list[tuple[str, str, int]]:
    return [(b.kind, b.text, b.level) for b in blocks]


# --- Markdown ---------------------------------------------------------------------------------


def test_markdown_front_matter_gives_metadata_and_never_enters_the_blocks(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "parking.md",
        "---\ntitle: Parking and access\naudience: public\nreviewed_on: 2026-10-01\n"
        "owner: Jo\n---\n\n# Parking\n\nPark behind the building.\n",
    )
    document = load_document(path)
    assert document.title == "Parking and access"
    assert document.audience == "public"
    assert document.reviewed_on == datetime.date(2026, 10, 1)
    assert document.source_path == str(path)
    assert texts(document.blocks) == [
        ("heading", "Parking", 1),
        ("text", "Park behind the building.", 0),
    ]
    assert all("audience" not in b.text and "Jo" not in b.text for b in document.blocks)


def test_markdown_structure_headings_paragraphs_lists_tables(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "guide.md",
        "# Visiting Guide\n\nWelcome to the clinic.\nWe are on Station Road.\n\n"
        "## What to bring\n\n- Your letter\n- A list of medicines\n\n- Your glasses\n"
        "  (reading ones)\n\n### Fees\n\n| Item | Price |\n|---|---:|\n| Blood test | £20 |\n"
        "| Letter | £15 |\n\nAsk reception\n---\n\nParking text.\n\n***\n\n"
        "```\n# not a heading\n```\n\n<!-- internal: staff price is £5 -->\nLast line. ##\n",
    )
    document = load_document(path)
    assert document.title == "Visiting Guide"
    assert document.audience is None
    assert document.reviewed_on is None
    assert texts(document.blocks) == [
        ("heading", "Visiting Guide", 1),
        ("text", "Welcome to the clinic. We are on Station Road.", 0),
        ("heading", "What to bring", 2),
        ("text", "- Your letter\n- A list of medicines\n- Your glasses\n  (reading ones)", 0),
        ("heading", "Fees", 3),
        ("text", "Item | Price\nBlood test | £20\nLetter | £15", 0),
        ("heading", "Ask reception", 2),
        ("text", "Parking text.", 0),
        ("text", "# not a heading", 0),  # code as a reader sees it: no fences
        ("text", "Last line. ##", 0),
    ]
    assert "£5" not in " ".join(b.text for b in document.blocks)


def test_markdown_title_falls_back_to_the_file_name(tmp_path: Path) -> None:
    path = write(tmp_path, "opening-hours_2026.markdown", "## Weekdays\n\nOpen 8 to 6.\n")
    assert load_document(path).title == "Opening hours 2026"
    assert title_from_filename(Path("Fees_Private.md")) == "Fees Private"


@pytest.mark.parametrize(
    ("front", "reason"),
    [
        ("title: [unclosed\n", "not valid YAML"),
        ("audience: everyone\n", "audience must be 'public' or 'staff'"),
        ("audience: public\nreviewed_on: next spring\n", "reviewed_on must be a date"),
        ("- just\n- a list\n", "key: value"),
    ],
)
def test_markdown_bad_front_matter_is_unreadable_with_a_reason(
    tmp_path: Path, front: str, reason: str
) -> None:
    path = write(tmp_path, "bad.md", f"---\n{front}---\n\nBody.\n")
    with pytest.raises(DocumentUnreadable, match=reason) as caught:
        load_document(path)
    assert caught.value.path == str(path)


def test_markdown_unclosed_front_matter_is_unreadable(tmp_path: Path) -> None:
    with pytest.raises(DocumentUnreadable, match="never closed"):
        load_document(write(tmp_path, "x.md", "---\ntitle: X\n\nBody.\n"))


def test_markdown_audience_is_normalised_and_staff_is_kept(tmp_path: Path) -> None:
    path = write(tmp_path, "rates.md", "---\ntitle: Rates\naudience: ' Staff '\n---\nText.\n")
    assert load_document(path).audience == "staff"


def test_markdown_that_is_not_utf8_is_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "latin.md"
    path.write_bytes("Café prices".encode("latin-1"))
    with pytest.raises(DocumentUnreadable, match="not UTF-8"):
        load_document(path)


@pytest.mark.parametrize("content", [b"", b"  \n\n "])
def test_empty_files_are_unreadable(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "empty.md"
    path.write_bytes(content)
    with pytest.raises(DocumentUnreadable, match="empty"):
        load_document(path)


def test_front_matter_without_any_body_is_unreadable(tmp_path: Path) -> None:
    with pytest.raises(DocumentUnreadable, match="no text"):
        load_document(write(tmp_path, "x.md", "---\ntitle: X\naudience: public\n---\n\n"))


@pytest.mark.parametrize("name", ["notes.rtf", "slides.pptx", "README"])
def test_unknown_extensions_are_unreadable_and_name_the_supported_ones(
    tmp_path: Path, name: str
) -> None:
    path = write(tmp_path, name, "Some text.")
    with pytest.raises(DocumentUnreadable, match="unsupported file type") as caught:
        load_document(path)
    assert all(suffix in caught.value.reason for suffix in SUPPORTED_SUFFIXES)


def test_a_missing_file_is_unreadable(tmp_path: Path) -> None:
    with pytest.raises(DocumentUnreadable, match="does not exist"):
        load_document(tmp_path / "gone.md")


def test_metadata_pairs_accept_both_spellings() -> None:
    assert parse_metadata_pairs("audience=public;reviewed_on=2026-10-01") == {
        "audience": "public",
        "reviewed_on": "2026-10-01",
    }
    assert parse_metadata_pairs("audience: staff\nreviewed-on: 2026-01-02, parking") == {
        "audience": "staff",
        "reviewed_on": "2026-01-02",
    }


# --- Word -------------------------------------------------------------------------------------


def make_docx(
    tmp_path: Path,
    build: Callable[[docx.document.Document], None],
    *,
    title: str = "",
    keywords: str = "",
    name: str = "leaflet.docx",
) -> Path:
    document = docx.Document()
    document.core_properties.title = title
    document.core_properties.keywords = keywords
    build(document)
    path = tmp_path / name
    document.save(str(path))
    return path


def test_docx_headings_tables_and_lists_in_document_order(tmp_path: Path) -> None:
    def build(d: docx.document.Document) -> None:
        d.add_paragraph("Blood Tests", style="Title")
        d.add_paragraph("Please read before your test.")
        d.add_heading("Fees", level=1)
        table = d.add_table(rows=3, cols=2)
        for row, (item, price) in enumerate([("Test", "Price"), ("Full blood count", "£20")]):
            table.cell(row, 0).text, table.cell(row, 1).text = item, price
        merged = table.cell(2, 0).merge(table.cell(2, 1))
        merged.text = "Prices include VAT"
        d.add_paragraph("Pay at reception.")
        d.add_heading("Preparation", level=2)
        d.add_paragraph("Drink water", style="List Bullet")
        d.add_paragraph("Fast for 8 hours", style="List Bullet")
        d.add_paragraph("")
        d.add_paragraph("Bring your form.")

    path = make_docx(tmp_path, build, keywords="audience=public;reviewed_on=2026-10-01")
    document = load_document(path)
    assert document.title == "Blood Tests"
    assert document.audience == "public"
    assert document.reviewed_on == datetime.date(2026, 10, 1)
    assert texts(document.blocks) == [
        ("text", "Please read before your test.", 0),
        ("heading", "Fees", 1),
        ("text", "Test | Price\nFull blood count | £20\nPrices include VAT", 0),
        ("text", "Pay at reception.", 0),
        ("heading", "Preparation", 2),
        ("text", "- Drink water\n- Fast for 8 hours", 0),
        ("text", "Bring your form.", 0),
    ]
    chunks = chunk_document(document.title, document.blocks, ChunkingSettings())
    assert chunks[1].heading_label == "Blood Tests > Fees"
    assert "£20" in chunks[1].text


def test_docx_core_title_wins_and_a_different_title_paragraph_stays_as_text(
    tmp_path: Path,
) -> None:
    def build(d: docx.document.Document) -> None:
        d.add_paragraph("Welcome!", style="Title")
        d.add_heading("Hours", level=1)
        d.add_paragraph("Open 8 to 6.")

    document = load_document(make_docx(tmp_path, build, title="Opening hours"))
    assert document.title == "Opening hours"
    assert texts(document.blocks)[0] == ("text", "Welcome!", 0)


def test_docx_title_falls_back_to_first_heading_then_file_name(tmp_path: Path) -> None:
    def with_heading(d: docx.document.Document) -> None:
        d.add_heading("Parking", level=2)
        d.add_paragraph("Behind the building.")

    def plain(d: docx.document.Document) -> None:
        d.add_paragraph("Behind the building.")

    assert load_document(make_docx(tmp_path, with_heading)).title == "Parking"
    path = make_docx(tmp_path, plain, name="car_park-rules.docx")
    assert load_document(path).title == "Car park rules"


def test_docx_without_audience_keywords_has_no_audience(tmp_path: Path) -> None:
    def build(d: docx.document.Document) -> None:
        d.add_paragraph("Text.")

    document = load_document(make_docx(tmp_path, build, keywords="parking, fees"))
    assert document.audience is None
    assert document.reviewed_on is None


def test_docx_front_matter_like_keywords_are_accepted(tmp_path: Path) -> None:
    def build(d: docx.document.Document) -> None:
        d.add_paragraph("Text.")

    document = load_document(make_docx(tmp_path, build, keywords="audience: staff"))
    assert document.audience == "staff"


def test_docx_bad_audience_is_unreadable(tmp_path: Path) -> None:
    def build(d: docx.document.Document) -> None:
        d.add_paragraph("Text.")

    with pytest.raises(DocumentUnreadable, match="audience must be"):
        load_document(make_docx(tmp_path, build, keywords="audience=patients"))


def test_docx_custom_style_based_on_a_heading_is_a_heading(tmp_path: Path) -> None:
    def build(d: docx.document.Document) -> None:
        style = d.styles.add_style("Clinic Section", WD_STYLE_TYPE.PARAGRAPH)
        style.base_style = d.styles["Heading 2"]
        d.add_paragraph("Fees", style="Clinic Section")
        d.add_paragraph("£20.")

    assert texts(load_document(make_docx(tmp_path, build)).blocks)[0] == ("heading", "Fees", 2)


def test_corrupt_docx_is_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "broken.docx"
    path.write_bytes(b"PK\x03\x04 this is not really a zip file")
    with pytest.raises(DocumentUnreadable, match="damaged"):
        load_document(path)


def test_docx_with_no_text_is_unreadable(tmp_path: Path) -> None:
    with pytest.raises(DocumentUnreadable, match="no text"):
        load_document(make_docx(tmp_path, lambda d: None))


# --- PDF --------------------------------------------------------------------------------------


def new_pdf(title: str = "", keywords: str = "") -> FPDF:
    pdf = FPDF()
    if title:
        pdf.set_title(title)
    if keywords:
        pdf.set_keywords(keywords)
    pdf.add_page()
    return pdf


def para(pdf: FPDF, text: str, style: str = "", size: int = 11, height: float = 6) -> None:
    pdf.set_font("Helvetica", style, size)
    pdf.multi_cell(0, height, text, new_x="LMARGIN", new_y="NEXT")


def save(pdf: FPDF, path: Path) -> Path:
    pdf.output(str(path))
    return path


def test_pdf_headings_by_font_size_and_wrapped_paragraphs(tmp_path: Path) -> None:
    pdf = new_pdf(keywords="audience=staff;reviewed_on=2026-03-01")
    para(pdf, "Visiting Guide", "B", 18, 10)
    para(pdf, "Parking and Access", "B", 14, 8)
    para(pdf, LONG_1 + " " + LONG_1)
    pdf.ln(3)
    para(pdf, LONG_2)
    para(pdf, "Opening Hours", "B", 14, 8)
    para(pdf, "Open Monday to Friday, 8:00 to 18:30.")
    document = load_document(save(pdf, tmp_path / "guide.pdf"))
    assert document.title == "Visiting Guide"  # no metadata title: the first heading
    assert document.audience == "staff"
    assert document.reviewed_on == datetime.date(2026, 3, 1)
    assert texts(document.blocks) == [
        ("heading", "Visiting Guide", 1),
        ("heading", "Parking and Access", 2),
        ("text", LONG_1 + " " + LONG_1, 0),
        ("text", LONG_2, 0),
        ("heading", "Opening Hours", 2),
        ("text", "Open Monday to Friday, 8:00 to 18:30.", 0),
    ]
    chunks = chunk_document(document.title, document.blocks, ChunkingSettings())
    assert [c.heading_label for c in chunks] == [
        "Visiting Guide > Parking and Access",
        "Visiting Guide > Opening Hours",
    ]


def test_pdf_bold_lines_at_body_size_are_headings(tmp_path: Path) -> None:
    pdf = new_pdf(title="Blood tests")
    para(pdf, "Before the Test", "B")
    para(pdf, LONG_1)
    para(pdf, "After the Test", "B")
    para(pdf, LONG_2)
    document = load_document(save(pdf, tmp_path / "x.pdf"))
    assert document.title == "Blood tests"
    assert [b.text for b in document.blocks if b.kind == "heading"] == [
        "Before the Test",
        "After the Test",
    ]


def test_pdf_same_font_headings_by_shape_hyphens_and_short_lines(tmp_path: Path) -> None:
    pdf = new_pdf(title="Microsoft Word - leaflet.docx")  # a file name, not a title
    pdf.set_font("Helvetica", "", 11)
    lines = [
        "Preparing for Your Colonoscopy",
        "You will need to stop eating solid food the day before your test and drink only clear",
        "fluids such as water, black tea or apple juice. Please take the bowel prep as the leaf-",
        "let explains and keep drinking until bedtime.",
        "Ring us if you feel unwell.",
        "This leaflet also applies to patients who are pre-",
        "booked through the hospital and to people who were referred by their own family doctor.",
        "Contact Details",
        "The endoscopy unit is on the second floor, and you can reach the nurses from 8:00 to",
        "18:00 on weekdays; outside those hours please call the main switchboard number instead.",
        "Endoscopy Unit",
        "Phone 020 7946 0121",
    ]
    for line in lines:
        pdf.cell(0, 6, line, new_x="LMARGIN", new_y="NEXT")
    pdf.set_y(-20)
    pdf.cell(0, 6, "1", new_x="LMARGIN", new_y="NEXT")  # page number: not content
    document = load_document(save(pdf, tmp_path / "colonoscopy.pdf"))
    assert document.title == "Preparing for Your Colonoscopy"
    assert texts(document.blocks) == [
        ("heading", "Preparing for Your Colonoscopy", 1),
        ("text", " ".join(lines[1:3])[:-1] + lines[3], 0),
        ("text", lines[4], 0),
        ("text", lines[5] + lines[6], 0),
        ("heading", "Contact Details", 1),
        # Without a vertical gap a full line ending a sentence may go on; short lines keep
        # their line breaks.
        ("text", " ".join(lines[8:11]) + "\nPhone 020 7946 0121", 0),
    ]
    assert "leaflet explains" in document.blocks[1].text
    assert "pre-booked" in document.blocks[3].text


def test_pdf_bullets_form_one_list_block(tmp_path: Path) -> None:
    pdf = new_pdf(title="Checklist")
    para(pdf, "What to Bring", "B", 14, 8)
    para(pdf, "Please bring these things with you on the day of your appointment at the clinic.")
    for item in ["- Your appointment letter", "- A list of your medicines", "- Your glasses"]:
        para(pdf, item)
    document = load_document(save(pdf, tmp_path / "x.pdf"))
    assert document.blocks[-1] == Block(
        "text", "- Your appointment letter\n- A list of your medicines\n- Your glasses"
    )


def test_pdf_without_audience_keywords_has_no_audience(tmp_path: Path) -> None:
    pdf = new_pdf(keywords="parking")
    para(pdf, LONG_1)
    document = load_document(save(pdf, tmp_path / "car-park.pdf"))
    assert document.audience is None
    assert document.title == "Car park"


def test_pdf_bad_audience_is_unreadable(tmp_path: Path) -> None:
    pdf = new_pdf(keywords="audience=everyone")
    para(pdf, LONG_1)
    with pytest.raises(DocumentUnreadable, match="audience must be"):
        load_document(save(pdf, tmp_path / "x.pdf"))


def test_scanned_pdf_with_only_an_image_says_there_is_no_text_layer(tmp_path: Path) -> None:
    from PIL import Image

    image = tmp_path / "scan.png"
    Image.new("RGB", (200, 100), "white").save(image)
    pdf = new_pdf(title="Scanned leaflet")
    pdf.image(str(image), x=10, y=10, w=100)
    with pytest.raises(DocumentUnreadable, match="no text layer") as caught:
        load_document(save(pdf, tmp_path / "scan.pdf"))
    assert "export it with text or use the .docx" in caught.value.reason


def test_password_protected_pdf_is_unreadable(tmp_path: Path) -> None:
    pdf = new_pdf()
    para(pdf, LONG_1)
    plain = save(pdf, tmp_path / "plain.pdf")
    writer = pypdf.PdfWriter(clone_from=str(plain))
    writer.encrypt(user_password="secret", owner_password="owner", algorithm="RC4-128")
    locked = tmp_path / "locked.pdf"
    with locked.open("wb") as handle:
        writer.write(handle)
    with pytest.raises(DocumentUnreadable, match="password"):
        load_document(locked)


def test_pdf_with_only_an_owner_password_is_read(tmp_path: Path) -> None:
    pdf = new_pdf()
    para(pdf, LONG_1)
    plain = save(pdf, tmp_path / "plain.pdf")
    writer = pypdf.PdfWriter(clone_from=str(plain))
    writer.encrypt(user_password="", owner_password="owner", algorithm="RC4-128")
    path = tmp_path / "restricted.pdf"
    with path.open("wb") as handle:
        writer.write(handle)
    assert load_document(path).blocks == (Block("text", LONG_1),)


@pytest.mark.parametrize(
    "content", [b"%PDF-1.4\nthis is not a pdf at all", b"\x00\x01\x02 random bytes"]
)
def test_corrupt_pdf_is_unreadable(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "broken.pdf"
    path.write_bytes(content)
    with pytest.raises(DocumentUnreadable) as caught:
        load_document(path)
    assert "damaged" in caught.value.reason or "no text layer" in caught.value.reason


def test_empty_pdf_file_is_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "empty.pdf"
    path.touch()
    with pytest.raises(DocumentUnreadable, match="empty"):
        load_document(path)


class _FooterPDF(FPDF):
    def footer(self) -> None:
        self.set_y(-15)
        self.set_font("Helvetica", "", 9)
        self.cell(0, 10, f"Page {self.page_no()}", align="C")


def test_multi_page_pdf_keeps_every_word_and_drops_page_numbers(tmp_path: Path) -> None:
    pdf = _FooterPDF()
    pdf.set_title("Handbook")
    pdf.add_page()
    paragraphs = [f"Section {i} rule: " + LONG_1.replace("forty", f"n{i}") for i in range(40)]
    for number, text in enumerate(paragraphs):
        if number % 10 == 0:
            para(pdf, f"Part {number // 10 + 1}", "B", 14, 8)
        para(pdf, text)
        pdf.ln(2)
    path = save(pdf, tmp_path / "handbook.pdf")
    assert len(pypdf.PdfReader(str(path)).pages) > 1
    document = load_document(path)
    body = [w for b in document.blocks if b.kind == "text" for w in b.text.split()]
    assert body == [w for p in paragraphs for w in p.split()]
    assert [b.text for b in document.blocks if b.kind == "heading"] == [
        "Part 1",
        "Part 2",
        "Part 3",
        "Part 4",
    ]
    assert len([b for b in document.blocks if b.kind == "text"]) == len(paragraphs)


def test_pdf_fonts_are_built_once_per_document_and_not_across_documents(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A font shared by three pages is built once (pypdf would build it per page), the text is
    what it was, and the next document builds its own fonts again."""
    from engine.knowledge.loaders import pdf as pdf_loader

    built: list[object] = []
    original = pdf_loader._build_font

    def counting(cls: object, resource: object) -> object:
        built.append(resource)
        return original(cls, resource)

    monkeypatch.setattr(pdf_loader, "_build_font", counting)
    pdf = new_pdf(title="Three pages")
    pages = [LONG_1, LONG_2, "The pharmacy closes at 13:00 on Saturdays and is shut on Sundays."]
    for page, text in enumerate(pages):
        if page:
            pdf.add_page()
        para(pdf, text)
    path = save(pdf, tmp_path / "three.pdf")
    first = load_document(path)
    assert len(built) == 1
    assert "shut on Sundays" in " ".join(b.text for b in first.blocks)
    second = load_document(path)
    assert len(built) == 2 and second.blocks == first.blocks
    assert pdf_loader._FONTS.get() is None
