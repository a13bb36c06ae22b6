"""Answers, lookups and notices as Slack messages: the answer first, then the SPARQL, then where it came from."""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from bot.blocks import (
    MAX_BLOCKS,
    MAX_BUTTON_VALUE,
    MAX_TEXT,
    Block,
    actions,
    button,
    cell,
    clip,
    code,
    context,
    csv_text,
    escape,
    pack,
    section,
)
from bot.glance import (
    CHART_FILE,
    LEADERBOARD_FILE,
    MAX_CHARTS,
    bar_chart,
    chart,
    leaderboard_blocks,
    leaderboard_csv,
    line_chart,
    summary_block,
)
from bot.native import Kit, feedback_block, table_blocks
from pipeline.glance.about import CAN_ANSWER, EXAMPLES, OFF_TOPIC
from pipeline.glance.terms import label_columns
from pipeline.names.check import substitutions
from pipeline.records import Answer, Outcome, Retrieved, Rows
from pipeline.sparql.layout import layout
from pipeline.sparql.text import string_literals

ROWS_SHOWN = 25  # rows in the message; the rest go to the attached file
TABLE_SECTIONS = 8
SUGGESTIONS = 3
RESULT_FILE = "kgqa-result.csv"
QUERY_FILE = "kgqa-query.sparql"
UP, DOWN = "kgqa_up", "kgqa_down"
PROVENANCE = "kgqa_provenance"  # the block every reply to a question or query ends with
PICK = "kgqa_pick_"  # + the candidate's number: "did you mean" buttons
PICKS = 5
OFFER = "kgqa_offer"  # the button that asks the closest answerable question (Answer.offer)
BUTTON_TEXT = 75  # Slack's limit on a button's label


@dataclass(frozen=True)
class Attachment:
    """A file to upload beside the message (a result too long for Slack, or a very long query)."""

    filename: str
    content: str | bytes  # text (CSV, SPARQL) or a picture's bytes
    title: str
    alt_text: str = ""  # what a picture shows, for people and clients that cannot see it


@dataclass(frozen=True)
class Message:
    text: str  # the notification / fallback text
    blocks: list[Block] = field(default_factory=list)
    files: tuple[Attachment, ...] = ()


def notice(text: str) -> Message:
    """A one-line message (status, refusal, help pointer)."""
    return Message(clip(text, MAX_TEXT), [section(text)])


def table(rows: Rows) -> tuple[list[Block], Attachment | None]:
    """The result as compact mrkdwn lines (label columns folded into their IRI's link), truncated with a count."""
    if rows.boolean is not None:
        return [section(f"*Answer:* {'yes' if rows.boolean else 'no'}")], None
    n = len(rows.rows)
    labels = label_columns(rows.vars)
    shown_vars = [v for v in rows.vars if v not in labels.values()]
    header = " · ".join(f"`{escape(v)}`" for v in shown_vars)
    lines = ["• " + " · ".join(cell(r.get(v), r.get(labels[v]) if v in labels else None) for v in shown_vars)
             for r in rows.rows[:ROWS_SHOWN]]
    chunks, fitted = pack([header] + lines, max_chunks=TABLE_SECTIONS)
    shown = max(0, fitted - 1)
    title = f"*Answer* · {n} row{'s' if n != 1 else ''}"
    attachment = None
    if shown < n:
        title += f" — showing the first {shown}; the full result is in the attached `{RESULT_FILE}`"
        attachment = Attachment(RESULT_FILE, csv_text(rows), f"Full result ({n} rows)")
    return [section(title)] + [section(c) for c in chunks], attachment


def native_table(rows: Rows, kit: Kit = Kit.TABLE) -> tuple[list[Block], Attachment | None]:
    """The result as Slack's ``data_table`` or ``table`` (a yes/no as a line), the whole result attached when it does
    not fit."""
    if rows.boolean is not None:
        return table(rows)
    blocks, cut = table_blocks(rows, RESULT_FILE, kit)
    n = len(rows.rows)
    return blocks, Attachment(RESULT_FILE, csv_text(rows), f"Full result ({n} rows)") if cut else None


