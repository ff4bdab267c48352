"""The knowledge room: documents in, cited passages in PostgreSQL out.

`loaders` read Markdown, Word, PDF (with OCR), plain text and web pages into the common block
shape of `documents`; `chunking` cuts blocks into heading-aware passages; `embeddings` turns
them into vectors offline (fastembed, or an Ollama embedding model); `ingest` stores them
idempotently, one ingest at a time; `catalog` lists what is indexed for the staff app. It never
imports ``engine.answering`` or ``engine.frontdesk`` (the one exception, declared in
pyproject.toml: `embeddings` uses ``engine.answering.ollama_chat``'s client for Ollama
embeddings) and never the commands in ``engine.ops``.
"""
