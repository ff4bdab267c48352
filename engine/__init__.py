"""Clinic Assistant engine: the Qt-free core shared by the kiosk and the staff app.

Four rooms, one per domain: ``engine.answering`` (a question to a cited answer),
``engine.knowledge`` (documents to indexed passages), ``engine.frontdesk`` (appointments, the
waiting room, staff accounts, review) and ``engine.ops`` (settings, the database, logs, and the
commands that wire the rooms together). Beside them the shared kernel every room may use:
``errors``, ``events``, ``protocols``, ``validation``, ``models``, ``safety`` (the deterministic
router), ``migrations``. The rooms never import one another; the import contracts in
pyproject.toml say exactly what may import what.

Nothing in this package (outside ``engine.qt``) may import Qt or either app.
"""

__version__ = "0.1.0"
