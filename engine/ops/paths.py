"""Where read-only files that ship with the product live (source tree or frozen build)."""

from __future__ import annotations

import sys
from pathlib import Path


def resources_dir() -> Path:
    """The ``resources/`` folder: beside the packages in a checkout, in ``_MEIPASS`` when frozen."""
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        return Path(frozen) / "resources"
    return Path(__file__).resolve().parent.parent.parent / "resources"


def knowledge_dir() -> Path:
    """The sample clinic's documents shipped with the product."""
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        return Path(frozen) / "knowledge"
    return Path(__file__).resolve().parent.parent.parent / "knowledge"
