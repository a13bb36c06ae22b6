"""Replies read at a glance: the summary first, the leaderboard behind a ranking with its papers, its chart uploaded
into the thread with alt text through Slack's upload flow, and Slack's limits kept for any leaderboard."""
from __future__ import annotations

import json
from collections.abc import Callable

from bot.glance import CHART_FILE, LEADERBOARD_FILE
from bot.native import Kit
from bot.render import render_answer
from pipeline.core import Bounds, Parts, Pipeline
from pipeline.generators.adapter import AdapterGenerator
from pipeline.glance.about import CAN_ANSWER, EXAMPLES
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.records import Answer, Entry, Example, Generation, Leaderboard, Retrieved, Rows
from standins import orkg_fixture as fx
from standins.fixture_questions import FixedGenerator, NoStore, t01, t05
from standins.harness import STORY_CLOZE, Harness, blocks_of, shown
from standins.slack.blocks import blocks_error
from tests.bot.test_render import R, answer, lit, texts, uri, within_limits

PNG = b"\x89PNG\r\n\x1a\n"


def test_a_ranking_reply_opens_with_its_summary_and_lists_the_scores_by_number(local_kg: OxigraphKG) -> None:
    asked = Pipeline(Parts(NoStore(), FixedGenerator(t05(fx.NOISY, fx.ACC)), local_kg),
                     Bounds(shots=3, row_cap=1000, max_question_chars=2000,
                            workers=4)).ask("Best Accuracy on it?")
    message = render_answer(asked, feedback="{}")
    first, *rest = texts(message)
    assert first == "*Big-71 has the highest Accuracy on Mixed Notation Bench: 71.46%.*"
    assert message.text == asked.summary  # what a client without blocks or images shows
    board = next(t for t in rest if t.startswith("*Leaderboard"))
    lines = board.splitlines()[1:]
    assert lines[0].startswith("1. <https://orkg.org/resource/")
    assert "|Big-71> · *71.46%* — <https://orkg.org/resource/" in lines[0]
    assert [line.split(" · ")[1].split(" — ")[0] for line in lines[:4]] == ["*71.46%*", "*10.2*", "*9.5*", "*3*"]
    assert any("12 M _(not a number)_" in line for line in lines)
    assert any("as text" in t for t in rest)  # the graph's ordering disagrees with the numbers, and it says so
    [picture] = [f for f in message.files if f.filename == CHART_FILE]
    assert isinstance(picture.content, bytes) and picture.content.startswith(PNG)
    assert picture.alt_text.startswith("Bar chart of Accuracy on Mixed Notation Bench")
    assert "N/A" not in picture.alt_text and "12 M" not in picture.alt_text
    within_limits(message)


def test_a_leaderboard_of_any_length_stays_within_slacks_limits_and_goes_whole_into_a_file() -> None:
    entries = tuple(Entry(f"Model {i} " + "x" * 150, f"http://orkg.org/orkg/resource/R{i}", "Accuracy", f"{i}.5",
                          i + 0.5, "A paper title " + "y" * 200, f"http://orkg.org/orkg/resource/P{i}")
                    for i in range(400, 0, -1))
    board = Leaderboard("D", "Accuracy", True, entries, ("note " * 1000,))
    rows = Rows(["model"], [{"model": uri("http://orkg.org/orkg/resource/R1")}])
    message = render_answer(answer(rows, summary="S " * 2000, leaderboard=board), feedback="{}")
    within_limits(message)
    [csv] = [f for f in message.files if f.filename == LEADERBOARD_FILE]
    assert isinstance(csv.content, str) and len(csv.content.splitlines()) == 401


