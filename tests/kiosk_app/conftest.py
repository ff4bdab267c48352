"""Kiosk fixtures: a FakeBackend, a fake clock, and a shown KioskWindow (offscreen platform)."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest

from engine.events import Route
from engine.ops.settings import KioskSettings, Settings
from kiosk_app.idle import FakeClock
from kiosk_app.window import KioskWindow
from tests.support.fake_backend import FakeBackend

EMERGENCY_WORDS = ("chest pain", "can't breathe")


def fake_router(question: str) -> Route | None:
    lowered = question.lower()
    return Route.EMERGENCY if any(w in lowered for w in EMERGENCY_WORDS) else Route.INFORMATION


def pytest_collection_modifyitems(items):
    # The offscreen platform warns when a shown top-level window's size hints change; that is
    # not a defect of the kiosk (Xvfb and real screens support it).
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.path).startswith(here):
            item.add_marker(pytest.mark.qt_log_ignore("propagateSizeHints"))


@pytest.fixture
def settings(tmp_path):
    return Settings(data_dir=tmp_path, kiosk=KioskSettings(exit_pin="2468", fullscreen=False))


@pytest.fixture
def backend():
    return FakeBackend()


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def make_window(qtbot, settings, clock):
    windows = []

    def make(backend, router=fake_router, **kwargs):
        window = KioskWindow(backend, settings, clock=clock, router=router, **kwargs)
        qtbot.addWidget(window)
        window.resize(1280, 960)
        window.show()
        qtbot.waitExposed(window)
        # The start-up database check and suggestion load run on worker threads.
        qtbot.waitUntil(lambda: not window.background_busy(), timeout=5000)
        windows.append(window)
        return window

    yield make
    for window in windows:
        window.shutdown()


@pytest.fixture
def window(make_window, backend):
    return make_window(backend)
