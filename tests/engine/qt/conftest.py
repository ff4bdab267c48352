"""Qt fixtures for the engine's Qt adapter tests (offscreen platform)."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
