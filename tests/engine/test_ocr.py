"""Scanned PDFs: read by OCR when tesseract is installed, refused with the reason otherwise."""

from __future__ import annotations

from pathlib import Path

import matplotlib
import pytest
from fpdf import FPDF
from PIL import Image, ImageDraw, ImageFont

from engine.errors import DocumentUnreadable
from engine.knowledge.loaders import load_document
from engine.knowledge.loaders.ocr import ocr_status, tesseract_path

FONT = Path(matplotlib.__file__).parent / "mpl-data" / "fonts" / "ttf" / "DejaVuSans.ttf"
LINES = [
    "Flu clinic",
    "",
    "Flu clinics run on Saturday mornings in October.",
    "Bring your NHS number.",
]


def scanned_pdf(folder: Path) -> Path:
    """A PDF whose only content is a picture of text, as a scanner makes it."""
    image = Image.new("L", (1700, 700), 255)
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(str(FONT), 44)
    for row, line in enumerate(LINES):
        draw.text((80, 80 + row * 90), line, fill=0, font=font)
    picture = folder / "scan.png"
    image.save(picture)
    pdf = FPDF(format="A4")
    pdf.set_keywords("audience=public")
    pdf.add_page()
    pdf.image(str(picture), x=10, y=10, w=190)
    path = folder / "scanned.pdf"
    pdf.output(str(path))
    return path


def test_a_scanned_pdf_is_refused_when_ocr_is_off(tmp_path: Path) -> None:
    with pytest.raises(DocumentUnreadable, match="no text layer"):
        load_document(scanned_pdf(tmp_path), ocr=False)


@pytest.mark.skipif(tesseract_path() is None, reason="tesseract-ocr is not installed")
def test_a_scanned_pdf_is_read_by_ocr_and_marked(tmp_path: Path) -> None:
    document = load_document(scanned_pdf(tmp_path))
    text = " ".join(" ".join(b.text for b in document.blocks).split())
    assert "Saturday mornings in October" in text
    assert any(w.startswith("OCR used: 1 of 1 pages") for w in document.warnings)
    assert ocr_status()[0] is True


def test_ocr_status_is_one_sentence_either_way() -> None:
    available, detail = ocr_status()
    assert available == (tesseract_path() is not None)
    assert ("available" if available else "not installed") in detail
