"""The answering room: one question in, a stream of typed events out.

`assistant` (``Assistant.answer``) runs the path of one question in order: the route
(`routing` and `follow_up`, on the deterministic rules of ``engine.safety``), hybrid retrieval
and its relevance gate (`retrieval`; `query_words` reads a question as the documents would
write it; the sentence evidence of `extractive` over `sentences`), the grounded prompt
(`prompting`), a chat model (`ollama_chat`, `openai_chat`; `qualification` says whether a model may
act as the router), the citation guard and its exact-detail check (`citation_guard`,
`guard_details`) and the answer log (`answer_log`); also questions about the live queue, the
patient's own wait at the kiosk (`queue_answers`) and the desk's "who is waiting for Dr Hart?"
(`desk_queue_answers`), composed from a snapshot, never by a model. It reads what
``engine.knowledge`` indexed only through SQL and never imports ``engine.knowledge``,
``engine.frontdesk`` or the commands in ``engine.ops``: the live queue reaches it only as a shape
declared in ``engine.protocols`` or ``queue_answers`` (import contracts in pyproject.toml).
"""
