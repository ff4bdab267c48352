"""Staff questions about the live queue ("who is waiting for Dr Hart?"), answered from a snapshot.

At the desk, "who is waiting for Dr Hart?", "who's next for physio?" and "how many are waiting?"
are answered from today's open queue, cited as a source of its own (``Live queue, 10:42``) like a
document, exactly as the kiosk's own-wait answers are (``engine.answering.queue_answers``). The
answer is composed here from the snapshot's rows, never by a model, so no name, ticket or minute can
be changed on the way: the list shown is the list the database held at that minute (and, like every
answer citing the queue, each number in it is checked against the cited rows before it is shown).

It decides whether a question asks about the desk's queue, which clinician or department it
names (a name that matches nobody says so and shows the whole queue: "nobody is waiting for Dr
Hartt" would be a wrong answer), and what the answer says. It reaches the queue only through
:class:`engine.protocols.DeskQueueSnapshot`; it never imports the front-desk code. The snapshot
holds patients' names: only a staff assistant may call :func:`desk_queue_answer`
(``engine.answering.assistant`` checks the audience; the kiosk's backend is never given a queue
source). Waits that are not today's waiting room (results, referrals, a waiting list, free slots)
are not queue questions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.answering.queue_answers import LIVE_QUEUE_SLUG, LIVE_QUEUE_TITLE, checked
from engine.events import Citation
from engine.protocols import DeskQueueEntry, DeskQueueSnapshot

_ASKS = re.compile(
    r"\b(who(?:'?s| is| are| has| have)?\s+(?:been\s+|still\s+|now\s+|the\s+)?"
    r"(?:waiting|next|in the (?:queue|waiting room)|checked in|arrived|here)"
    r"|how many\b.*\b(?:waiting|in the (?:queue|waiting room)|checked in|arrived|here)"
    r"|(?:any ?one|any ?body|some ?one|some ?body) (?:still |else )?(?:waiting|in the queue)"
    r"|(?:show|list|see|read)\b.*\b(?:queue|waiting room|waiting)"
    r"|(?:what(?:'?s| is)|today's) (?:the |today's )?(?:queue|waiting room)\b)",
    re.IGNORECASE,
)
# Waits that are not today's waiting room, and booking questions.
_NOT_QUEUE = re.compile(
    r"\b(results?|referrals?|letters?|prescriptions?|waiting list|operations?|surgery|"
    r"available|free|slots?|book(?:ing|ed)?|reports?|scans?|x-?rays?|sick note|refunds?|"
    r"next of kin)\b",
    re.IGNORECASE,
)
DESK_NOT_VERIFIED = "The live queue could not be read reliably just now: see the Queue tab."
_NEXT = re.compile(r"\bnext\b", re.IGNORECASE)
_COUNT = re.compile(r"\bhow many\b", re.IGNORECASE)
_TARGET = re.compile(r"\b(?:for|with|to see|of)\s+(?P<target>[^?.!]+)", re.IGNORECASE)
_TITLES = {"dr", "doctor", "nurse", "mr", "mrs", "ms", "miss", "prof", "professor"}
# Words of the question that never name a clinician or department.
_FILLER = {
    "the", "a", "an", "today", "now", "right", "this", "morning", "afternoon", "still", "please",
    "at", "in", "queue", "waiting", "room", "clinic", "here", "moment", "currently", "so", "far",
    "patients", "patient", "people", "who", "whos", "next", "many", "how", "are", "is", "has",
    "have", "been", "arrived", "checked", "list", "show", "see", "me", "and", "any", "anyone",
    "everyone", "all", "department", "clinician", "session", "seen",
}  # fmt: skip
_ALIASES = {"gp": "general practice", "gps": "general practice", "doctors": "general practice"}


@dataclass(frozen=True)
class DeskQueueQuestion:
    """What a staff queue question asks: the list, the next patient, or a count."""

    wants_next: bool
    wants_count: bool


@dataclass(frozen=True)
class _Scope:
    """Who the question is about: clinicians, else a department, else everyone."""

    clinicians: tuple[tuple[str, str], ...] = ()
    department: str | None = None
    unknown: str | None = None  # a name that matched no clinician or department

    @property
    def label(self) -> str:
        """' for Dr Olivia Hart (Physiotherapy)', ' for Nursing', or '' for the whole queue."""
        if self.clinicians:
            return " for " + " and ".join(f"{name} ({dep})" for name, dep in self.clinicians)
        return f" for {self.department}" if self.department else ""


def desk_queue_question(question: str) -> DeskQueueQuestion | None:
    """The staff queue question in ``question``, or None when it asks something else."""
    text = " ".join(question.split())
    if not _ASKS.search(text) or _NOT_QUEUE.search(text):
        return None
    return DeskQueueQuestion(
        wants_next=bool(_NEXT.search(text)), wants_count=bool(_COUNT.search(text))
    )


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z][a-z']*", text.lower().replace("\u2019", "'"))


def _names(name: str) -> set[str]:
    """The words of a clinician's name that identify them (not the title)."""
    return {w for w in _words(name) if w not in _TITLES and len(w) >= 3}