def test_the_chart_is_uploaded_into_the_thread_with_its_alt_text(start_bot: Callable[..., Harness],
                                                                  local_kg: OxigraphKG) -> None:
    bot = start_bot(kg=local_kg, generator=FixedGenerator(t01(fx.STORY_CLOZE)))
    ts = bot.mention(STORY_CLOZE)
    [reply] = bot.answers()
    assert blocks_of(reply)[0]["text"]["text"].startswith("*4 models evaluated on dataset 'Story Cloze Test'")
    assert "Leaderboard · Accuracy on Story Cloze Test" in shown(reply)
    [complete] = bot.slack.wait_for("files.completeUploadExternal")
    assert complete.params["thread_ts"] == ts
    [chart] = bot.slack.uploaded_files
    assert chart["filename"] == CHART_FILE and chart["content"].startswith(PNG)
    assert chart["alt_txt"] == ("Bar chart of Accuracy on Story Cloze Test, highest first: StoryLM-large 89.46; "
                                "CoherenceNet 86.12; StoryLM-base 82.40; Plain LSTM 77.08.")


def test_an_answer_without_a_leaderboard_has_no_chart() -> None:
    message = render_answer(answer(Rows(["x"], [{"x": lit("1")}]), summary="X: 1."))
    assert texts(message)[0] == "*X: 1.*" and all(f.filename != CHART_FILE for f in message.files)


def _declined(off_topic: bool) -> Answer:
    near = Example("AQ9", "Can you list the models evaluated on the SentEval dataset?", "SELECT 1", "T01")
    twice = [Retrieved(near, 0.41), Retrieved(near, 0.40), Retrieved(Example("HQ1", "Which cat won?", "S", "HQ"), 0.3)]
    generation = Generation("adapter", None, explanation="No stored question is close enough.", off_topic=off_topic)
    return answer(None, sparql=None, generation=generation, examples=twice, summary="I could not answer “x”.")


def test_a_decline_has_no_rating_buttons_and_lists_the_closest_questions_once() -> None:
    message = render_answer(_declined(off_topic=False), feedback="{}")
    assert not [b for b in message.blocks if b["type"] == "actions" and b.get("block_id") == "kgqa_feedback"]
    text = "\n".join(texts(message))
    assert text.count("Can you list the models evaluated on the SentEval dataset?") == 1
    assert text.count("come closest") == 1 and "Which cat won?" in text
    within_limits(message)


def test_an_off_topic_question_gets_what_the_bot_can_do_and_three_example_questions() -> None:
    message = render_answer(_declined(off_topic=True), feedback="{}")
    text = "\n".join(texts(message))
    assert CAN_ANSWER in text and sum(q in text for q in EXAMPLES) == 3
    assert "SentEval" not in text and "Which cat won?" not in text and "come closest" not in text
    assert texts(message)[0] == "*I could not answer “x”.*" and message.text == "I could not answer “x”."


def test_the_weather_in_hannover_is_declined_as_off_topic_in_the_thread(start_bot: Callable[..., Harness]) -> None:
    # the stand-in's hashed vectors score it 0.48 against the nearest stored question; a high bar makes it off-topic
    bot = start_bot(generator=AdapterGenerator(0.9))
    bot.mention("What's the weather in Hannover?")
    [reply] = bot.answers()
    seen = shown(reply)
    assert "Try, for example" in seen and "kgqa_feedback" not in seen and "come closest" not in seen
    assert reply.params["text"] == "I could not answer “What's the weather in Hannover?”."


def _board(n: int, name: str = "Model") -> Leaderboard:
    return Leaderboard("Some Long Benchmark Dataset Name That Goes On", "Accuracy (top-1, averaged)", True, tuple(
        Entry(f"{name} {i} with a very long name", f"{R}M{i}", "Accuracy (top-1, averaged)", f"{90 - i}.5",
              90 - i + 0.5) for i in range(n)))