def _provenance(answer: Answer, elapsed_ms: float | None) -> Block:
    items = [f"_{escape(clip(answer.reading, 500))}_"] if answer.reading and answered(answer) else []
    if answer.generation:
        shots = len(answer.examples)
        items.append(f"*{escape(answer.generator)}* · {shots} example{'s' if shots != 1 else ''}")
    elif not answer.question:
        items.append("*raw SPARQL*")
    if answer.examples:
        items.append("examples: " + " · ".join(
            f"`{escape(r.example.id)}`{' (team)' if r.example.source == 'team' else ''} {r.score:.2f}"
            for r in answer.examples[:5]))
    source = answer.rows.source if answer.rows and answer.rows.source else answer.kg
    kg = f"KG: {escape(source)}"
    if answer.rows and answer.rows.caveat:
        kg += f" — {escape(answer.rows.caveat)}"
    items.append(kg)
    stages = ", ".join(f"{k} {v:.0f} ms" for k, v in answer.timings_ms.items())
    total = elapsed_ms if elapsed_ms is not None else sum(answer.timings_ms.values())
    items.append(f"{total / 1000:.1f} s" + (f" ({stages})" if stages else ""))
    if answer.generation and answer.generation.notes:
        items.append(escape(clip("; ".join(answer.generation.notes), 300)))
    return {**context(items), "block_id": PROVENANCE}


def _why(answer: Answer) -> str:
    """The plain reason there is no answer, with the names the query looked for when nothing matched."""
    why = answer.explanation or answer.error or "No answer came back."
    if answer.outcome is Outcome.EMPTY and answer.sparql:
        names = [s for s in string_literals(answer.sparql) if s.strip()][:3]
        if names:
            why += " It looked for " + " / ".join(f"'{n}'" for n in names) + "."
    return f":warning: *No answer.* {escape(why)}"


def _suggestions(answer: Answer) -> Block | None:
    """For a reply that did not answer: the closest questions I know, listed once; for a question about nothing
    the graph records, what I can do and a few example questions instead of unrelated near matches."""
    if answer.generation is not None and answer.generation.off_topic:
        return section(f"{escape(OFF_TOPIC)} {escape(CAN_ANSWER)}\n*Try, for example:*\n"
                       + "\n".join(f"• _{escape(q)}_" for q in EXAMPLES[:SUGGESTIONS]))
    examples = list({r.example.question: r for r in answer.examples}.values())  # each question once
    if not examples:
        return None
    lines = [f"• {escape(clip(r.example.question, 300))} _({r.score:.2f})_" for r in examples[:SUGGESTIONS]]
    return section("*Questions I know that come closest:*\n" + "\n".join(lines))


def _fallback_text(answer: Answer) -> str:
    if answer.summary:
        return clip(answer.summary, MAX_TEXT)
    rows = answer.rows
    if rows is not None and rows.boolean is not None:
        return f"Answer: {'yes' if rows.boolean else 'no'}"
    if rows is not None and rows.rows:
        values = [v for v in rows.flat() if not v.startswith("http")][:5] or rows.flat()[:5]
        n = len(rows.rows)
        return clip(f"Answer: {', '.join(values)}" + (f" ({n} rows)" if n > 1 else ""), MAX_TEXT)
    return clip("No answer: " + (answer.explanation or answer.error or "nothing came back"), MAX_TEXT)


def answered(answer: Answer) -> bool:
    return answer.outcome is Outcome.ANSWERED


