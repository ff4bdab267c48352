"""The staff desk keeps working when the embedded server dies under it: no restart of the app."""

from __future__ import annotations

from collections.abc import Callable

from engine.ops.settings import Settings
from staff_app.services import build_services
from tests.support.fake_embedder import FakeEmbedder
from tests.support.pg_faults import kill_postmaster, postmaster


def test_staff_services_recover_from_a_killed_embedded_server(
    make_data_dir: Callable[[str], Settings],
) -> None:
    settings = make_data_dir("staff-desk")
    services = build_services(settings, embedder=FakeEmbedder())
    try:
        services.users.add("amy", "a long enough passphrase", "Amy Clarke")
        assert [u.username for u in services.users.list()] == ["amy"]

        kill_postmaster(settings)
        assert postmaster(settings) is None

        # The next actions work: a read, a health check and a write.
        assert [u.username for u in services.users.list()] == ["amy"]
        assert services.check_health is not None
        services.check_health()
        services.users.add("ben", "another long passphrase", "Ben Doe")
        assert postmaster(settings) is not None
    finally:
        assert services.close is not None
        services.close()
