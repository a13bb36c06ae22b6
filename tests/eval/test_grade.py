"""Scoring a set whose gold is a query: the gold is the query's result on the evaluated graph, and each reply is
right, declined, wrong or failed as a user would judge it; the report counts them per intent."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.cli import main
from pipeline.eval.generated.gold import with_gold
from pipeline.eval.grade import Grade, grade, intent_counts
from pipeline.eval.questions import EvalQuestion, load_questions
from pipeline.eval.run import scored
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.records import Outcome
from standins import orkg_fixture as fx

MODELS_ON = ("SELECT DISTINCT ?model ?model_lbl WHERE { ?d a orkgc:Dataset; rdfs:label ?l. FILTER(str(?l) = {}) "
             "?b orkgp:HAS_DATASET ?d. ?c orkgp:HAS_BENCHMARK ?b; orkgp:HAS_MODEL ?model. "
             "?model rdfs:label ?model_lbl. }")
SPARQL = "SELECT ?x WHERE { ?x ?p ?o }"  # stands for the query the bot ran


def models_on(dataset: str) -> str:
    return MODELS_ON.replace("{}", f'"{dataset}"')


@pytest.fixture(scope="module")
def kg(orkg_fixture_nt: Path) -> OxigraphKG:
    return OxigraphKG(orkg_fixture_nt, row_cap=1000)


@pytest.fixture(scope="module")
def asked(kg: OxigraphKG) -> EvalQuestion:
    return with_gold([EvalQuestion("q", "Which models were tested on LibriVoice (clean)?", [], intent="models",
                                   gold_sparql=models_on(fx.LIBRI))], kg)[0]


def test_the_gold_is_the_querys_labels_with_its_iris_also_accepted(asked: EvalQuestion) -> None:
    assert sorted(asked.gold) == ["WaveTrans (ensemble)", "Écoute-Small"]
    assert [sorted(a) for a in asked.accepted] == [sorted([*asked.gold, fx.iri("Model", "WaveTrans (ensemble)"),
                                                           fx.iri("Model", "Écoute-Small")])]


@pytest.mark.parametrize(("outcome", "sparql", "reply", "expected"), [
    (Outcome.ANSWERED, SPARQL, ["Écoute-Small", "WaveTrans (ensemble)"], Grade.RIGHT),
    (Outcome.ANSWERED, SPARQL, ["WaveTrans (ensemble)", fx.iri("Model", "WaveTrans (ensemble)"), "Écoute-Small",
                                fx.iri("Model", "Écoute-Small")], Grade.RIGHT),  # each thing by IRI and label
    (Outcome.ANSWERED, SPARQL, ["WaveTrans (ensemble)"], Grade.WRONG),  # the best one alone, not every one
    (Outcome.ANSWERED, SPARQL, ["WaveTrans (ensemble)", "Écoute-Small", "TinyConv"], Grade.WRONG),
    (Outcome.ANSWERED, SPARQL, [fx.iri("Model", "WaveTrans (ensemble)"), fx.iri("Model", "Écoute-Small")],
     Grade.WRONG),  # IRIs alone are not what a reader can check
    (Outcome.EMPTY, SPARQL, [], Grade.WRONG),
    (Outcome.DECLINED, None, [], Grade.DECLINED),
    (Outcome.DECLINED, SPARQL, [], Grade.DECLINED),  # a query on record, declined all the same
    (Outcome.REFUSED, SPARQL, [], Grade.DECLINED),
    (Outcome.TIMED_OUT, None, [], Grade.FAILED),
    (Outcome.FAILED, SPARQL, [], Grade.FAILED),
])
def test_a_reply_is_judged_as_a_user_would(asked: EvalQuestion, outcome: Outcome, sparql: str | None,
                                           reply: list[str], expected: Grade) -> None:
    assert grade(scored(asked, reply, sparql=sparql, outcome=outcome.value)) is expected


def test_the_things_asked_for_each_beside_more_are_right_and_a_column_of_others_is_not(asked: EvalQuestion) -> None:
    """'Which models have published code?' answered by the models and their code links: one column is the gold."""
    with_links = [["Écoute-Small", "WaveTrans (ensemble)"], ["https://example.org/a", "https://example.org/b"]]
    flat = ["Écoute-Small", "https://example.org/a", "WaveTrans (ensemble)", "https://example.org/b"]
    assert grade(scored(asked, flat, with_links, sparql=SPARQL, outcome="answered")) is Grade.RIGHT
    ranked = [["WaveTrans (ensemble)"], ["6.8"]]  # the best one alone, beside its score
    assert grade(scored(asked, ["WaveTrans (ensemble)", "6.8"], ranked, sparql=SPARQL,
                          outcome="answered")) is Grade.WRONG
    more = [["Écoute-Small", "WaveTrans (ensemble)", "TinyConv"], ["1", "2", "3"]]
    assert grade(scored(asked, ["Écoute-Small", "1", "WaveTrans (ensemble)", "2", "TinyConv", "3"], more,
                          sparql=SPARQL, outcome="answered")) is Grade.WRONG


def test_a_paper_and_its_year_shown_with_its_iri_are_right_and_another_year_is_not() -> None:
    """'The latest paper and when it came out': title and year, the bot's reply with the paper's IRI beside them."""
    asked = EvalQuestion("p", "?", ["A Paper", "2024"])
    shown = [["http://orkg.org/orkg/resource/R1"], ["A Paper"], ["2024"]]
    assert grade(scored(asked, ["http://orkg.org/orkg/resource/R1", "A Paper", "2024"], shown, sparql=SPARQL,
                          outcome="answered")) is Grade.RIGHT
    other = [["http://orkg.org/orkg/resource/R1"], ["A Paper"], ["2023"]]
    assert grade(scored(asked, ["http://orkg.org/orkg/resource/R1", "A Paper", "2023"], other, sparql=SPARQL,
                          outcome="answered")) is Grade.WRONG


def test_two_things_asked_shown_beside_a_third_are_right_and_one_left_out_is_not() -> None:
    """'Which contributions are RCTs, and what effect size did each report?': each beside its paper."""
    asked = EvalQuestion("c", "?", ["Kenya trial", "0.07", "Morocco rollout", "0.04"])
    shown = [["Kenya trial", "Morocco rollout"], ["Savings in Kenya", "Credit in Morocco"], ["0.07", "0.04"]]
    flat = ["Kenya trial", "Savings in Kenya", "0.07", "Morocco rollout", "Credit in Morocco", "0.04"]
    assert grade(scored(asked, flat, shown, sparql=SPARQL, outcome="answered")) is Grade.RIGHT
    no_values = shown[:2]  # the effect sizes left out
    assert grade(scored(asked, flat[:2] + flat[3:5], no_values, sparql=SPARQL, outcome="answered")) is Grade.WRONG
    other = [shown[0], shown[1], ["0.07", "0.05"]]  # another value
    assert grade(scored(asked, flat, other, sparql=SPARQL, outcome="answered")) is Grade.WRONG


def test_an_empty_answer_is_right_when_the_gold_is_empty(kg: OxigraphKG) -> None:
    q = with_gold([EvalQuestion("q", "?", [], gold_sparql=models_on(fx.UNUSED_DATASET))], kg)[0]
    assert q.gold == [] and grade(scored(q, [], sparql=SPARQL, outcome=Outcome.EMPTY.value)) is Grade.RIGHT
    assert grade(scored(q, ["Plain LSTM"], sparql=SPARQL, outcome=Outcome.ANSWERED.value)) is Grade.WRONG


def test_intent_counts_per_intent_and_in_all(asked: EvalQuestion) -> None:
    other = EvalQuestion("r", "?", ["1"], intent="count")
    results = [scored(asked, asked.gold, sparql=SPARQL, outcome="answered"),
               scored(asked, [], outcome="declined"), scored(other, ["2"], sparql=SPARQL, outcome="answered")]
    table = intent_counts(results)
    assert list(table) == ["models", "count", "all"]
    assert table["models"] == {"right": 1, "declined": 1, "wrong": 0, "failed": 0, "n": 2}
    assert table["all"] == {"right": 1, "declined": 1, "wrong": 1, "failed": 0, "n": 3}
    assert intent_counts([scored(EvalQuestion("s", "?", ["1"]), ["1"])]) == {}


def test_a_file_question_with_a_stored_answer_keeps_it_and_one_without_gets_the_graphs(tmp_path: Path,
                                                                                        kg: OxigraphKG) -> None:
    path = tmp_path / "set.json"
    path.write_text(json.dumps({"questions": [
        {"id": "a", "question": "stored", "answer": ["x"], "gold_sparql": models_on(fx.LIBRI), "category": "c"},
        {"id": "b", "question": "by query", "gold_sparql": models_on(fx.QA_PAIRS), "intent": "models"}]}), "utf-8")
    stored, by_query = with_gold(load_questions(str(path), None), kg)
    assert (stored.gold, stored.gold_sparql, stored.intent) == (["x"], "", "c")
    assert (by_query.gold, by_query.intent) == (["DenseRetriever (single model)"], "models")


def test_kgqa_eval_scores_a_recorded_run_against_the_gold_queries_on_the_graph(
        tmp_path: Path, orkg_fixture_nt: Path, capsys: pytest.CaptureFixture[str]) -> None:
    questions = [{"id": "a", "question": "models on LibriVoice (clean)?", "intent": "models",
                  "gold_sparql": models_on(fx.LIBRI)},
                 {"id": "b", "question": "models on Q&A Pairs: Set 3?", "intent": "models",
                  "gold_sparql": models_on(fx.QA_PAIRS)}]
    (tmp_path / "set.json").write_text(json.dumps({"questions": questions}), encoding="utf-8")
    (tmp_path / "answers.json").write_text(json.dumps([{"id": "a", "answer": ["Écoute-Small", "WaveTrans (ensemble)"]},
                                                       {"id": "b", "answer": ["BM25+ (tuned)"]}]), encoding="utf-8")
    assert main(["eval", "--questions", str(tmp_path / "set.json"), "--answers", str(tmp_path / "answers.json"),
                 "--kg", str(orkg_fixture_nt), "--report", str(tmp_path / "r")]) == 0
    assert "Intent models: right 1, declined 0, wrong 1, failed 0" in capsys.readouterr().out
    report = json.loads((tmp_path / "r" / "report.json").read_text(encoding="utf-8"))
    assert report["intents"]["models"]["right"] == 1 and [q["verdict"] for q in report["questions"]] == \
        ["right", "wrong"]
    assert "| models | 2 | 1 | 0 | 1 | 0 |" in (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