def render_answer(answer: Answer, *, elapsed_ms: float | None = None, feedback: str | None = None,
                  kit: Kit = Kit.CLASSIC) -> Message:
    """The reply to a question or a /sparql query; ``feedback`` is the 👍 button's value (None: no buttons);
    ``kit``: how much of Block Kit it uses (the AI-app surface: a data table and native charts, else a table block
    and Slack's feedback buttons; classic: mrkdwn rows and plain buttons)."""
    blocks: list[Block] = [summary_block(answer.summary)] if answer.summary else []
    files: list[Attachment] = []
    said = ([f"I read this as: _{escape(clip(answer.read_as, 500))}_"] if answer.read_as else []) + \
        ([escape(substitutions(answer.resolutions))] if substitutions(answer.resolutions) else [])
    if said:
        blocks.append(context(said))
    if answered(answer):
        assert answer.rows is not None
        shown, attachment = table(answer.rows) if kit is Kit.CLASSIC else native_table(answer.rows, kit)
        blocks += shown
        files += [attachment] if attachment else []
        charts = [line] if kit is Kit.DATA and answer.leaderboard is None and (line := line_chart(answer.rows)) else []
        board = answer.leaderboard
        if board is not None:
            more, cut = leaderboard_blocks(board)
            blocks += more
            files += [Attachment(LEADERBOARD_FILE, leaderboard_csv(board), "Leaderboard")] if cut else []
            bar = bar_chart(board) if kit is Kit.DATA else None
            picture = None if bar else chart(board)
            charts += [bar] if bar else []
            if picture:
                files.append(Attachment(CHART_FILE, picture[0], f"Leaderboard: {board.metric or 'score'} on "
                                        f"{board.dataset}", alt_text=picture[1]))
        blocks += charts[:MAX_CHARTS]
    else:
        blocks.append(section(_why(answer)))
    if answer.sparql:
        shown_query = layout(answer.sparql)
        block, cut = code("*SPARQL*", shown_query)
        if cut:
            block = code(f"*SPARQL* (cut; the whole query is in the attached `{QUERY_FILE}`)", shown_query)[0]
            files.append(Attachment(QUERY_FILE, shown_query, "The whole query"))
        blocks.append(block)
    picks = did_you_mean(answer)
    if picks is not None:
        blocks.append(picks)
    elif not answered(answer) and answer.offer:
        blocks.append(actions("kgqa_offer", [button(clip(f"Ask: {answer.offer}", BUTTON_TEXT), OFFER, answer.offer,
                                                    "primary")]))
    elif not answered(answer):
        hint = _suggestions(answer)
        blocks += [hint] if hint else []
    blocks.append(_provenance(answer, elapsed_ms))
    if feedback is not None and answered(answer):  # a decline has nothing to rate
        buttons = [button("👍 Right", UP, feedback), button("👎 Wrong", DOWN, "down")]
        blocks.append(actions("kgqa_feedback", buttons) if kit is Kit.CLASSIC else feedback_block(feedback))
    assert len(blocks) <= MAX_BLOCKS
    return Message(_fallback_text(answer), blocks, tuple(files))


def did_you_mean(answer: Answer) -> Block | None:
    """Up to five buttons: one per choice the bot asks back ('which metric?'), else one per candidate label of the
    first name the graph did not settle; each carries the question it asks (the choice's, or the question with that
    label in the name's place), so a click needs no state (None when there is nothing to pick)."""
    picks = [(c.label, c.question) for c in answer.choices] or _relabelled(answer)
    buttons = [button(clip(label, 75), f"{PICK}{n}", value) for n, (label, question) in enumerate(picks[:PICKS])
               if len(value := json.dumps({"q": question}, ensure_ascii=False)) <= MAX_BUTTON_VALUE]
    return actions("kgqa_did_you_mean", buttons) if buttons else None


def _relabelled(answer: Answer) -> list[tuple[str, str]]:
    """(label, the question with it in the name's place) for each candidate of the first name the graph did not
    settle; none when no name is held or it cannot be found in the question."""
    held = next((r for r in answer.resolutions if not r.match.settled and r.candidates), None)
    at = answer.question.lower().find(held.typed.lower()) if held is not None else -1
    if held is None or at < 0:
        return []
    return [(label, answer.question[:at] + label + answer.question[at + len(held.typed):]) for label in held.candidates]


def picked_question(value: str) -> str | None:
    """The question a "did you mean" button carries, or None for a value that is not one of ours."""
    try:
        question = json.loads(value).get("q")
    except (ValueError, AttributeError):
        return None
    return question if isinstance(question, str) and question.strip() else None


def render_lookup(text: str, found: list[Retrieved]) -> Message:
    """``/kgqa lookup``: the stored pairs closest to ``text``, with scores and where each came from."""
    if not found:
        return notice("The example store is empty: run `kgqa index` first.")
    blocks = [section(f"*Stored pairs closest to* “{escape(clip(text, 200))}”")]
    for r in found:
        ex = r.example
        origin = "team" if ex.source == "team" else "SciQA"
        head = f"*{r.score:.2f}* · {origin} `{escape(ex.id)}`{' ' + escape(ex.template_id) if ex.template_id else ''}"
        blocks.append(code(f"{head}\n{escape(clip(ex.question, 500))}", clip(ex.sparql, 900))[0])
    return Message(clip(f"{len(found)} stored pairs closest to “{text}”", MAX_TEXT), blocks)
