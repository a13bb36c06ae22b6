"""The model as a reader (KGQA_LLM_READER): the TGI stand-in plays the model, the fixture graph the ORKG, through the
CLI. The model is shown the questions the project answers, written with the user's names, and may only copy one of
them or say "none of these" (a JSON schema on the wire); the copied question's query answers, the checks still judge
it, and a "none", a reply that is not the JSON asked for, or a question naming nothing the graph holds hand the
question on to the model writing SPARQL."""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pipeline.cli import main
from pipeline.intent.reader import NONE, TASK, Option, picked, schema
from standins._tgi_wire import least_instance

STORY_MODELS = ["CoherenceNet", "StoryLM-base", "StoryLM-large", "Plain LSTM"]
COUNTED = ('SELECT (COUNT(DISTINCT ?model) AS ?n) WHERE { ?dataset a orkgc:Dataset; rdfs:label ?l. '
           'FILTER(str(?l) = "Story Cloze Test") ?benchmark orkgp:HAS_DATASET ?dataset. '
           '?cont orkgp:HAS_BENCHMARK ?benchmark; orkgp:HAS_MODEL ?model. }')


def choosing(fragment: str) -> Callable[[str], str | None]:
    """A model that reads: it copies the listed question holding ``fragment`` ("none of these" when none does)."""
    def respond(prompt: str) -> str | None:
        if TASK not in prompt:
            return None  # not asked to read: the scripted or usual answer
        listed = re.findall(r"^- (.*)$", prompt, re.M)
        return json.dumps({"same_as": next((q for q in listed if fragment in q), NONE)})
    return respond


