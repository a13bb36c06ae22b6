"""Block Kit rendering: answer first, IRIs linked to orkg.org, Slack's limits kept, provenance, explanations."""
from __future__ import annotations

import json
from typing import Any

from bot.blocks import MAX_BLOCKS, MAX_SECTION, cell, pack, page_url
from bot.render import QUERY_FILE, RESULT_FILE, Message, render_answer, render_lookup
from pipeline.glance.terms import label_columns
from pipeline.records import Answer, Example, Generation, Outcome, Retrieved, Rows

R = "http://orkg.org/orkg/resource/"
SPARQL = 'SELECT ?model ?model_lbl WHERE { ?model rdfs:label ?model_lbl FILTER(?x < 3 && ?y > 1) }'


def uri(value: str) -> dict[str, str]:
    return {"type": "uri", "value": value}


def lit(value: str) -> dict[str, str]:
    return {"type": "literal", "value": value}


def answer(rows: Rows | None = None, **kwargs: Any) -> Answer:
    defaults: dict[str, Any] = dict(
        question="Which model is best on X?", sparql=SPARQL, kg="snapshot",
        examples=[Retrieved(Example("AQ1", "Which model is best on Y?", "SELECT 1", "T05"), 0.91),
                  Retrieved(Example("team-1", "Best model on Z?", "SELECT 2", "", "team"), 0.8)],
        generation=Generation("tgi", SPARQL, notes=("greedy",)), timings_ms={"retrieve": 5.0, "generate": 900.0})
    if rows is not None:  # what the pipeline would say of these rows, unless a test says otherwise
        defaults["outcome"] = Outcome.ANSWERED if rows.boolean is not None or rows.rows else Outcome.EMPTY
    defaults.update(kwargs)
    return Answer(rows=rows, **defaults)


def texts(message: Message) -> list[str]:
    out = []
    for block in message.blocks:
        if block["type"] == "section":
            out.append(block["text"]["text"])
        elif block["type"] == "context":
            out += [e["text"] for e in block["elements"]]
    return out


def within_limits(message: Message) -> None:
    assert len(message.blocks) <= MAX_BLOCKS
    for block in message.blocks:
        if block["type"] == "section":
            assert len(block["text"]["text"]) <= MAX_SECTION
        if block["type"] == "context":
            assert len(block["elements"]) <= 10 and all(len(e["text"]) <= 2000 for e in block["elements"])
        if block["type"] == "actions":
            assert all(len(e["value"]) <= 2000 for e in block["elements"])


def test_the_answer_comes_first_then_the_sparql_then_provenance() -> None:
    rows = Rows(["model", "model_lbl"], [{"model": uri(R + "R1"), "model_lbl": lit("GPT-3 <175B> & co")}])
    message = render_answer(answer(rows), elapsed_ms=1234, feedback="{}")
    kinds = [b["type"] for b in message.blocks]
    assert kinds == ["section", "section", "section", "context", "actions"]
    head, table, code, *prov = texts(message)
    assert head == "*Answer* · 1 row"
    assert table == "`model`\n• <https://orkg.org/resource/R1|GPT-3 &lt;175B&gt; &amp; co>"
    assert code.startswith("*SPARQL*\n```SELECT") and "?x &lt; 3 &amp;&amp; ?y &gt; 1" in code
    assert prov[0] == "*tgi* · 2 examples" and prov[1] == "examples: `AQ1` 0.91 · `team-1` (team) 0.80"
    assert prov[2] == "KG: snapshot" and prov[3] == "1.2 s (retrieve 5 ms, generate 900 ms)" and prov[4] == "greedy"
    assert message.text == "Answer: GPT-3 <175B> & co" and message.files == ()


def test_iris_link_to_orkg_pages_and_other_iris_to_themselves() -> None:
    assert page_url(R + "R42") == "https://orkg.org/resource/R42"
    assert page_url("http://orkg.org/orkg/predicate/P31") == "https://orkg.org/property/P31"
    assert page_url("http://orkg.org/orkg/class/Paper") == "https://orkg.org/class/Paper"
    assert cell(uri("https://github.com/x/y")) == "<https://github.com/x/y|y>"
    assert cell(uri("urn:isbn:123")) == "urn:isbn:123"
    assert cell(None) == "–" and cell(lit("")) == "“”" and cell(lit("x" * 500)).endswith("…")
    assert label_columns(["paper", "paper_lbl", "score", "model", "modelLabel"]) == {"paper": "paper_lbl",
                                                                                     "model": "modelLabel"}


def test_a_caveat_and_the_source_show_in_the_provenance() -> None:
    rows = Rows(["x"], [{"x": lit("1")}], source="snapshot", caveat="recorded from the ORKG in early 2023")
    prov = texts(render_answer(answer(rows)))[-3]
    assert prov == "KG: snapshot — recorded from the ORKG in early 2023"


def test_yes_no_answers() -> None:
    assert texts(render_answer(answer(Rows([], [], True))))[0] == "*Answer:* yes"
    assert render_answer(answer(Rows([], [], False))).text == "Answer: no"


