"""The one Qt adapter inside the engine: answer iterators to signals, and the shared chat widgets.

Everything else under ``engine/`` stays free of Qt (an import-linter contract checks it). Both apps
import from here; this package never imports ``kiosk_app`` or ``staff_app``.
"""

from engine.qt.chat_view import Bubble, ChatView, CitationButton, citation_caption
from engine.qt.passage_viewer import PassageViewer
from engine.qt.worker import (
    AnswerRunner,
    AnswerWorker,
    BackgroundCall,
    describe_for_public,
    describe_for_staff,
)

__all__ = [
    "AnswerRunner",
    "AnswerWorker",
    "BackgroundCall",
    "Bubble",
    "ChatView",
    "CitationButton",
    "PassageViewer",
    "citation_caption",
    "describe_for_public",
    "describe_for_staff",
]
