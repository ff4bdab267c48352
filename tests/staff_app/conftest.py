"""Staff app fixtures: fake services, a temporary QSettings file, a signed-in window (offscreen)."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtCore import QSettings

from staff_app.services import StaffServices
from staff_app.window import StaffWindow
from tests.support.fake_backend import FakeBackend
from tests.support.fake_staff import (
    FakeBooking,
    FakeKnowledge,
    FakeReview,
    FakeUsers,
    StaffUserView,
)

ALICE = StaffUserView("alice", "Alice Moreno", True)


def pytest_collection_modifyitems(items):
    # The offscreen platform warns when a shown window's size hints change; Xvfb and real
    # screens support it, so it is not a defect of the app.
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.path).startswith(here):
            item.add_marker(pytest.mark.qt_log_ignore("propagateSizeHints"))


@pytest.fixture
def ui_settings(tmp_path):
    return QSettings(str(tmp_path / "staff-ui.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def backend():
    return FakeBackend()


@pytest.fixture
def services(backend):
    made: list[str] = []

    def make_assistant(username: str) -> FakeBackend:
        made.append(username)
        return backend

    services = StaffServices(
        users=FakeUsers(),
        booking=FakeBooking(),
        review=FakeReview(),
        knowledge=FakeKnowledge(),
        make_assistant=make_assistant,
        check_health=backend.check_database,
    )
    services.assistants_made = made  # type: ignore[attr-defined]
    return services


@pytest.fixture
def window(qtbot, services, ui_settings):
    window = StaffWindow(services, ui_settings)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.sign_in(ALICE)
    # Sign-in starts background loads (clinicians, documents, review queue, health check).
    qtbot.waitUntil(lambda: window.health_checks >= 1 and window.tasks.running() == 0, timeout=5000)
    yield window
    window.shutdown()
