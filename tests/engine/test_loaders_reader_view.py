"""Markdown rendered as a reader sees it, and the .txt and .html loaders (issue #14)."""

from __future__ import annotations

from pathlib import Path

from engine.knowledge.loaders import load_document

WIKI = """---
title: Repeat prescriptions
audience: public
---
<div class="info-panel">Last edited by <strong>j.smith</strong></div>

# Repeat prescriptions

See our [price list][prices] and the **deposit** rule.<br/>Collect from the *front* desk.
Read [the NHS page](https://nhs.uk/x "NHS") or <https://example.org/help>. Ref [1] stays.

> Quoted advice: bring your card.

<h2>Opening &amp; closing</h2>
<p>Open at 8:00.</p>

![Map of the car park](map.png)

[prices]: https://example.org/prices "Prices"
"""


def _texts(path: Path) -> list[str]:
    return [b.text for b in load_document(path).blocks]


def test_wiki_markdown_keeps_words_and_drops_markup_links_and_definitions(tmp_path: Path) -> None:
    path = tmp_path / "wiki.md"
    path.write_text(WIKI, encoding="utf-8")
    document = load_document(path)
    everything = "\n".join(b.text for b in document.blocks)
    for markup in ("<div", "<strong", "<br", "](", "][", "[prices]", "https://nhs.uk", "**", "> "):
        assert markup not in everything, markup
    assert "example.org/prices" not in everything
    assert "See our price list and the deposit rule." in everything
    assert "Collect from the front desk." in everything
    assert "https://example.org/help" in everything  # a visible autolink stays readable
    assert "Ref [1] stays." in everything  # brackets that are no link are words
    assert "Quoted advice: bring your card." in everything
    assert "Map of the car park" in everything
    assert ("heading", "Opening & closing", 2) in [
        (b.kind, b.text, b.level) for b in document.blocks
    ]


def test_html_comments_and_scripts_in_markdown_never_become_text(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_text(
        "---\naudience: public\n---\n# Notes\n\nVisible.<script>alert('SECRET')</script> Also."
        "\n\n<!-- staff only: door code 4321 -->\n",
        encoding="utf-8",
    )
    everything = " ".join(_texts(path))
    assert "SECRET" not in everything and "4321" not in everything
    assert "Visible." in everything and "Also." in everything


def test_plain_text_notice_gets_paragraphs_headings_and_lists(tmp_path: Path) -> None:
    path = tmp_path / "notice.txt"
    path.write_text(
        "PHARMACY NOTICE\n\nOpening times\nThe dispensary closes early,\nat 16:00, before "
        "bank holidays.\n\nBring:\n- your repeat slip\n- ID\n\nThank you.\n",
        encoding="utf-8",
    )
    document = load_document(path)
    assert document.title == "PHARMACY NOTICE"
    shaped = [(b.kind, b.text) for b in document.blocks]
    assert ("heading", "Opening times") in shaped
    assert ("text", "The dispensary closes early, at 16:00, before bank holidays.") in shaped
    assert ("text", "Bring:\n- your repeat slip\n- ID") in shaped


def test_web_page_keeps_main_content_only(tmp_path: Path) -> None:
    path = tmp_path / "flu.html"
    path.write_text(
        '<html><head><title>Riverside | Flu</title><meta name="audience" content="public">'
        "<script>var s='SCRIPTTEXT'</script></head><body><nav>NAVTEXT</nav>"
        "<header>HEADERTEXT</header><main><h1>Flu vaccinations</h1>"
        "<p>Flu jabs are <b>free</b> for over-65s.</p><h2>How</h2>"
        "<ol><li>Book online</li><li>Arrive early</li></ol>"
        "<table><tr><th>Clinic</th><th>Day</th></tr><tr><td>Main</td><td>Saturday</td></tr>"
        "</table><div hidden>HIDDENTEXT</div></main><footer>FOOTERTEXT</footer></body></html>",
        encoding="utf-8",
    )
    document = load_document(path)
    assert (document.title, document.audience) == ("Flu vaccinations", "public")
    everything = "\n".join(b.text for b in document.blocks)
    for gone in ("SCRIPTTEXT", "NAVTEXT", "HEADERTEXT", "HIDDENTEXT", "FOOTERTEXT", "<"):
        assert gone not in everything, gone
    assert "Flu jabs are free for over-65s." in everything
    assert "1. Book online\n2. Arrive early" in everything
    assert "Clinic | Day\nMain | Saturday" in everything
    assert ("heading", "How", 2) in [(b.kind, b.text, b.level) for b in document.blocks]


def test_ligatures_nbsp_and_soft_hyphens_are_normalised_before_storing(tmp_path: Path) -> None:
    path = tmp_path / "cert.md"
    path.write_text(
        "---\naudience: public\n---\n# Certiﬁcates\n\nA ﬁtness certi\u00adficate is\u00a0oﬀered.\n",
        encoding="utf-8",
    )
    document = load_document(path)
    assert document.blocks[0].text == "Certificates"
    assert document.blocks[1].text == "A fitness certificate is offered."
