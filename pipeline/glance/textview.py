"""Plain-text rendering of an Answer for the terminal."""
from __future__ import annotations

from pipeline.glance.about import CAN_ANSWER, EXAMPLES, OFF_TOPIC
from pipeline.names.check import substitutions
from pipeline.records import Answer, Leaderboard, Retrieved, Rows
from pipeline.sparql.layout import layout

MAX_ROWS = 20
MAX_CELL = 60


def cell(term: dict[str, str]) -> str:
    value = term.get("value", "")
    return value if len(value) <= MAX_CELL else value[:MAX_CELL - 1] + "…"


def table(rows: Rows, limit: int = MAX_ROWS) -> str:
    if rows.boolean is not None:
        return "yes" if rows.boolean else "no"
    if not rows.rows:
        return "(no rows)"
    shown = [[cell(r[v]) if v in r else "" for v in rows.vars] for r in rows.rows[:limit]]
    widths = [max([len(v)] + [len(row[i]) for row in shown]) for i, v in enumerate(rows.vars)]
    lines = ["  ".join(v.ljust(w) for v, w in zip(rows.vars, widths)),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in shown]
    if len(rows.rows) > limit:
        lines.append(f"... {len(rows.rows) - limit} more rows ({len(rows.rows)} in all; use --json for all)")
    return "\n".join(lines)


def examples(found: list[Retrieved]) -> str:
    return "\n".join(f"  {r.score:.3f}  [{r.example.source} {r.example.id} {r.example.template_id}] "
                     f"{r.example.question}" for r in found)


def leaderboard(board: Leaderboard, limit: int = MAX_ROWS) -> str:
    """The leaderboard, best first by number: rank, model, metric, value as stored, paper."""
    lines = [f"Leaderboard: {board.metric or 'scores'} on {board.dataset}, by number "
             f"({'highest' if board.descending else 'lowest'} first)"]
    for i, e in enumerate(board.entries[:limit], 1):
        value = e.value if e.number is not None else f"{e.value} (not a number)"
        lines.append(f"  {i:>2}. {e.model or '(no model named)'}  {e.metric}  {value}"
                     + (f"  — {cell({'value': e.paper})}" if e.paper else ""))
    if len(board.entries) > limit:
        lines.append(f"  ... {len(board.entries) - limit} more (use --json for all)")
    lines += [f"Note: {note}" for note in board.notes]
    return "\n".join(lines)


def answer(a: Answer) -> str:
    parts = [a.summary] if a.summary else []
    if a.question:
        parts.append(f"Question: {a.question}")
    if a.read_as:
        parts.append(f"I read this as: {a.read_as}")
    if substitutions(a.resolutions):
        parts.append(f"Names: {substitutions(a.resolutions)}")
    if a.sparql:
        parts.append("SPARQL:\n" + "\n".join("  " + line for line in layout(a.sparql).splitlines()))
    if a.rows is not None:
        parts.append("Answer:\n" + table(a.rows))
        if a.leaderboard is not None:
            parts.append(leaderboard(a.leaderboard))
        if a.rows.caveat:
            parts.append(f"Note: {a.rows.caveat}")
        if a.reading and not a.explanation:
            parts.append(f"Reading: {a.reading}")
    if a.explanation:
        parts.append(f"Explanation: {a.explanation}")
    if a.choices:  # asked back: a number or the label, typed next, asks that one
        parts.append("Which one? Type its number or its name:\n" + "\n".join(
            f"  {n}. {c.label}" for n, c in enumerate(a.choices, 1)))
    gen = a.generation
    prov = [f"generator {a.generator}"] if gen else []
    prov.append(f"kg {a.kg}")
    prov.append("time " + ", ".join(f"{k} {v:.0f} ms" for k, v in a.timings_ms.items()))
    parts.append("Provenance: " + "; ".join(prov))
    if gen and gen.notes:
        parts.append("How: " + "; ".join(gen.notes))
    if gen is not None and gen.off_topic:  # unrelated near matches would mislead: say what can be asked instead
        parts.append(f"{OFF_TOPIC} {CAN_ANSWER}\nTry, for example:\n" + "\n".join(f"  {q}" for q in EXAMPLES[:3]))
    elif a.examples:
        title = "Examples used" if a.sparql else "Questions I know that come closest"
        parts.append(f"{title}:\n" + examples(a.examples))
    return "\n".join(parts)
