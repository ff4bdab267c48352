"""The lean Word package reader gives the loader what python-docx reading the whole package
would: the same paragraph styles (id, name, base chain, font), title and keywords, and reads
files python-docx refuses only when the damage is in a part the loader never uses."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import docx
import pytest
from docx.enum.style import WD_STYLE_TYPE
from docx.shared import Pt

from engine.errors import DocumentUnreadable
from engine.knowledge.loaders import load_document
from engine.knowledge.loaders.docx_package import WordFile, _reachable_styles

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = [
    ROOT / "tests" / "data" / "fidelity" / "public" / "dispensary.docx",
    ROOT / "knowledge" / "public" / "vaccinations-and-travel.docx",
]


def styled_docx(tmp_path: Path) -> Path:
    """Custom styles two deep on a heading, a paragraph naming a style that does not exist, a
    character-size override, a list style."""
    document = docx.Document()
    document.core_properties.title = "Styles & bases"
    document.core_properties.keywords = "audience=public"
    section = document.styles.add_style("Section Head", WD_STYLE_TYPE.PARAGRAPH)
    section.base_style = document.styles["Heading 2"]
    deeper = document.styles.add_style("Deeper Head", WD_STYLE_TYPE.PARAGRAPH)
    deeper.base_style = section
    deeper.font.size = Pt(13)
    deeper.font.bold = True
    document.add_paragraph("Opening times", style="Deeper Head")
    document.add_paragraph("The clinic opens at 08:00.")
    document.add_paragraph("Bring your card", style="List Number")
    stray = document.add_paragraph("A paragraph whose style is missing.")
    stray.style = document.styles["Normal"]
    stray._p.get_or_add_pPr().get_or_add_pStyle().val = "NoSuchStyle"
    path = tmp_path / "styled.docx"
    document.save(str(path))
    return path


def described(style: object) -> list[tuple[object, ...]]:
    """A style and its bases as the loader reads them: id, name, own size and bold."""
    chain: list[tuple[object, ...]] = []
    while style is not None and len(chain) < 11:
        font = style.font  # type: ignore[attr-defined]
        chain.append((style.style_id, style.name, font.size, font.bold))  # type: ignore[attr-defined]
        style = style.base_style  # type: ignore[attr-defined]
    return chain


@pytest.mark.parametrize("which", ["dispensary", "vaccinations", "styled"])
def test_every_body_paragraph_has_the_style_python_docx_gives_it(
    tmp_path: Path, which: str
) -> None:
    path = styled_docx(tmp_path) if which == "styled" else SAMPLES[which == "vaccinations"]
    whole = docx.Document(str(path))
    lean = WordFile(path, max_unpacked_bytes=10**9)
    expected = [described(p.style) for p in whole.paragraphs]
    assert [described(p.style) for p in lean.document.paragraphs] == expected
    assert described(lean.styles["Normal"]) == described(whole.styles["Normal"])
    assert (lean.title, lean.keywords) == (
        whole.core_properties.title,
        whole.core_properties.keywords,
    )


def test_only_the_reachable_styles_are_parsed_from_a_large_styles_part() -> None:
    blob = zipfile.ZipFile(SAMPLES[0]).read("word/styles.xml")
    reduced = _reachable_styles(blob, {"Heading1", "Normal"})
    assert reduced is not None
    ids = [s.styleId for s in reduced.style_lst]
    assert "Heading1" in ids and "Normal" in ids
    assert len(ids) < 12  # of 164 in python-docx's template


@pytest.mark.parametrize(
    "change",
    [
        (b"<w:docDefaults>", b"<!-- a comment --><w:docDefaults>"),
        (b'w:styleId="Heading1"', b'w:styleId="Heading&#49;"'),
        (b"<w:docDefaults>", b"<?pi <w:style?><w:docDefaults>"),
    ],
)
def test_a_styles_part_of_unusual_shape_is_parsed_whole(change: tuple[bytes, bytes]) -> None:
    blob = zipfile.ZipFile(SAMPLES[0]).read("word/styles.xml")
    assert change[0] in blob
    assert _reachable_styles(blob.replace(*change, 1), {"Heading1", "Normal"}) is None


def rewrite_member(source: Path, target: Path, member: str, data: bytes) -> None:
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w") as new:
        for info in old.infolist():
            new.writestr(info, data if info.filename == member else old.read(info.filename))


def test_damage_in_a_part_the_loader_never_reads_does_not_refuse_the_file(
    tmp_path: Path,
) -> None:
    damaged = tmp_path / "dispensary.docx"
    rewrite_member(SAMPLES[0], damaged, "word/stylesWithEffects.xml", b"<w:styles><broken")
    good = tmp_path / "good" / "dispensary.docx"
    good.parent.mkdir()
    shutil.copyfile(SAMPLES[0], good)
    assert load_document(damaged).blocks == load_document(good).blocks


@pytest.mark.parametrize("member", ["word/document.xml", "docProps/core.xml", "word/styles.xml"])
def test_damage_in_a_part_the_loader_reads_refuses_the_file(tmp_path: Path, member: str) -> None:
    damaged = tmp_path / "dispensary.docx"
    rewrite_member(SAMPLES[0], damaged, member, b"<w:document><broken")
    with pytest.raises(DocumentUnreadable, match="damaged"):
        load_document(damaged)