def _ask(env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tgi: Any, question: str,
         generator: str = "tgi") -> dict[str, Any]:
    monkeypatch.setenv("KGQA_TGI_URL", tgi.url)
    monkeypatch.setenv("KGQA_OPENAI_URL", tgi.url + "/v1")
    monkeypatch.setenv("KGQA_LLM_READER", "true")
    monkeypatch.setenv("KGQA_LLM_ORDER", "llm-first")
    monkeypatch.setenv("KGQA_LLM_FALLBACK", "none")  # the model alone: reader, then writer
    assert main(["ask", "--generator", generator, "--kg", str(env), "--json", question]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def _prompts(tgi: Any) -> list[str]:
    return [str(body.get("inputs") or body["messages"][0]["content"]) for _, body in tgi.requests if body]


def test_the_model_reads_the_question_as_one_it_answers_and_that_query_answers(
        env: Path, tgi: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    tgi.respond = choosing("been benchmarked, by dataset")
    out = _ask(env, monkeypatch, capsys, tgi, "which benchmarks was storylm-large tested on")
    assert out["outcome"] == "answered" and out["generator"] == "reader:tgi"
    assert sorted(out["flat_answer"]) == ["LoreQA Reading Set", "Story Cloze Test"]
    assert any(n.startswith("read as 'Where has StoryLM-large been benchmarked, by dataset?'") for n in out["notes"])
    (path, body), = tgi.requests  # one request: the reading; the model never wrote SPARQL
    grammar = body["parameters"]["grammar"]
    listed = re.findall(r"^- (.*)$", body["inputs"], re.M)
    assert path == "/" and grammar["type"] == "json"  # text_generation posts to the base URL
    assert grammar["value"]["properties"]["same_as"]["enum"] == [*listed, NONE]  # nothing else can be written
    assert all("StoryLM-large" in q for q in listed)  # the user's name, as the graph spells it


def test_a_ranking_asked_for_its_top_k_is_shown_and_filled_with_that_k(
        env: Path, tgi: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    tgi.respond = choosing("top 2 models")
    out = _ask(env, monkeypatch, capsys, tgi, "top 2 models on story cloze test by accuracy")
    assert out["generator"] == "reader:tgi" and out["flat_answer"][:2] == ["StoryLM-large", "89.46"]
    assert "LIMIT 2" in out["sparql"] and len(out["answer"]["rows"]) == 2
    listed = re.findall(r"^- (.*)$", _prompts(tgi)[0], re.M)
    assert listed and all("2" in q for q in listed)  # a question that drops the 2 is never shown


def test_none_hands_the_question_to_the_model_writing_sparql_not_to_the_composer(
        env: Path, tgi: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    tgi.respond = choosing("no such question")
    tgi.enqueue(f" {COUNTED}\nUSER:")
    out = _ask(env, monkeypatch, capsys, tgi, "How many models have been evaluated on Story Cloze Test?")
    reading, writing = _prompts(tgi)
    assert TASK in reading and writing.startswith("A chat between") and "Sparql:" in writing
    assert out["generator"] == "tgi" and out["flat_answer"] == ["4"]


def test_a_reply_that_is_not_the_json_asked_for_hands_the_question_on(
        env: Path, tgi: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    tgi.enqueue("Option three, I think.", f" {COUNTED}\nUSER:")  # a server that ignores the schema
    out = _ask(env, monkeypatch, capsys, tgi, "How many models have been evaluated on Story Cloze Test?")
    assert out["outcome"] == "answered" and out["generator"] == "tgi" and out["flat_answer"] == ["4"]
    assert len(tgi.requests) == 2


def test_a_question_naming_nothing_the_graph_holds_is_not_read(
        env: Path, tgi: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    tgi.respond = choosing("models")
    out = _ask(env, monkeypatch, capsys, tgi, "Which models have been evaluated on the Sunken Harbour Corpus?")
    assert all(TASK not in p for p in _prompts(tgi)) and out["generator"] != "reader:tgi"


def test_a_reading_the_checks_decline_is_not_what_runs(
        env: Path, tgi: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    tgi.respond = choosing("Does any model have results")  # yes or no, for a question asking which models
    out = _ask(env, monkeypatch, capsys, tgi, "Which models have been evaluated on Story Cloze Test?")
    assert out["flat_answer"] not in (["true"], ["false"], ["True"], ["False"])
    assert any(c["writer"] == "reader:tgi" and c["call"] != "pass" for c in out["checks"])


def test_the_projects_pairs_shown_ask_nothing_the_question_does_not(
        env: Path, tgi: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The project's own pairs are held to what the question asks, as the rules hold them: "the best" by an error
    rate is no ranking of the highest, and a count of a problem's papers is no count of those with code."""
    tgi.respond = choosing("lowest-scoring")
    out = _ask(env, monkeypatch, capsys, tgi, "the 2 best models on LibriVoice (clean) by Word Error Rate (WER)?")
    listed = re.findall(r"^- (.*)$", _prompts(tgi)[0], re.M)
    assert listed and not any(q.startswith("Name the top 2 models") for q in listed)
    assert out["generator"] == "reader:tgi" and out["flat_answer"][:2] == ["WaveTrans (ensemble)", "4.1"]
    tgi.requests.clear()
    tgi.respond = choosing("code available")  # a model that would add a condition nobody stated
    out = _ask(env, monkeypatch, capsys, tgi, "how many papers on Speech Recognition (ASR) do we have?")
    listed = re.findall(r"^- (.*)$", _prompts(tgi)[0], re.M)
    assert listed and not any("code" in q for q in listed)
    assert out["generator"] != "reader:tgi" or out["flat_answer"] == ["1"]
    tgi.requests.clear()
    tgi.respond = choosing("evaluation metrics")  # the kind the rules read asked (models) is not another's
    _ask(env, monkeypatch, capsys, tgi, "how many models have results on Story Cloze Test?")
    listed = re.findall(r"^- (.*)$", _prompts(tgi)[0], re.M)
    assert listed and not any("metrics" in q for q in listed)


def test_an_openai_compatible_server_is_sent_the_schema_as_structured_output(
        env: Path, tgi: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    tgi.respond = choosing("Which models report numbers on the Story Cloze Test")
    out = _ask(env, monkeypatch, capsys, tgi, "models with results on story cloze test?", generator="openai")
    assert out["generator"] == "reader:openai" and sorted(out["flat_answer"]) == sorted(STORY_MODELS)
    (path, body), = tgi.requests
    form = body["response_format"]
    assert path == "/v1/chat/completions" and form["type"] == "json_schema"
    assert form["json_schema"]["schema"]["required"] == ["same_as"]


def _shown(*questions: str) -> list[Option]:
    from pipeline.records import Example

    return [Option(q, "ASK {}", Example(f"p{i}", q, "ASK {}"), ()) for i, q in enumerate(questions)]


def test_only_a_question_shown_copied_whole_or_none_is_a_reading() -> None:
    shown = _shown("Which models report numbers on X?", "How many models are on X?")
    assert picked('{"same_as": "How many models are on X?"}', shown) is shown[1]
    assert picked(' {"same_as": "none of these"} ', shown) == NONE
    for reply in ('{"same_as": "How many models"}', '{"same_as": 2}', '{"same": "How many models are on X?"}', "2",
                  "", "Option two"):
        assert picked(reply, shown) is None, reply


def test_a_constrained_server_can_only_write_the_schemas_json() -> None:
    shown = _shown("Which models report numbers on X?")
    assert json.loads(least_instance(schema(shown))) == {"same_as": "Which models report numbers on X?"}


@pytest.mark.slow
def test_the_real_server_can_only_copy_a_question_shown_or_say_none(tmp_path: Path) -> None:
    """The 0.5B model (installed by the test command) on llama.cpp's server, through the product's OpenAI-compatible
    client: its reply, held to the reader's schema, is one of the questions shown or "none of these", whatever it
    makes of the question."""
    from pipeline.generators.embedded import EmbeddedLlamaGenerator
    from pipeline.generators.llamacpp import LlamaServer, ServerConfig
    from pipeline.generators.weights import CATALOGUE
    from pipeline.intent.reader import prompt
    from pipeline.settings import Settings

    model = Settings.from_env(dotenv=None).models_dir / CATALOGUE["qwen2.5-coder-0.5b"].file
    assert model.is_file(), f"{model} is missing: run `kgqa models fetch qwen2.5-coder-0.5b`"
    shown = _shown("Which models report numbers on Story Cloze Test?", "How many models report on Story Cloze Test?",
                   "Which metrics are reported for Story Cloze Test?")
    server = LlamaServer(ServerConfig(str(model), 2, 2048, 1, "none", 3, 32), tmp_path / "llm.log")
    try:
        local = EmbeddedLlamaGenerator(server, timeout=1800.0, max_new_tokens=64)
        replies = [local.structured(prompt(q, shown), schema(shown)) for q in (
            "count the models with results on story cloze test", "what is the capital of France?")]
    finally:
        server.stop()
    assert all(picked(reply, shown) is not None for reply in replies), replies


def test_a_model_server_that_is_down_ends_the_question_with_the_reason_and_is_asked_once(
        env: Path, tgi: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Reading and writing are one server: with the model alone, its failure ends the question (not a decline), and
    the writer is not sent to a server the reader found down."""
    tgi.set_fault("500")
    monkeypatch.setenv("KGQA_TGI_URL", tgi.url)
    monkeypatch.setenv("KGQA_LLM_READER", "true")
    monkeypatch.setenv("KGQA_LLM_FALLBACK", "none")
    main(["ask", "--generator", "tgi", "--kg", str(env), "--json",
          "How many models were evaluated on Story Cloze Test?"])
    out = json.loads(capsys.readouterr().out)
    assert out["outcome"] == "failed" and "CUDA out of memory" in out["error"] and out["sparql"] is None
    assert all(TASK in p for p in _prompts(tgi))  # only the reading was sent (TGI's client tries a failure once more)


def test_a_part_of_a_longer_name_the_question_writes_is_no_name_to_read_with() -> None:
    from pipeline.intent.named import Name
    from pipeline.intent.reader import whole

    text = "List the code links of the Long Short Transformer model, by F1 score"
    part = Name(text.index("Transformer"), text.index("Transformer") + 11, "Transformer", frozenset({"model"}))
    metric = Name(text.index("F1"), text.index("F1") + 2, "F1", frozenset({"metric"}))
    spans = [(text.index("Long"), part.end, ""), (metric.start, len(text), "metric")]
    assert whole(text, [part, metric], spans, frozenset({"score"})) == [metric]  # 'F1' is all of 'F1 score'
    assert whole(text, [part, metric], [], frozenset()) == [part, metric]


@pytest.mark.parametrize("question", ["highest Accuracy on each dataset pls", "lowest Accuracy per dataset?"])
def test_no_question_shown_leaves_out_a_word_that_says_what_is_done_to_the_answer(
        env: Path, tgi: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        question: str) -> None:
    """'on each dataset' groups the answer: 'the highest Accuracy reported anywhere' is another question, never
    shown for the model to copy."""
    tgi.respond = choosing("anywhere")
    out = _ask(env, monkeypatch, capsys, tgi, question)
    listed = [q for p in _prompts(tgi) for q in re.findall(r"^- (.*)$", p, re.M)]
    assert not any("anywhere" in q for q in listed) and out["generator"] != "reader:tgi"
