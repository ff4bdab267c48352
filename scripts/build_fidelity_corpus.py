"""Build the document-fidelity corpus (tests/data/fidelity/): one document per real-world trap.

Each document plants facts that must come out whole in one chunk, and text (running headers,
footers, markup, link targets) that must appear in no chunk. ``facts.yaml`` beside the documents
lists both, and ``questions.yaml`` one question per fact; ``tests/engine/test_fidelity.py``
ingests the folder and asks them through the answer path, and ``benchmarks/ingest.py`` times it.

Traps: a two-column PDF leaflet whose lines are written across both columns row by row, with a
running header and footer on every page, ligature glyphs, a word hyphenated across a line end
and headings only slightly larger than the body; a price list drawn as a grid; a wiki export of
Markdown with HTML, reference links and link definitions; a web page with navigation, scripts
and a footer; a plain-text notice.

Run: .venv/bin/python scripts/build_fidelity_corpus.py  (deterministic; commit the output)
This script must never be imported by the product.
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "fidelity"
FIXED_DATE = dt.datetime(2026, 1, 5, 9, 0, tzinfo=dt.UTC)


def _font_dir() -> Path:
    import matplotlib

    return Path(matplotlib.__file__).parent / "mpl-data" / "fonts" / "ttf"


HEADER = "Riverside Clinic · Leaflet RC-12 · Review date 2027"
LEFT = [
    ("h", "Before your operation"),
    ("p", "Please arrive at the day unit on time. Reception opens at"),
    ("p", "07:15. Bring your appointment letter and a list of your"),
    ("p", "medicines. A member of staff will check you in and you will"),
    ("p", "be re-"),
    ("p", "quired to sign a consent form before any procedure."),
    ("h", "Eating and drinking"),
    ("p", "1. Stop eating six hours before your admission time."),
    ("p", "2. Clear water is allowed until two hours before."),
    ("p", "3. Take your usual tablets with a sip of water."),
    ("h", "Certiﬁcates"),
    ("p", "A ﬁtness certiﬁcate for work is oﬀered on the day of"),
    ("p", "discharge. It is free of charge for every patient."),
]
RIGHT = [
    ("h", "When to get help"),
    ("p", "Sudden breathlessness or chest pain after you go home"),
    ("p", "needs an ambulance: call 999 straight away."),
    ("p", "For any other worry after your operation, phone the ward"),
    ("p", "and ask for the nurse in charge. Parking is pre-booked"),
    ("p", "for patients with a blue badge."),
    ("h", "Advice line"),
    ("p", "The surgical advice line is 020 7946 0999, open every"),
    ("p", "day from 08:00 to 20:00. Outside these hours the ward"),
    ("p", "will take your call. Dressings are changed at the"),
    ("p", "practice nurse clinic three days after discharge."),
]


def build_leaflet(target: Path) -> None:
    from fpdf import FPDF

    fonts = _font_dir()
    pdf = FPDF(format="A4")
    pdf.set_title("Your day surgery")
    pdf.set_keywords("audience=public")
    pdf.set_creation_date(FIXED_DATE)
    pdf.add_font("DejaVu", "", str(fonts / "DejaVuSans.ttf"))
    pdf.add_font("DejaVu", "B", str(fonts / "DejaVuSans-Bold.ttf"))
    pdf.set_auto_page_break(False)
    for page in range(1, 4):
        pdf.add_page()
        pdf.set_font("DejaVu", "", 8)
        pdf.text(15, 12, HEADER)
        pdf.text(95, 289, f"Page {page} of 3")
        if page == 1:
            pdf.set_font("DejaVu", "B", 16)
            pdf.text(15, 26, "Your day surgery")
        left = LEFT if page == 1 else [("p", f"Page {page} notes: keep this leaflet safe.")]
        right = RIGHT if page == 1 else [("p", "Ask the ward if anything is unclear.")]
        y = 38.0
        # Written row by row across both columns, as some PDF printers do.
        for row in range(max(len(left), len(right))):
            for x, column in ((15, left), (110, right)):
                if row < len(column):
                    kind, text = column[row]
                    if kind == "h":
                        pdf.set_font("DejaVu", "B", 12)
                    else:
                        pdf.set_font("DejaVu", "", 11)
                    pdf.text(x, y, text)
            y += 6.5
    pdf.output(str(target))


PRICES = [
    ("Service", "Fee", "Notes"),
    ("Private sick note", "£25", "Ready in two working days"),
    ("Travel vaccination record", "£15", "Bring your passport"),
    ("Fitness to drive medical", "£120", "A deposit of £40 is taken when booking"),
    ("Insurance report", "£95", "Sent straight to the insurer"),
    ("Copy of records", "£10", "Free for the first request each year"),
]


def build_prices(target: Path) -> None:
    from fpdf import FPDF

    fonts = _font_dir()
    pdf = FPDF(format="A4")
    pdf.set_title("Private fees")
    pdf.set_keywords("audience=public")
    pdf.set_creation_date(FIXED_DATE)
    # An embedded Unicode font, as a designed price list has: the pound sign is text, not "GBP".
    pdf.add_font("DejaVu", "", str(fonts / "DejaVuSans.ttf"))
    pdf.add_font("DejaVu", "B", str(fonts / "DejaVuSans-Bold.ttf"))
    pdf.add_page()
    pdf.set_font("DejaVu", "B", 16)
    pdf.text(15, 20, "Private fees")
    pdf.set_font("DejaVu", "", 11)
    pdf.text(15, 30, "These services are not covered by the NHS.")
    y = 42.0
    for row in PRICES:
        for x, cell in zip((15, 85, 115), row, strict=True):
            pdf.rect(x - 2, y - 5, 70 if x == 15 else (30 if x == 85 else 80), 7)
            pdf.text(x, y, cell)
        y += 7
    pdf.output(str(target))


W_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
FOOTNOTES = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:footnotes {W_NS}>
<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>
<w:footnote w:type="continuationSeparator" w:id="0">
<w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>
<w:footnote w:id="1"><w:p><w:r>
<w:t xml:space="preserve">The dispensary phone extension is 4417.</w:t></w:r></w:p></w:footnote>
</w:footnotes>"""


