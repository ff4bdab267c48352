"""The front-desk room: appointments, the waiting room, staff accounts and the review queue.

`booking` (with `slot_query`, `references` and `demo_schedule`) reads wide and writes one locked
slot; `waiting_queue` runs today's queue (check-in, calls, waits), `queue_listener` hears its
live changes and `alerts` its reception alerts; `users` signs staff in; `review` holds the
questions the documents could not answer and staff decisions about them; `audit` records who did
what. It never imports ``engine.answering`` or ``engine.knowledge`` (the assistant reaches the
queue only through ``engine.protocols``) and never the commands in ``engine.ops``.
"""
