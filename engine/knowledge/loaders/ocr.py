"""OCR for scanned PDFs, through Debian's ``tesseract`` command when it is installed.

A PDF page with no text layer usually holds one scanned image. When ``tesseract`` is on the PATH
(``apt-get install tesseract-ocr``) and ``[ingest] ocr`` is on, :func:`ocr_pages` extracts each
page's images with pypdf and reads them with ``tesseract IMAGE stdout`` (a subprocess with a
timeout inside the file's time budget; no Python wrapper is needed). Without it, scanned PDFs
are refused as before, with the reason. :func:`ocr_status` is the one sentence ``doctor`` and the
staff app show.

OCR text can be wrong: the loader marks the document with an "OCR used" warning so staff check it.
This module never sends an image anywhere and never runs anything but ``tesseract``.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from engine.knowledge.loaders.limits import check_time

OCR_TIMEOUT_SECONDS = 120


def tesseract_path() -> str | None:
    return shutil.which("tesseract")


def ocr_status() -> tuple[bool, str]:
    """(available, one sentence) for ``doctor`` and the staff app."""
    path = tesseract_path()
    if path is None:
        return False, (
            "not installed: scanned PDFs are refused (install Debian's tesseract-ocr to read them)"
        )
    try:
        version = subprocess.run(
            [path, "--version"], capture_output=True, text=True, timeout=10, check=False
        ).stdout.split("\n", 1)[0]
    except (OSError, subprocess.SubprocessError):
        version = "tesseract"
    return True, f"available ({version.strip() or 'tesseract'}): scanned PDFs are read by OCR"


def ocr_pages(pages: list[Any]) -> list[str]:
    """The OCR text of each page's images (an empty string for a page without images)."""
    path = tesseract_path()
    if path is None:
        return []
    texts: list[str] = []
    with tempfile.TemporaryDirectory(prefix="clinic-ocr-") as folder:
        for number, page in enumerate(pages):
            check_time()
            parts: list[str] = []
            try:
                images = list(page.images)
            except Exception:  # pypdf cannot decode this page's images: nothing to read
                images = []
            for index, image in enumerate(images):
                suffix = Path(getattr(image, "name", "") or "x.png").suffix or ".png"
                target = Path(folder) / f"page{number}-{index}{suffix}"
                try:
                    target.write_bytes(image.data)
                    result = subprocess.run(
                        [path, str(target), "stdout", "-l", "eng"],
                        capture_output=True,
                        text=True,
                        timeout=OCR_TIMEOUT_SECONDS,
                        check=False,
                    )
                except (OSError, subprocess.SubprocessError, ValueError):
                    continue
                if result.returncode == 0 and result.stdout.strip():
                    parts.append(result.stdout)
            texts.append("\n\n".join(parts))
    return texts