def _xml(fragment: str) -> object:
    from docx.oxml import parse_xml

    return parse_xml(fragment)


def build_handbook(target: Path) -> None:
    import io
    import zipfile

    import docx
    from docx.shared import Pt

    document = docx.Document()
    document.core_properties.title = "Dispensary guide"
    document.core_properties.keywords = "audience=public"
    document.core_properties.created = FIXED_DATE.replace(tzinfo=None)
    section = document.sections[0]
    section.header.paragraphs[0].text = "Riverside Clinic dispensary"
    section.footer.paragraphs[
        0
    ].text = "The dispensary closes at 13:00 on the working day before a bank holiday."
    # A table of contents as Word writes it: a TOC field whose result repeats the headings.
    toc = document.add_paragraph()
    toc._p.append(_xml(f'<w:r {W_NS}><w:fldChar w:fldCharType="begin"/></w:r>'))
    toc._p.append(
        _xml(f'<w:r {W_NS}><w:instrText xml:space="preserve"> TOC \\o "1-3" </w:instrText></w:r>')
    )
    toc._p.append(_xml(f'<w:r {W_NS}><w:fldChar w:fldCharType="separate"/></w:r>'))
    toc._p.append(_xml(f'<w:r {W_NS}><w:t xml:space="preserve">Ordering online\t2</w:t></w:r>'))
    last = document.add_paragraph()
    last._p.append(_xml(f'<w:r {W_NS}><w:t xml:space="preserve">Collection times\t2</w:t></w:r>'))
    last._p.append(_xml(f'<w:r {W_NS}><w:fldChar w:fldCharType="end"/></w:r>'))
    document.add_heading("Ordering online", level=1)
    cited = document.add_paragraph("Order repeat medicines online or by phone.")
    cited._p.append(_xml(f'<w:r {W_NS}><w:footnoteReference w:id="1"/></w:r>'))
    for step in (
        "Sign in to the NHS App.",
        "Choose your repeat medicines.",
        "Pick Riverside dispensary as your pharmacy.",
    ):
        document.add_paragraph(step, style="List Number")
    boxed = document.add_paragraph("The registration desk is by the main door.")
    boxed._p.append(
        _xml(
            f'<w:r {W_NS} xmlns:v="urn:schemas-microsoft-com:vml"><w:pict><v:shape>'
            "<v:textbox><w:txbxContent><w:p><w:r><w:t>Registration desk hours: 08:30 to "
            "11:00 on weekdays.</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape>"
            "</w:pict></w:r>"
        )
    )
    manual = document.add_paragraph()
    run = manual.add_run("Collection times")
    run.bold = True
    run.font.size = Pt(14)
    document.add_paragraph("Prescriptions are ready to collect two working days after ordering.")
    buffer = io.BytesIO()
    document.save(buffer)
    # python-docx cannot add footnotes: add the part, its relationship and its content type.
    source = zipfile.ZipFile(io.BytesIO(buffer.getvalue()))
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        for info in source.infolist():
            data = source.read(info.filename)
            if info.filename == "[Content_Types].xml":
                data = data.replace(
                    b"</Types>",
                    b'<Override PartName="/word/footnotes.xml" ContentType="application/'
                    b'vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/></Types>',
                )
            elif info.filename == "word/_rels/document.xml.rels":
                data = data.replace(
                    b"</Relationships>",
                    b'<Relationship Id="rIdFootnotes" Type="http://schemas.openxmlformats.org/'
                    b'officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/>'
                    b"</Relationships>",
                )
            fixed = zipfile.ZipInfo(info.filename, date_time=(2026, 1, 5, 9, 0, 0))
            fixed.compress_type = zipfile.ZIP_DEFLATED
            out.writestr(fixed, data)
        fixed = zipfile.ZipInfo("word/footnotes.xml", date_time=(2026, 1, 5, 9, 0, 0))
        fixed.compress_type = zipfile.ZIP_DEFLATED
        out.writestr(fixed, FOOTNOTES.encode())