def _like(word: str, name_word: str) -> bool:
    """'physio' ~ 'physiotherapy', 'nurse' ~ 'nursing', 'cardio' ~ 'cardiology'."""
    if len(word) < 4:
        return False
    common = 0
    for a, b in zip(word, name_word, strict=False):
        if a != b:
            break
        common += 1
    return common == len(word) or common == len(name_word) or common >= max(4, len(word) - 1)


def _scope(question: str, snapshot: DeskQueueSnapshot) -> _Scope:
    found = _TARGET.search(question)
    target = found.group("target") if found else question
    wanted = _words(" ".join(_ALIASES.get(w, w) for w in _words(target) if w not in _FILLER))
    clinicians = tuple(
        (name, dep) for name, dep in snapshot.clinicians if _names(name) & set(wanted)
    )
    if clinicians:
        return _Scope(clinicians=clinicians)
    for department in snapshot.departments:
        dep_words = [w for w in _words(department) if len(w) >= 4]
        if any(_like(w, d) for w in wanted for d in dep_words):
            return _Scope(department=department)
    wanted = [w for w in wanted if w not in _TITLES]
    if found and wanted:
        return _Scope(unknown=found.group("target").strip())
    return _Scope()


def _line(entry: DeskQueueEntry, snapshot: DeskQueueSnapshot) -> str:
    who = f"Ticket {entry.ticket}, {entry.patient} ({entry.department}"
    who += f", {entry.clinician})" if entry.clinician else ", no clinician assigned)"
    if entry.state == "called":
        return f"{who}: called to {entry.room or 'a room'}"
    minutes = max(0, int((snapshot.taken_at - entry.arrived_at).total_seconds() // 60))
    late = ", arrived late" if entry.late else ""
    return f"{who}: waiting since {entry.arrived_at:%H:%M} ({minutes} min){late}"


def _in_scope(snapshot: DeskQueueSnapshot, scope: _Scope) -> tuple[list[DeskQueueEntry], ...]:
    """(waiting, called, unassigned-in-the-clinicians'-departments), in calling order."""
    open_ = [e for e in snapshot.entries if e.state in ("arrived", "called")]
    if scope.clinicians:
        names = {name for name, _dep in scope.clinicians}
        deps = {dep for _name, dep in scope.clinicians}
        mine = [e for e in open_ if e.clinician in names]
        unassigned = [e for e in open_ if e.clinician is None and e.department in deps]
    elif scope.department:
        mine = [e for e in open_ if e.department == scope.department]
        unassigned = []
    else:
        mine, unassigned = open_, []
    return (
        [e for e in mine if e.state == "arrived"],
        [e for e in mine if e.state == "called"],
        [e for e in unassigned if e.state == "arrived"],
    )


def _people(n: int) -> str:
    return "1 patient is" if n == 1 else f"{n} patients are"


def desk_queue_answer(
    asked: DeskQueueQuestion, question: str, snapshot: DeskQueueSnapshot
) -> tuple[str, tuple[Citation, ...]]:
    """The staff answer and its one citation (the listed rows, as the queue held them)."""
    scope = _scope(question, snapshot)
    waiting, called, unassigned = _in_scope(snapshot, scope)
    at = f"{snapshot.taken_at:%H:%M}"
    lines: list[str] = []
    if waiting:
        lines += [f"Waiting ({len(waiting)}):"] + [f"- {_line(e, snapshot)}" for e in waiting]
    if called:
        lines += [f"Called, not yet in consultation ({len(called)}):"]
        lines += [f"- {_line(e, snapshot)}" for e in called]
    if unassigned:
        departments = ", ".join(sorted({e.department for e in unassigned}))
        lines += [f"Also waiting for {departments}, no clinician assigned ({len(unassigned)}):"]
        lines += [f"- {_line(e, snapshot)}" for e in unassigned]
    passage = "\n".join(lines) or f"Nobody waiting{scope.label} at {at}."
    citation = Citation(
        number=1,
        document_slug=LIVE_QUEUE_SLUG,
        document_title=LIVE_QUEUE_TITLE,
        heading_path=f"Live queue, {at}",
        text=passage,
        similarity=1.0,
    )
    lead = []
    if scope.unknown:
        lead.append(
            f'No clinician or department in the clinic\'s list matches "{scope.unknown}", '
            "so this is the whole queue."
        )
    if asked.wants_next and not asked.wants_count:
        if waiting:
            first = waiting[0]
            lead.append(
                f"Next{scope.label or ' in the queue'}: ticket {first.ticket}, {first.patient} "
                f"(waiting since {first.arrived_at:%H:%M}). [1]"
            )
        else:
            lead.append(f"Nobody is waiting{scope.label} at {at}. [1]")
    elif waiting or called:
        summary = f"{_people(len(waiting))} waiting{scope.label} at {at}"
        if called:
            summary += f", and {len(called)} called but not yet in consultation"
        lead.append(f"{summary}. [1]")
    else:
        lead.append(f"Nobody is waiting{scope.label} at {at}. [1]")
    text = " ".join(lead)
    if lines:
        text += "\n\n" + "\n".join(lines)
    # Every count, ticket and time shown must be in the cited rows (engine.answering.queue_answers).
    return checked(text, (citation,), DESK_NOT_VERIFIED)
