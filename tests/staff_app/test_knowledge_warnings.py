"""The Knowledge tab shows, per document, the warnings its loader raised at ingest."""

from __future__ import annotations

import dataclasses

from staff_app.knowledge_tab import COLUMNS, document_cells
from tests.support.fake_staff import document


def test_each_document_row_shows_its_loader_warnings_or_none() -> None:
    plain = document("hours", "Opening hours")
    leaflet = dataclasses.replace(
        document("leaflet", "Day surgery"),
        warnings=("set in two columns: read column by column", "6 running header/footer lines"),
    )
    column = COLUMNS.index("Loader warnings")
    assert document_cells(plain)[column] == "none"
    assert document_cells(leaflet)[column] == (
        "set in two columns: read column by column; 6 running header/footer lines"
    )
