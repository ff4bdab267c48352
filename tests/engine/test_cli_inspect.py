"""``clinic-assistant inspect FILE`` shows the blocks and chunks a file becomes."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.ops.cli import main

LEAFLET = Path(__file__).resolve().parents[1] / "data" / "fidelity" / "public" / "leaflet.pdf"


def test_inspect_shows_columns_in_order_headings_in_paths_and_no_running_header(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--data-dir", str(tmp_path), "inspect", str(LEAFLET)]) == 0
    out = capsys.readouterr().out
    assert "Warning:   set in two columns: read column by column" in out
    assert "[0] Your day surgery > Before your operation" in out
    assert "Reception opens at 07:15." in out
    # The left column is read to its end before the right column starts.
    assert out.index("A fitness certificate for work") < out.index("Sudden breathlessness")
    assert "Your day surgery > Advice line" in out
    assert "The surgical advice line is 020 7946 0999" in out
    chunks = out[out.index("Chunks (") :]
    assert "Leaflet RC-12" not in chunks and "Page 1 of 3" not in chunks


def test_inspect_of_an_unreadable_file_is_one_sentence_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bomb.md"
    bad.write_text("---\na: &a [1]\nb: *a\n---\nText.\n", encoding="utf-8")
    assert main(["--data-dir", str(tmp_path / "d"), "inspect", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "aliases" in err and "Traceback" not in err