def test_500_rows_are_cut_with_a_count_and_attached_whole() -> None:
    rows = Rows(["paper", "paper_lbl", "code"], [
        {"paper": uri(f"{R}R{n}"), "paper_lbl": lit(f"Title {n} " + "w" * 150), "code": lit(f"https://git/{n}")}
        for n in range(500)])
    message = render_answer(answer(rows), feedback="{}")
    within_limits(message)
    head = texts(message)[0]
    assert head.startswith("*Answer* · 500 rows — showing the first 25;") and RESULT_FILE in head
    [attached] = message.files
    assert attached.filename == RESULT_FILE and len(attached.content.splitlines()) == 501


def test_huge_cells_and_a_huge_query_still_fit() -> None:
    rows = Rows(["a", "b"], [{"a": lit("é" * 20_000), "b": lit("<" * 5000)} for _ in range(60)])
    long_query = "SELECT * WHERE { " + " ".join(f'?s <http://x/p{n}> "<&>"' for n in range(400)) + " }"
    message = render_answer(answer(rows, sparql=long_query), feedback="{}")
    within_limits(message)
    assert [f.filename for f in message.files] == [RESULT_FILE, QUERY_FILE]
    code = next(t for t in texts(message) if t.startswith("*SPARQL*"))
    assert code.endswith("…```") and "&lt;http://x/p0&gt;" in code


def test_a_fence_inside_the_query_does_not_end_the_code_block() -> None:
    code = texts(render_answer(answer(Rows(["x"], [{"x": lit("1")}]), sparql='SELECT ("```" AS ?x) {}')))[2]
    assert code.count("```") == 2


def test_no_query_gives_the_reason_and_the_closest_questions() -> None:
    message = render_answer(answer(None, sparql=None, error="no query",
                                   explanation="The model could not write a query: unknown benchmark"))
    first, suggestions = texts(message)[:2]
    assert first == ":warning: *No answer.* The model could not write a query: unknown benchmark"
    assert suggestions.startswith("*Questions I know that come closest:*\n• Which model is best on Y? _(0.91)_")
    assert message.text.startswith("No answer: The model could not write a query")


def test_an_empty_result_names_what_the_query_looked_for() -> None:
    message = render_answer(answer(Rows(["m"], []), sparql='SELECT ?m { ?d rdfs:label "Story Cloze Test" }',
                                   explanation="The query ran but nothing in the graph matches it."))
    assert texts(message)[0].endswith("It looked for 'Story Cloze Test'.")


def test_raw_sparql_answers_have_no_generator_and_no_buttons() -> None:
    message = render_answer(Answer(question="", sparql="ASK {}", rows=Rows([], [], True), kg="local:x"))
    assert "*raw SPARQL*" in texts(message) and all(b["type"] != "actions" for b in message.blocks)


def test_feedback_buttons_carry_the_value() -> None:
    blocks = render_answer(answer(Rows(["x"], [{"x": lit("1")}])), feedback='{"q":"a","s":"b"}').blocks
    up, down = blocks[-1]["elements"]
    assert (up["action_id"], up["value"], down["action_id"]) == ("kgqa_up", '{"q":"a","s":"b"}', "kgqa_down")
    json.dumps(blocks)  # plain JSON


def test_lookup_lists_pairs_with_scores_and_sources() -> None:
    found = [Retrieved(Example("AQ9", "Models on <X>?", "SELECT ?m {}", "T01"), 0.934),
             Retrieved(Example("team-2", "Team question", "SELECT ?t {}", "", "team"), 0.5)]
    message = render_lookup("models on x", found)
    within_limits(message)
    body = texts(message)
    assert body[0] == "*Stored pairs closest to* “models on x”"
    assert body[1].startswith("*0.93* · SciQA `AQ9` T01\nModels on &lt;X&gt;?\n```SELECT ?m {}```")
    assert body[2].startswith("*0.50* · team `team-2`")
    assert "kgqa index" in render_lookup("x", []).text


def test_pack_never_exceeds_the_limit() -> None:
    chunks, used = pack(["a" * 2000, "b" * 2000, "c" * 5000, "d"], limit=3000, max_chunks=2)
    assert all(len(c) <= 3000 for c in chunks) and len(chunks) == 2 and used == 2


def test_what_the_query_asks_is_read_out_beside_the_answer() -> None:
    reading = "It asks for models evaluated on dataset 'Story Cloze Test', the best one."
    shown = json.dumps(render_answer(answer(Rows(["x"], [{"x": lit("1")}]), reading=reading)).blocks)
    assert reading in shown
    assert reading not in json.dumps(render_answer(answer(rows=Rows(["x"], []), reading=reading)).blocks[-1])


def test_a_declined_answer_offers_the_closest_question_as_a_button() -> None:
    offer = "Which model has achieved the highest F1 score on the SQuAD1.1 dataset? " + "x" * 100
    declined = answer(None, sparql=None, explanation="I can't answer this as asked.", offer=offer)
    message = render_answer(declined)
    [row] = [b for b in message.blocks if b["type"] == "actions"]
    [button] = row["elements"]
    assert button["action_id"] == "kgqa_offer" and button["value"] == offer
    assert len(button["text"]["text"]) <= 75 and button["text"]["text"].startswith("Ask: Which model")
    assert "SPARQL" not in json.dumps(message.blocks)