WIKI = """---
title: Repeat prescriptions
audience: public
---
<div class="info-panel">Last edited by <strong>j.smith</strong> on 2026-01-04</div>

# Repeat prescriptions

Order repeats through the NHS App or see our [price list][prices] for private items.<br/>
Allow **two working days** before you collect.

<h2>Collection times</h2>
<p>The dispensary is open 09:00 to 18:00 on weekdays.</p>

> Controlled drugs need photo ID when you collect them.

More help is on [the NHS website](https://www.nhs.uk/medicines "NHS").

[prices]: https://intranet.example.org/prices "Price list"
"""

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Riverside Clinic | Travel clinic</title>
<meta name="audience" content="public">
<script>window.tracking = "TRACKER-42";</script><style>.x{color:red}</style></head>
<body>
<nav><a href="/">Home</a> <a href="/book">Book online</a> <a href="/careers">Careers</a></nav>
<header><p>Call us: switchboard</p></header>
<main>
<h1>Travel clinic</h1>
<p>Book your travel appointment at least <strong>eight weeks</strong> before you fly.</p>
<h2>Yellow fever</h2>
<p>Yellow fever vaccination is given on Thursday afternoons only.</p>
<ul><li>Bring your itinerary</li><li>Bring previous vaccination records</li></ul>
</main>
<footer>© 2026 Riverside Clinic · Cookie settings · Privacy</footer>
</body></html>
"""

NOTICE = """Notice to patients

Bank holiday closing
The dispensary closes at 16:00 on the working day before
every bank holiday. Collect early if you can.

