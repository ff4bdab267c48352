"""The operations room: what IT runs, and the foundations every room stands on.

Foundations, importable by every room: `settings` (one settings object), `db` (connections,
the supervisor, migrations), `embedded_pg` (the private embedded server), `roles` (database
roles), `logs`, `private_files`, `preflight` and `paths`. Commands and wiring, which import the
rooms and which nothing in a room may import: `service` (builds the engine's parts for an app),
`smoke` (both apps' ``--smoke-test``), `doctor`, `evaluation` and `generation_qualification`,
and the ``clinic-assistant`` command line (`cli` and its `cli_*` subcommand modules). The
layers are import contracts in pyproject.toml.
"""
