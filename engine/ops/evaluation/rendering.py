"""The evaluation report for people: :func:`format_report`, the text the command prints and the
staff desk shows, and :func:`write_plot`, the similarity histogram of answerable against
unanswerable questions with the floor in use and the recommended one.

It must never compute a figure or a verdict: everything shown comes from the EvaluationReport.
matplotlib is imported only when a plot is written, on the Agg backend (never a screen).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from engine.ops.evaluation.report import EvaluationReport


def write_plot(report: EvaluationReport, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    answerable = [
        r.best_similarity
        for r in report.results
        if r.intent == "information" and r.best_similarity is not None
    ]
    unanswerable = [
        r.best_similarity
        for r in report.results
        if r.intent == "out_of_scope" and r.best_similarity is not None
    ]
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=110)
    bins = [i / 50 for i in range(0, 51)]
    ax.hist(answerable, bins=bins, alpha=0.65, label=f"answerable ({len(answerable)})")
    ax.hist(
        unanswerable,
        bins=bins,
        alpha=0.65,
        label=f"not answerable ({len(unanswerable)})",
        hatch="//",
    )
    ax.axvline(
        report.floor_in_use,
        color="black",
        linestyle="-",
        label=f"floor in use {report.floor_in_use:.2f}",
    )
    ax.axvline(
        report.recommended_floor,
        color="red",
        linestyle="--",
        label=f"recommended {report.recommended_floor:.2f}",
    )
    ax.set_xlabel("best cosine similarity of the question's candidates")
    ax.set_ylabel("questions")
    ax.set_title(f"Similarity of answerable vs unanswerable questions ({report.model})")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def format_report(report: EvaluationReport) -> str:
    def pct(value: float | None) -> str:
        return "n/a" if value is None else f"{value * 100:.1f}%"

    lines = [
        f"Evaluated {report.questions} questions with {report.model} (floor in use "
        f"{report.floor_in_use:.2f}).",
        "",
        "Routing accuracy: "
        + ", ".join(f"{k} {pct(v)}" for k, v in report.routing_accuracy.items()),
        f"Safety mistakes: {len(report.safety_mistakes)}",
    ]
    lines += [
        f"  SAFETY: {m['question']!r} ({m['intent']}) routed {m['route']}"
        for m in report.safety_mistakes
    ]
    lines += [
        f"Audience leaks: {len(report.leaks)}",
        *[f"  LEAK: {m['question']!r}" for m in report.leaks],
        f"Right document kept: {pct(report.right_document_rate)}",
        f"Answer present in kept passages: {pct(report.answer_present_rate)}",
        f"Answer in the quoted sentences (extractive answer): {pct(report.answer_quoted_rate)}",
        f"Answerable questions refused: {len(report.answerable_rejected)}",
        f"Out-of-scope rejected: {pct(report.out_of_scope_rejection_rate)}",
        *[f"  admitted: {q!r}" for q in report.out_of_scope_admitted],
        f"Best similarity, answerable: {report.answerable_similarity}",
        f"Best similarity, not answerable: {report.unanswerable_similarity}",
    ]
    if report.ranges_overlap:
        lines.append(
            "The ranges overlap: no similarity floor alone separates them; the gate's keyword "
            "evidence and the refusal path carry the rest."
        )
    lines.append(f"Recommended floor: {report.recommended_floor:.2f}")
    conv = report.conversation
    if conv:
        lines += [
            f"Conversation rows: {conv['rows']}; routing {pct(conv['routing_accuracy'])} "
            f"(single questions {pct(conv['single_routing_accuracy'])}); safety mistakes "
            f"{conv['safety_mistakes']}",
            f"  standing alone: {conv['standalone_same_as_alone']} of {conv['standalone_rows']} "
            "answered exactly as when asked alone",
            *[
                f"  CHANGED: {c['question']!r} after {c['history']!r}: {c['in_conversation']}"
                f" instead of {c['alone']}"
                for c in report.standalone_changed
            ],
            f"  follow-ups joined to the previous question: {conv['follow_ups_joined']} of "
            f"{conv['follow_up_rows']}; standalone questions joined: {conv['standalone_joined']}",
            f"  similarity to the previous question, follow-ups: "
            f"{conv['similarity_to_previous_follow_up']}",
            f"  similarity to the previous question, standalone: "
            f"{conv['similarity_to_previous_standalone']}",
        ]
    routing_counts = Counter(r.route for r in report.results)
    lines.append("Routes: " + ", ".join(f"{k} {v}" for k, v in sorted(routing_counts.items())))
    lines.append(
        "PASSED"
        if report.passed
        else "FAILED: safety mistakes, audience leaks or standalone questions changed by the "
        "conversation"
    )
    return "\n".join(lines)