Flu clinic
Saturday flu clinics run in October and November.
"""

FACTS = {
    "dispensary.docx": {
        "facts": [
            ["Ordering online", "Footnote 1: The dispensary phone extension is 4417."],
            ["Ordering online", "1. Sign in to the NHS App.\n2. Choose your repeat medicines."],
            ["Ordering online", "Registration desk hours: 08:30 to 11:00 on weekdays."],
            ["Collection times", "ready to collect two working days after ordering"],
            [
                "Page headers and footers",
                "closes at 13:00 on the working day before a bank holiday",
            ],
        ],
        "absent": ["Ordering online\t2", "Collection times 2", "TOC"],
    },
    "leaflet.pdf": {
        "facts": [
            ["Before your operation", "Reception opens at 07:15."],
            ["Before your operation", "you will be required to sign a consent form"],
            ["Eating and drinking", "1. Stop eating six hours before your admission time."],
            ["Certificates", "A fitness certificate for work is offered on the day of"],
            ["When to get help", "chest pain after you go home needs an ambulance: call 999"],
            ["When to get help", "Parking is pre-booked for patients"],
            ["Advice line", "The surgical advice line is 020 7946 0999"],
        ],
        "absent": ["Leaflet RC-12", "Page 1 of 3", "Page 2 of 3", "re-quired", "ﬁ"],
    },
    "prices.pdf": {
        "facts": [
            ["Private fees", "Fitness to drive medical | £120 | A deposit of £40"],
            ["Private fees", "Service | Fee | Notes"],
        ],
        "absent": [],
    },
    "wiki.md": {
        "facts": [
            ["Repeat prescriptions", "see our price list for private items"],
            ["Repeat prescriptions", "Allow two working days before you collect."],
            ["Collection times", "The dispensary is open 09:00 to 18:00 on weekdays."],
            ["Collection times", "Controlled drugs need photo ID when you collect them."],
        ],
        "absent": [
            "<div",
            "<strong",
            "<br",
            "[prices]",
            "intranet.example.org",
            "**",
            "](",
            "nhs.uk/medicines",
        ],
    },
    "travel.html": {
        "facts": [
            ["Travel clinic", "at least eight weeks before you fly"],
            ["Yellow fever", "Yellow fever vaccination is given on Thursday afternoons only."],
            ["Yellow fever", "- Bring your itinerary"],
        ],
        "absent": ["TRACKER-42", "Careers", "Cookie settings", "switchboard", "color:red", "<"],
    },
    "notice.txt": {
        "facts": [
            [
                "Bank holiday closing",
                "The dispensary closes at 16:00 on the working day before every bank holiday.",
            ],
            ["Flu clinic", "Saturday flu clinics run in October and November."],
        ],
        "absent": [],
    },
}


#: One question per planted fact, as a patient would type it, written before the answers were
#: seen: [document, fact (as in FACTS), question, words the quoted answer must hold].
#: tests/engine/test_fidelity.py asks each through the real answer path (extractive, MiniLM) and
#: requires those words quoted with a citation to the chunk that holds the fact.
QUESTIONS = [
    [
        "leaflet.pdf",
        "Reception opens at 07:15.",
        "What time does reception open on the day of my operation?",
        "07:15",
    ],
    [
        "leaflet.pdf",
        "you will be required to sign a consent form",
        "Do I have to sign a consent form?",
        "required to sign a consent form",
    ],
    [
        "leaflet.pdf",
        "1. Stop eating six hours before your admission time.",
        "When should I stop eating before my admission?",
        "six hours",
    ],
    [
        "leaflet.pdf",
        "A fitness certificate for work is offered on the day of",
        "Can I get a fitness certificate for work?",
        "fitness certificate for work is offered",
    ],
    [
        "leaflet.pdf",
        "chest pain after you go home needs an ambulance: call 999",
        "Who do I call if I have chest pain after going home?",
        "999",
    ],
    [
        "leaflet.pdf",
        "Parking is pre-booked for patients",
        "Is parking pre-booked for patients with a blue badge?",
        "Parking is pre-booked",
    ],
    [
        "leaflet.pdf",
        "The surgical advice line is 020 7946 0999",
        "What is the surgical advice line number?",
        "020 7946 0999",
    ],
    [
        "prices.pdf",
        "Fitness to drive medical | £120 | A deposit of £40",
        "How much is the deposit for a fitness to drive medical?",
        "A deposit of £40",
    ],
    [
        "prices.pdf",
        "Service | Fee | Notes",
        "How much does a private sick note cost?",
        "Service: Private sick note, Fee: £25",
    ],
    [
        "dispensary.docx",
        "Footnote 1: The dispensary phone extension is 4417.",
        "What is the dispensary phone extension?",
        "4417",
    ],
    [
        "dispensary.docx",
        "1. Sign in to the NHS App.\n2. Choose your repeat medicines.",
        "How do I order repeat medicines in the NHS App?",
        "Sign in to the NHS App",
    ],
    [
        "dispensary.docx",
        "Registration desk hours: 08:30 to 11:00 on weekdays.",
        "What are the registration desk hours?",
        "08:30 to 11:00",
    ],
    [
        "dispensary.docx",
        "ready to collect two working days after ordering",
        "How long after ordering can I collect my prescription?",
        "two working days after ordering",
    ],
    [
        "dispensary.docx",
        "closes at 13:00 on the working day before a bank holiday",
        "When does the dispensary close before a bank holiday?",
        "13:00",
    ],
    [
        "wiki.md",
        "see our price list for private items",
        "Where do I find the price of private prescription items?",
        "price list for private items",
    ],
    [
        "wiki.md",
        "Allow two working days before you collect.",
        "How long should I allow before I collect a repeat prescription?",
        "Allow two working days",
    ],
    [
        "wiki.md",
        "The dispensary is open 09:00 to 18:00 on weekdays.",
        "What are the dispensary opening hours on weekdays?",
        "09:00 to 18:00",
    ],
    [
        "wiki.md",
        "Controlled drugs need photo ID when you collect them.",
        "Do I need ID to collect controlled drugs?",
        "photo ID",
    ],
    [
        "travel.html",
        "at least eight weeks before you fly",
        "How far ahead should I book a travel appointment?",
        "eight weeks",
    ],
    [
        "travel.html",
        "Yellow fever vaccination is given on Thursday afternoons only.",
        "When is yellow fever vaccination given?",
        "Thursday afternoons",
    ],
    [
        "travel.html",
        "- Bring your itinerary",
        "What should I bring to the yellow fever appointment?",
        "itinerary",
    ],
    [
        "notice.txt",
        "The dispensary closes at 16:00 on the working day before every bank holiday.",
        "When does the dispensary close before a bank holiday?",
        "16:00",
    ],
    [
        "notice.txt",
        "Saturday flu clinics run in October and November.",
        "Which months do the Saturday flu clinics run?",
        "October and November",
    ],
]


def build(out: Path = OUT) -> None:
    public = out / "public"
    public.mkdir(parents=True, exist_ok=True)
    build_leaflet(public / "leaflet.pdf")
    build_prices(public / "prices.pdf")
    build_handbook(public / "dispensary.docx")
    (public / "wiki.md").write_text(WIKI, encoding="utf-8")
    (public / "travel.html").write_text(PAGE, encoding="utf-8")
    (public / "notice.txt").write_text("---\naudience: public\n---\n" + NOTICE, encoding="utf-8")
    (out / "facts.yaml").write_text(
        "# Written by scripts/build_fidelity_corpus.py: [heading, text] pairs that must sit whole\n"
        "# in one chunk under that heading, and strings that must be in no chunk.\n"
        + yaml.safe_dump(FACTS, allow_unicode=True, sort_keys=True, width=200),
        encoding="utf-8",
    )
    (out / "questions.yaml").write_text(
        "# Written by scripts/build_fidelity_corpus.py: one question per planted fact,\n"
        "# [document, fact, question, words the quoted answer must hold].\n"
        + yaml.safe_dump(QUESTIONS, allow_unicode=True, width=200),
        encoding="utf-8",
    )


if __name__ == "__main__":
    build(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
    print(f"wrote {OUT.relative_to(ROOT)}")
