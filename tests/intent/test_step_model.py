"""The intent step judging a language model's query (the TGI stand-in serving the reply) over the fixture graph,
through the CLI: a query that answers otherwise is not run, one that means another thing is mended or replaced, and
what is held counts as declined."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pipeline.cli import main
from tests.intent import gold
from tests.intent.test_step import _outcomes

TIED_BEST = ('SELECT ?model_lbl WHERE {{ ?dataset a orkgc:Dataset; rdfs:label ?d. FILTER(str(?d) = "{dataset}") '
             '?metric a orkgc:Metric; rdfs:label ?m. FILTER(str(?m) = "{metric}") ?benchmark orkgp:HAS_DATASET '
             '?dataset; orkgp:HAS_EVALUATION ?eval. ?eval orkgp:HAS_METRIC ?metric; orkgp:HAS_VALUE ?value. '
             '?cont orkgp:HAS_BENCHMARK ?benchmark; orkgp:HAS_MODEL ?model. ?model rdfs:label ?model_lbl. {extra}'
             '}} ORDER BY {order}(?value) LIMIT 1')
LISTED = ('SELECT ?paper WHERE { ?paper rdf:type orkgc:Paper. ?paper orkgp:P31 ?contrib. ?contrib orkgp:P32 ?rp. '
          '?rp rdfs:label ?rp_labels. FILTER(REGEX(?rp_labels, "Common Sense Reasoning", "i")) '
          '?paper orkgp:P29 ?authors. }')
BESIDE = ('SELECT DISTINCT ?research_field WHERE { ?problem a orkgc:Problem; rdfs:label ?problem_lbl. '
          'FILTER (str(?problem_lbl) = "Paraphrase Identification") ?research_field a orkgc:ResearchField; '
          'rdfs:label ?research_field_labels. }')


def _model_says(tgi: Any, monkeypatch: pytest.MonkeyPatch, reply: str) -> None:
    monkeypatch.setenv("KGQA_TGI_URL", tgi.url)
    monkeypatch.setenv("KGQA_LLM_ORDER", "llm-first")
    for _ in range(3):  # the reply, and the same again if the pipeline re-asks
        tgi.enqueue(f" {reply}\nUSER:")


@pytest.mark.parametrize(("question", "reply", "gold", "why"), [
    ("Which model has the lowest Top-1 Accuracy on Tiny Objects 20?",  # ranked from the top, in opaque words
     TIED_BEST.format(dataset="Tiny Objects 20", metric="Top-1 Accuracy", order="DESC",
                      extra="?paper orkgp:P31 ?cont; orkgp:P29 ?authors. "), ["CoherenceNet"],
     "the lowest value (it ranks from the highest first)"),
    ("How many papers address the Common Sense Reasoning problem?", LISTED, ["3"],
     "a count (how many) (it lists things instead of counting them)"),
    ("Which research field does the Paraphrase Identification problem belong to?", BESIDE,
     ["Natural Language Processing"], "?research_field is joined to none of its names"),
])
def test_a_models_query_that_answers_otherwise_is_not_run_and_the_composed_one_answers(
        env: Path, tgi: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], question: str,
        reply: str, gold: list[str], why: str) -> None:
    _model_says(tgi, monkeypatch, reply)
    monkeypatch.setenv("KGQA_LLM_FALLBACK", "none")  # the model alone: its query judged by the intent step
    assert main(["ask", "--generator", "tgi", "--kg", str(env), "--json", question]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["generator"] == "intent" and out["flat_answer"] == gold
    assert any(why in note and "tgi wrote lacked" in note for note in out["notes"])


@pytest.mark.parametrize(("question", "gold"), [
    ("Which model has the lowest Top-1 Accuracy on Tiny Objects 20?", ["CoherenceNet"]),
    ("How many papers address the Common Sense Reasoning problem?", ["3"]),
    ("Which model has the highest Accuracy score on the Story Cloze Test dataset?", ["StoryLM-large"]),
    ("Which papers report results for CoherenceNet?",
     ["Coherent endings: scoring story continuations with a narrative model", "Small images, small models"]),
])
def test_with_the_adapter_behind_a_question_the_rules_read_whole_is_answered_before_the_model_is_asked(
        env: Path, tgi: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        question: str, gold: list[str]) -> None:
    """LLM first with the adapter behind: where the rules read every word, their query answers and the model is
    never asked (it could only override a whole reading: a best ranked the other way, a list for a count)."""
    _model_says(tgi, monkeypatch, LISTED)
    monkeypatch.setenv("KGQA_LLM_FALLBACK", "adapter")
    assert main(["ask", "--generator", "tgi", "--kg", str(env), "--json", question]) == 0
    out = json.loads(capsys.readouterr().out)
    labels = sorted(a for a in out["flat_answer"] if not a.startswith("http"))
    assert out["generator"] == "intent" and labels == gold and not tgi.requests


def test_with_no_fallback_a_superlative_ranked_the_other_way_is_declined_with_the_reason_and_an_offer(
        env: Path, tgi: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _model_says(tgi, monkeypatch, TIED_BEST.format(dataset="Story Cloze Test", metric="Accuracy", order="ASC",
                                                   extra=""))
    monkeypatch.setenv("KGQA_LLM_FALLBACK", "none")
    main(["ask", "--generator", "tgi", "--kg", str(env), "--json",
          "Which model has the highest Accuracy score on the cloze test?"])  # typed in part: nothing composed
    out = json.loads(capsys.readouterr().out)
    assert out["sparql"] is None and out["answer"]["rows"] == []
    assert "the highest value (it ranks from the lowest first)" in out["explanation"]
    assert out["offer"] and out["offer"] in out["explanation"]


# The model's query means another thing than the question asks, in ways its words hide; the model alone.
PROBLEMS_BARE = ('SELECT DISTINCT ?problem WHERE { ?dataset a orkgc:Dataset; rdfs:label ?l. FILTER(str(?l) = '
                 '"Tiny Objects 20") ?benchmark orkgp:HAS_DATASET ?dataset. ?cont orkgp:HAS_BENCHMARK ?benchmark; '
                 'orkgp:P32 ?problem. }')
IN_TITLES = ('ASK { ?paper a orkgc:Paper; rdfs:label ?title. FILTER(REGEX(?title, "CoherenceNet", "i")) '
             '?paper orkgp:P31 ?c. ?c orkgp:P32 ?p. ?p rdfs:label ?pl. FILTER(REGEX(?pl, "Image Classification")) }')


@pytest.mark.parametrize(("question", "reply", "gold", "writer", "why"), [
    # the right problems, given by their IRIs: answered with their labels, the model's query otherwise as written
    ("Which research problems is the Tiny Objects 20 dataset used for?", PROBLEMS_BARE, ["Image Classification"],
     "tgi", "the answer gives the labels of ?problem"),
    # a model's name looked for inside paper titles: 'false'; the graph has it as a model, and the composed ask answers
    ("Does CoherenceNet address the Image Classification problem?", IN_TITLES, ["true"], "intent",
     "'CoherenceNet' as the model it is (the query takes it for a paper)"),
])
def test_a_models_query_meaning_another_thing_is_mended_or_replaced(
        env: Path, tgi: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], question: str,
        reply: str, gold: list[str], writer: str, why: str) -> None:
    _model_says(tgi, monkeypatch, reply)
    monkeypatch.setenv("KGQA_LLM_FALLBACK", "none")
    assert main(["ask", "--generator", "tgi", "--kg", str(env), "--json", question]) == 0
    out = json.loads(capsys.readouterr().out)
    assert sorted(out["flat_answer"]) == gold and out["generator"] == writer
    assert any(why in note for note in out["notes"]), out["notes"]


def test_a_models_name_taken_for_the_kind_asked_is_answered_as_the_model_it_is(
        env: Path, tgi: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """'QuikReader' taken for a dataset (the kind asked for) by the model: the graph has the model QuickReader, one
    slip away; the composed query answers with its datasets and says how it read the name (it was declined, naming
    the model, before names with a slip were composed with)."""
    asked = "which datasets has QuikReader been evaluated on?"
    _model_says(tgi, monkeypatch, 'SELECT DISTINCT ?dataset WHERE { ?dataset a orkgc:Dataset; rdfs:label ?l. FILTER('
                'str(?l) = "QuikReader") ?benchmark orkgp:HAS_DATASET ?dataset. }')
    monkeypatch.setenv("KGQA_LLM_FALLBACK", "none")
    main(["ask", "--generator", "tgi", "--kg", str(env), "--json", asked])
    out = json.loads(capsys.readouterr().out)
    assert out["generator"] == "intent" and sorted(out["flat_answer"]) == sorted(gold.datasets_of("QuickReader"))
    assert any("read 'QuikReader' as 'QuickReader'" in note for note in out["notes"])


def test_a_query_held_by_the_names_step_counts_as_declined(
        env: Path, tgi: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    """scripts/intent_outcomes.py: the names step's "no dataset called ..." answers nothing (its query is on record
    for what it would have asked): declined, not wrong."""
    monkeypatch.setenv("KGQA_LLM_FALLBACK", "none")
    questions = tmp_path / "q.json"  # a name the graph has as nothing: held by the names step, query on record
    questions.write_text(json.dumps({"questions": [{"id": "X1", "question": "Which models are evaluated on the "
                                                    "Zorblax Corpus dataset?", "answer": ["M"]}]}))
    _model_says(tgi, monkeypatch, T01_ZORBLAX)
    main(["eval", "--questions", str(questions), "--generator", "tgi", "--kg", str(env), "--workers", "1",
          "--report", str(tmp_path / "r")])  # every question unanswered: exit 1
    capsys.readouterr()
    report = json.loads((tmp_path / "r" / "report.json").read_text())["questions"][0]
    assert report["sparql"] and report["outcome"] == "declined"
    assert _outcomes(tmp_path / "r") == {"right": 0, "wrong": 0, "declined": 1}


T01_ZORBLAX = ('SELECT DISTINCT ?model_lbl WHERE { ?dataset a orkgc:Dataset; rdfs:label ?l. FILTER(str(?l) = '
               '"Zorblax Corpus") ?benchmark orkgp:HAS_DATASET ?dataset. ?cont orkgp:HAS_BENCHMARK ?benchmark; '
               'orkgp:HAS_MODEL ?model. ?model rdfs:label ?model_lbl. }')


MODELS_ON = ('SELECT DISTINCT ?model_lbl WHERE { ?dataset a orkgc:Dataset; rdfs:label ?d. '
             'FILTER(str(?d) = "Story Cloze Test") ?benchmark orkgp:HAS_DATASET ?dataset. '
             '?cont orkgp:HAS_BENCHMARK ?benchmark; orkgp:HAS_MODEL ?model. ?model rdfs:label ?model_lbl. }')


@pytest.mark.parametrize(("question", "answered"), [
    ("which models outsmarted the rest on Story Cloze Test, roughly speaking?", False),  # no stored question near
    ("Which models have been evaluated on the Story Cloze Test dataset?", True),  # a stored question's own form
])
def test_a_models_own_query_for_words_nothing_places_is_not_run(
        env: Path, tgi: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], question: str,
        answered: bool) -> None:
    """The model's own SPARQL for a question no stored question is close to and whose words no pair places (on such
    questions it was right 0 times and wrong 7) is not run: the reply names the words. Asked in a stored form, the
    same query answers."""
    _model_says(tgi, monkeypatch, MODELS_ON)
    monkeypatch.setenv("KGQA_LLM_FALLBACK", "none")
    assert main(["ask", "--generator", "tgi", "--kg", str(env), "--json", question]) == 0
    out = json.loads(capsys.readouterr().out)
    if answered:
        assert out["sparql"] and sorted(out["flat_answer"]) == sorted(
            ["CoherenceNet", "StoryLM-base", "StoryLM-large", "Plain LSTM"])
    else:
        assert out["sparql"] is None and out["answer"]["rows"] == [] and "'outsmarted'" in out["explanation"]


def test_a_models_own_query_leaving_out_a_name_the_question_types_is_not_run(
        env: Path, tgi: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Asked about the models of two datasets, the model's own query naming one of them is not what answers: the
    reply says the name it left out. The same query for a question naming only that dataset answers."""
    _model_says(tgi, monkeypatch, MODELS_ON)
    monkeypatch.setenv("KGQA_LLM_FALLBACK", "none")
    asked = "which models were evaluated on story cloze test and on loreqa reading set?"
    assert main(["ask", "--generator", "tgi", "--kg", str(env), "--json", asked]) == 0
    out = json.loads(capsys.readouterr().out)
    assert sorted(out["flat_answer"]) != sorted(["CoherenceNet", "StoryLM-base", "StoryLM-large", "Plain LSTM"])
    assert out["sparql"] is None or "LoreQA Reading Set" in out["sparql"]
    if out["sparql"] is None:
        assert "LoreQA Reading Set" in out["explanation"]
    tgi.requests.clear()
    _model_says(tgi, monkeypatch, MODELS_ON)
    assert main(["ask", "--generator", "tgi", "--kg", str(env), "--json", "which models were evaluated on story "
                 "cloze test?"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert sorted(out["flat_answer"]) == sorted(["CoherenceNet", "StoryLM-base", "StoryLM-large", "Plain LSTM"])


def _own(sparql: str) -> Any:
    """The model's own query, as the loop hands it on (one reply, taken)."""
    from pipeline.records import Ask, Attempt, Generation, Verdict

    return Generation("local", sparql, attempts=(Attempt(Ask.PROMPT, sparql, sparql, Verdict.TAKEN),))


def test_a_models_own_query_naming_nothing_for_a_question_naming_a_field_loosely_is_not_run(
        fixture_kg: Any) -> None:
    """'what databases papers do we have': a query listing every paper leaves out the field, typed loosely; the
    composed query names it."""
    from pipeline.intent.step import IntentStep
    from tests.intent.conftest import indexed

    index = indexed(fixture_kg)
    every = "SELECT ?paper WHERE { ?paper orkgp:P31 ?contribution. }"
    done = IntentStep(labels=lambda: index).review("what databases papers do we have in there", _own(every), [],
                                                   fixture_kg).generation
    assert done.sparql != every and done.sparql is not None and '"Databases/Information Systems"' in done.sparql


def test_a_models_own_query_ranking_the_worst_on_an_error_rate_from_the_lowest_is_not_run(fixture_kg: Any) -> None:
    """'which model did the worst on WER': the highest WER; the model's query ranking from the lowest answers the best
    (its metric written in lower case, as models write what the question types), and is replaced by the composed one."""
    from pipeline.intent.step import IntentStep
    from pipeline.sparql.direction import direction_known, lower_is_better
    from tests.intent.conftest import answer_of, indexed

    index = indexed(fixture_kg)
    asked = 0
    for dataset, metric in gold.boards():
        worst = gold.extreme(dataset, metric, highest=True)
        if not (lower_is_better(metric) and direction_known(metric)) or len(worst) != 1:
            continue
        wrong = (f'SELECT ?model_lbl WHERE {{ ?d rdfs:label ?dl. FILTER(str(?dl) = "{dataset}") ?m rdfs:label ?ml. '
                 f'FILTER(str(?ml) = "{metric.lower()}") ?b orkgp:HAS_DATASET ?d; orkgp:HAS_EVALUATION ?e. '
                 '?e orkgp:HAS_METRIC ?m; orkgp:HAS_VALUE ?v. ?c orkgp:HAS_BENCHMARK ?b; orkgp:HAS_MODEL ?model. '
                 '?model rdfs:label ?model_lbl. } ORDER BY ASC(?v) LIMIT 1')
        done = IntentStep(labels=lambda: index).review(f"which model did the worst on {metric} for {dataset}",
                                                       _own(wrong), [], fixture_kg).generation
        assert done.sparql is not None and done.sparql != wrong
        assert {v for row in answer_of(fixture_kg, done.sparql) for v in row} & set(gold.models_on(dataset)) == worst
        asked += 1
    assert asked >= 1


def test_a_models_own_count_of_things_without_distinct_is_not_run(fixture_kg: Any) -> None:
    """'which dataset has the most models, and how many': COUNT(?model) counts a model once per score; the composed
    count counts each model once."""
    from pipeline.intent.step import IntentStep
    from tests.intent.conftest import answer_of, indexed

    index = indexed(fixture_kg)
    twice = ("SELECT ?dataset_lbl (COUNT(?model) AS ?n) WHERE { ?dataset a orkgc:Dataset; rdfs:label ?dataset_lbl. "
             "?b orkgp:HAS_DATASET ?dataset; orkgp:HAS_EVALUATION ?e. "
             "?c orkgp:HAS_BENCHMARK ?b; orkgp:HAS_MODEL ?model. "
             "} GROUP BY ?dataset_lbl ORDER BY DESC(?n) LIMIT 1")
    done = IntentStep(labels=lambda: index).review("which dataset has the most models evaluated on it, and how many?",
                                                   _own(twice), [], fixture_kg).generation
    assert done.sparql is not None and "COUNT(DISTINCT" in done.sparql
    most = max(len(gold.models_on(d)) for d, _ in gold.boards())
    assert str(most) in {v for row in answer_of(fixture_kg, done.sparql) for v in row}


def test_a_models_own_query_comparing_things_with_a_number_is_not_run(fixture_kg: Any) -> None:
    """'papers with more than 1 contribution' written as FILTER(?contribution > 1): a thing is no number; a value
    compared with one stands."""
    from pipeline.intent.step import IntentStep

    things = "SELECT (COUNT(?paper) AS ?n) WHERE { ?paper orkgp:P31 ?contribution. FILTER(?contribution > 1) }"
    done = IntentStep().review("how many papers have more than 1 contribution?", _own(things), [],
                               fixture_kg).generation
    assert done.sparql != things and "a number of contributions" in " ".join(done.notes)
    values = ('SELECT ?model_lbl WHERE { ?c orkgp:HAS_MODEL ?model; orkgp:HAS_BENCHMARK ?b. '
              '?b orkgp:HAS_EVALUATION ?e. ?e orkgp:HAS_VALUE ?value. ?model rdfs:label ?model_lbl. '
              'FILTER(xsd:decimal(?value) > 1) }')
    kept = IntentStep().review("which models score more than 1?", _own(values), [], fixture_kg).generation
    assert not any("a number of" in n for n in kept.notes)


COMPARISONS8 = Path(__file__).resolve().parents[1] / "data" / "eval" / "comparisons8.nt"


@pytest.mark.parametrize(("reply", "answered"), [
    ("SELECT ?comparison WHERE { ?comparison a orkgc:Comparison . }", False),  # the country left out
    ("SELECT DISTINCT ?comparison WHERE { ?comparison orkgp:compareContribution ?c . ?c orkgp:P15249 ?x . }", True),
])
def test_a_models_query_for_a_comparison_question_read_in_part_uses_every_property_it_names(
        env: Path, tgi: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], reply: str,
        answered: bool) -> None:
    """No comparison named and a word the rules cannot place ('frobnicate'): the model's query stands only if it
    uses the property the question names ('Country'); one listing every comparison is declined, naming it."""
    _model_says(tgi, monkeypatch, reply)
    monkeypatch.setenv("KGQA_LLM_FALLBACK", "none")
    assert main(["ask", "--generator", "tgi", "--kg", str(COMPARISONS8), "--json",
                 "which comparisons frobnicate a country?"]) == 0
    out = json.loads(capsys.readouterr().out)
    if answered:
        assert out["sparql"] and out["flat_answer"]
    else:
        assert out["sparql"] is None and "'Country'" in out["explanation"], out["explanation"]


AVERAGED_TEXT = ('SELECT (AVG(?value) AS ?average) WHERE { ?dataset a orkgc:Dataset; rdfs:label ?d. '
                 'FILTER(str(?d) = "Story Cloze Test") ?benchmark orkgp:HAS_DATASET ?dataset; '
                 'orkgp:HAS_EVALUATION ?eval. ?eval orkgp:HAS_VALUE ?value. }')


def test_a_models_own_average_of_scores_as_text_is_not_run(
        env: Path, tgi: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The ORKG's scores are text: the model's AVG(?value) is no number (the column comes back empty), so its query
    is not what answers — the composer's average does, or the reply says what the query lacks."""
    _model_says(tgi, monkeypatch, AVERAGED_TEXT)
    monkeypatch.setenv("KGQA_LLM_FALLBACK", "none")
    assert main(["ask", "--generator", "tgi", "--kg", str(env), "--json",
                 "what is the average score on story cloze test?"]) == 0
    out = json.loads(capsys.readouterr().out)
    said = " ".join(out["notes"]) + out["explanation"]
    assert not (out["generator"] == "tgi" and out["sparql"]) and "the values as numbers" in said, said