def test_a_ranking_is_a_native_bar_chart_within_slacks_limits_and_the_png_where_it_is_not_taken() -> None:
    rows = Rows(["model"], [{"model": uri(f"{R}M0")}])
    native = render_answer(answer(rows, leaderboard=_board(40)), feedback="{}", kit=Kit.DATA)
    assert blocks_error(native.blocks) is None
    [chart] = [b for b in native.blocks if b["type"] == "data_visualization"]
    assert chart["chart"]["type"] == "bar" and len(chart["title"]) <= 50
    categories = chart["chart"]["axis_config"]["categories"]
    assert 2 <= len(categories) <= 20 and len(set(categories)) == len(categories)
    assert all(len(c) <= 20 for c in categories) and categories[0].startswith("Model 0")
    [series] = chart["chart"]["series"]
    assert [p["value"] for p in series["data"]][:2] == [90.5, 89.5] and len(series["name"]) <= 20
    assert not any(f.filename == CHART_FILE for f in native.files)  # the chart is in the message
    older = render_answer(answer(rows, leaderboard=_board(40)), feedback="{}", kit=Kit.TABLE)
    assert "data_visualization" not in json.dumps(older.blocks)
    assert any(f.filename == CHART_FILE and f.alt_text for f in older.files)  # the PNG instead


def test_names_alike_once_cut_to_20_characters_stay_apart_on_the_axis() -> None:
    rows = Rows(["model"], [{"model": uri(f"{R}M0")}])
    board = Leaderboard("D", "F1", True, tuple(Entry("Transformer-XL large variant " + "x" * i, f"{R}M{i}", "F1",
                                                     str(i), float(i)) for i in range(5, 0, -1)))
    [chart] = [b for b in render_answer(answer(rows, leaderboard=board), kit=Kit.DATA).blocks
               if b["type"] == "data_visualization"]
    categories = chart["chart"]["axis_config"]["categories"]
    assert len(set(categories)) == 5 and all(len(c) <= 20 for c in categories)
    assert blocks_error([chart]) is None


def test_a_series_over_time_is_a_line_chart_and_other_shapes_get_none() -> None:
    def year(y: int) -> dict[str, str]:
        return {"type": "literal", "value": str(y), "datatype": "http://www.w3.org/2001/XMLSchema#gYear"}

    rows = Rows(["year", "best"], [{"year": year(2015 + i), "best": lit(f"{70 + i}.1")} for i in range(6)])
    message = render_answer(answer(rows), kit=Kit.DATA)
    [chart] = [b for b in message.blocks if b["type"] == "data_visualization"]
    assert chart["chart"]["type"] == "line" and chart["chart"]["axis_config"]["categories"][0] == "2015"
    assert [p["value"] for p in chart["chart"]["series"][0]["data"]] == [70.1, 71.1, 72.1, 73.1, 74.1, 75.1]
    assert blocks_error(message.blocks) is None
    names = Rows(["model"], [{"model": lit(f"m{i}")} for i in range(6)])
    assert "data_visualization" not in json.dumps(render_answer(answer(names), kit=Kit.DATA).blocks)
    many = Rows(["year", "best"], [{"year": year(1950 + i), "best": lit(str(i))} for i in range(30)])
    assert "data_visualization" not in json.dumps(render_answer(answer(many), kit=Kit.DATA).blocks)  # > 20 points


def test_the_stand_in_refuses_a_long_chart_title_a_third_chart_and_a_seventh_series() -> None:
    chart = {"type": "data_visualization", "title": "t", "chart": {"type": "bar", "axis_config": {
        "categories": ["a"]}, "series": [{"name": "s", "data": [{"label": "a", "value": 1}]}]}}
    assert blocks_error([chart, chart]) is None
    assert blocks_error([chart, chart, chart]) is not None
    assert blocks_error([{**chart, "title": "t" * 51}]) is not None
    seven = [{"name": f"s{i}", "data": [{"label": "a", "value": 1}]} for i in range(7)]
    assert blocks_error([{**chart, "chart": {**chart["chart"], "series": seven}}]) is not None
    stray = [{"name": "s", "data": [{"label": "b", "value": 1}]}]  # a label that is no category
    assert blocks_error([{**chart, "chart": {**chart["chart"], "series": stray}}]) is not None
