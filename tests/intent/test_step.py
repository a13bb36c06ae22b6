"""End to end (real store over SciQA train, the adapter, the fixture graph in pyoxigraph): a question the stored
queries cannot answer as asked is composed or declined with an offer, never answered with another question's rows."""
from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from pipeline.cli import main
from standins.orkg_fixture import write_ntriples

ROOT = Path(__file__).resolve().parents[2]


def _ask(question: str, kg: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["ask", "--generator", "adapter", "--kg", str(kg), "--json", question]) in (0, 1)
    return json.loads(capsys.readouterr().out)


def test_a_dropped_name_is_declined_with_an_offer_and_nothing_runs(env: Path, capsys: pytest.CaptureFixture[str]
                                                                   ) -> None:
    out = _ask("What is the EM score of XLNet (single model) on SQuAD1.1?", env, capsys)
    assert out["sparql"] is None and out["answer"]["rows"] == []
    assert "XLNet (single model)" in out["explanation"] and out["offer"] and "SQuAD1.1" in out["offer"]
    assert out["offer"] in out["explanation"]


def test_common_new_intents_are_composed_and_read(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _ask("How many models have been evaluated on the ParaPhrase Pairs v2 dataset?", env, capsys)
    assert out["flat_answer"] == ["1"] and "COUNT" in out["sparql"] and out["generator"] == "intent"
    out = _ask("Which model is third on the LoreQA Reading Set by Exact Match?", env, capsys)
    assert out["flat_answer"] == ["StoryLM-large"] and "OFFSET 2" in out["sparql"] and out["reading"]
    out = _ask("Was Plain LSTM evaluated on the Tiny Objects 20 dataset?", env, capsys)
    assert out["answer"]["boolean"] is False and out["sparql"].lstrip().upper().count("ASK") >= 1


def _outcomes(report: Path) -> dict[str, int]:
    spec = importlib.util.spec_from_file_location("intent_outcomes", ROOT / "scripts" / "intent_outcomes.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    counts = {"right": 0, "wrong": 0, "declined": 0}
    for q in json.loads((report / "report.json").read_text())["questions"]:
        counts[module.outcome(q)] += 1
    return counts


def _gold() -> Any:
    spec = importlib.util.spec_from_file_location("novel_gold", ROOT / "scripts" / "novel_gold.py")
    gold = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(gold)  # type: ignore[union-attr]
    return gold


def test_the_novel_intent_set_floors(env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The held-out set (tests/data/eval/novel-intents.json; its answers are the gold queries' on this graph)."""
    gold = _gold()
    committed = json.loads((ROOT / "tests" / "data" / "eval" / "novel-intents.json").read_text(encoding="utf-8"))
    # answers come from the queries
    assert gold.build(ROOT / "tests" / "data" / "eval" / "novel-intents.txt") == committed
    assert len(committed["questions"]) >= 60
    assert main(["eval", "--questions", str(ROOT / "tests" / "data" / "eval" / "novel-intents.json"),
                 "--generator", "adapter", "--kg", str(env), "--workers", "2", "--report", str(tmp_path / "r")]) == 0
    capsys.readouterr()
    counts = _outcomes(tmp_path / "r")
    n = sum(counts.values())
    assert counts["wrong"] <= 0.02 * n and counts["right"] >= 0.95 * n


def test_operator_words_inside_a_name_are_not_operators() -> None:
    from pipeline.intent.reading import read_intent
    from pipeline.intent.written import masked as _masked

    text = "What is the best model on ImageNet in terms of Number of params score?"
    at = text.index("Number of params")
    assert read_intent(text).operators == {"count"}
    assert read_intent(_masked(text, [(at, at + len("Number of params"), "metric")])).operators == set()


def test_the_novel_intent_set_over_the_graph_rebuilt_from_sciqa(env: Path, tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """18 questions over --kg sciqa, written after the code (16 right, 1 wrong, 1 declined when they were held out;
    18 right since the two they exposed were fixed: NS-P2 'squad 1.1' and NS-F1's lowercase twin are in-sample)."""
    source = ROOT / "tests" / "data" / "eval" / "novel-intents-sciqa.json"
    committed = json.loads(source.read_text(encoding="utf-8"))
    assert _gold().build_sciqa(source.with_suffix(".txt")) == committed  # answers come from the queries
    assert main(["eval", "--questions", str(source), "--generator", "adapter", "--kg", "sciqa", "--workers", "2",
                 "--report", str(tmp_path / "r")]) == 0
    capsys.readouterr()
    counts = _outcomes(tmp_path / "r")
    assert counts["wrong"] <= 1 and counts["right"] >= 17, counts


MODELS_ON = ('SELECT DISTINCT ?model ?model_lbl WHERE {{ ?dataset a orkgc:Dataset; rdfs:label ?dataset_lbl. '
             'FILTER (str(?dataset_lbl) = "{name}") ?benchmark orkgp:HAS_DATASET ?dataset; orkgp:HAS_EVALUATION ?eval. '
             '?paper orkgp:HAS_BENCHMARK ?benchmark. OPTIONAL {{?paper orkgp:HAS_MODEL ?model. '
             '?model rdfs:label ?model_lbl.}} }}')
PROBLEMS_IN_FIELD = ('SELECT DISTINCT ?problem ?problem_lbl WHERE {{ ?rf a orkgc:ResearchField; rdfs:label ?rf_label. '
                     'FILTER (str(?rf_label) = "{name}") ?paper orkgp:P30 ?rf; orkgp:P31 ?cont. '
                     '?cont orkgp:HAS_BENCHMARK ?benchmark; orkgp:P32 ?problem. ?problem rdfs:label ?problem_lbl. }}')


def test_a_fitting_query_with_a_loosely_typed_name_stands_and_one_that_takes_it_for_another_kind_is_replaced(
        tmp_path: Path) -> None:
    """'squad 1.1' is the dataset SQuAD1.1 (the graph's label index reads it): a query taking it for a dataset is
    left to the names step; one taking it for a research field is replaced by a query composed with SQuAD1.1."""
    from pipeline.intent.step import IntentStep
    from pipeline.names.index import LabelIndex
    from pipeline.records import Generation
    from tests.intent.test_compose import kg

    graph = kg(tmp_path)
    step = IntentStep(labels=lambda: LabelIndex([("SQuAD1.1", "dataset"), ("Relation Extraction", "problem")],
                                                threshold=85.0))
    fitting = Generation("adapter", MODELS_ON.format(name="squad 1.1"))
    assert step.review("which models are evaluated on the squad 1.1 dataset?", fitting, [], graph).generation \
        is fitting
    wrong = Generation("adapter", PROBLEMS_IN_FIELD.format(name="squad 1.1"))
    review = step.review("which research problems is squad 1.1 used for?", wrong, [], graph)
    assert review.generation.generator == "intent" and '"SQuAD1.1"' in (review.generation.sparql or "")
    assert "orkgc:ResearchField" not in (review.generation.sparql or "")


CODE_OF = ('SELECT DISTINCT ?code WHERE {{ ?model a orkgc:Model; rdfs:label ?model_lbl. '
           'FILTER (str(?model_lbl) = "{name}") ?benchmark orkgp:HAS_DATASET ?dataset. '
           '?cont orkgp:HAS_BENCHMARK ?benchmark. ?cont orkgp:HAS_MODEL ?model; orkgp:HAS_SOURCE_CODE ?code. }}')


def test_a_fitting_query_whose_name_the_names_step_reads_is_not_replaced_by_a_composed_one(tmp_path: Path) -> None:
    """'DRQA' is the model DrQA: the query for its code stands (the names step reads the name); composing would
    have answered with its papers instead of its code."""
    from pipeline.intent.step import IntentStep
    from pipeline.names.index import LabelIndex
    from pipeline.records import Generation
    from tests.intent.test_compose import kg

    graph = kg(tmp_path)
    question = "List the code links in papers that use the DRQA model in any benchmark?"
    code = Generation("adapter", CODE_OF.format(name="DRQA"))
    step = IntentStep(labels=lambda: LabelIndex([("DrQA", "model")], threshold=85.0))
    assert step.review(question, code, [], graph).generation is code
    # without the labels the graph's own case-insensitive lookup reads it: a query for the code of DrQA, never
    # one for its papers
    done = IntentStep().review(question, code, [], graph).generation
    assert done is code or ("orkgp:HAS_SOURCE_CODE" in (done.sparql or "") and '"DrQA"' in (done.sparql or ""))


def test_a_query_that_cut_the_questions_name_short_is_judged_with_the_name_the_question_writes(
        tmp_path: Path) -> None:
    """The model wrote 'DrQA' where the question names the model 'DrQA (ensemble)': its query for the code is
    respelled and stands, said in a note; it is not replaced by a query for the papers of 'DrQA'."""
    from pipeline.intent.step import IntentStep
    from pipeline.names.index import LabelIndex
    from pipeline.records import Generation
    from tests.intent.test_compose import kg

    question = "List the code links in papers that use the DrQA (ensemble) model in any benchmark?"
    written = Generation("local", CODE_OF.format(name="DrQA"))
    step = IntentStep(labels=lambda: LabelIndex([("DrQA", "model"), ("DrQA (ensemble)", "model")], threshold=85.0))
    kept = step.review(question, written, [], kg(tmp_path)).generation
    assert kept.generator == "local" and kept.sparql == CODE_OF.format(name="DrQA (ensemble)")
    assert kept.notes == ("wrote 'DrQA (ensemble)' for 'DrQA', as the question writes this model of the graph",)


def test_a_fitting_query_about_a_name_the_graph_lacks_is_not_replaced_by_one_about_a_part_of_it(
        tmp_path: Path) -> None:
    """'Transformer' is a model of the graph, 'Long Short Transformer' is not: composing with the part would answer
    about another model; the query stands and says nothing matched."""
    from pipeline.intent.step import IntentStep
    from pipeline.names.index import LabelIndex
    from pipeline.records import Generation
    from tests.intent.test_compose import kg

    question = "List the code links in papers that use the Long Short Transformer model in any benchmark?"
    code = Generation("adapter", CODE_OF.format(name="Long Short Transformer"))
    step = IntentStep(labels=lambda: LabelIndex([("Transformer", "model"), ("DrQA", "model")], threshold=85.0))
    assert step.review(question, code, [], kg(tmp_path)).generation is code


HANDCRAFTED = """SELECT DISTINCT ?title WHERE { ?paper a orkgc:Paper;
  orkgp:P31 [ orkgp:P2005 [ rdfs:label "DBLP"^^xsd:string ] ]; rdfs:label ?title. } ORDER BY ?title"""


def test_a_query_of_vocabulary_the_guard_cannot_read_runs_with_a_note_unless_adapted_for_another_ask(
        tmp_path: Path) -> None:
    from pipeline.intent.step import IntentStep
    from pipeline.kg.oxigraph import OxigraphKG
    from pipeline.records import Example, Generation, Retrieved

    kg = OxigraphKG(write_ntriples(tmp_path / "fixture.nt"), row_cap=1000)
    step = IntentStep()
    asked = 'How many papers use the dataset "Tiny Objects 20"?'
    written = HANDCRAFTED.replace("DBLP", "Tiny Objects 20")
    ran = step.review(asked, Generation("replay", written), [], kg).generation
    assert ran.sparql == written  # written for this question: it runs, and says what the guard could not tell
    assert any(n.startswith("intent guard: could not tell whether it gives a count (how many)") for n in ran.notes)
    stored = Retrieved(Example("S1", 'Which papers use the dataset "DBLP"?', HANDCRAFTED), 0.9)
    adapted = step.review(asked, Generation("adapter", written), [stored], kg).generation
    # adapted from a stored query that answers another ask: judged strictly, and replaced by a composed count
    assert adapted.sparql is not None and "COUNT" in adapted.sparql and adapted.generator == "intent"


# A model's replies of each kind the guard judges by meaning, served by the TGI stand-in (LLM first, the paper's
# order), on the fixture graph: each is not run; the intent step's composed query answers, or the reply declines.


@pytest.mark.parametrize(("name", "graph", "right", "wrong"), [
    ("fresh-probe", "fresh", 34, 0), ("fresh-heldout", "fresh", 33, 1),
    # issue 52: two sets of 48 and 45 written by helpers given only the graph's shape, each over a graph of its own;
    # a: 24 / 14 / 10 right / declined / wrong before, 25 / 19 / 4 measured once, 43 / 4 / 1 after its misses were
    # read (in-sample); b: 27 / 14 / 4 before, 29 / 16 / 0 measured once, 40 / 5 / 0 after (tests/data/eval/fresh.md)
    ("fresh-a", "fresh-a", 41, 1), ("fresh-b", "fresh-b", 38, 1),
    # issue 53: questions about ORKG comparisons (real ORKG predicates and labels) by a helper that had not read the
    # code: 0 / 30 / 0 on both before; the probe read while building (27 / 3 / 0), the held-out measured once
    # (13 / 17 / 0), then read: in-sample since (23 / 7 / 0) (tests/data/eval/comparisons.md)
    ("comparisons-probe", "comparisons", 26, 0), ("comparisons-heldout", "comparisons", 23, 0),
    # a second set by another helper: 0 / 36 / 0 before, 9 / 25 / 2 measured once, 27 / 9 / 0 after (in-sample)
    ("comparisons-fresh2", "comparisons2", 29, 0),
    # a third: 0 / 36 / 0 before, 11 / 22 / 3 measured once, 16 / 20 / 0 after (in-sample)
    ("comparisons-fresh3", "comparisons3", 15, 0),
    # third session: fresh-c (64, 28 kinds) 29 / 33 / 2 measured once, 45 / 18 / 1 after its misses were read;
    # comparisons-fresh4 (50, 18 kinds) 21 / 28 / 1 measured once, 24 / 26 / 0 after (in-sample; tests/data/eval/*.md)
    ("fresh-c", "fresh-c", 45, 1), ("comparisons-fresh4", "comparisons4", 22, 0),
    # fourth session: fresh-d (44, 36 kinds) 25 / 15 / 4 measured once, 33 / 9 / 2 after; comparisons5 (32, 24 kinds)
    # 21 / 8 / 3 measured once, 23 / 9 / 0 after its misses were read (in-sample since); fresh-c 47 / 16 / 1 now
    ("fresh-d", "fresh-d", 36, 0), ("comparisons5", "comparisons5", 22, 0),
    # fifth session: fresh-e (44, 44 kinds) 22 / 20 / 2 measured once, 36 / 8 / 0 after its misses were read;
    # comparisons6 (32, 32 kinds) 13 / 19 / 0 measured once, 17 / 15 / 0 after (in-sample since); fresh-d 35 / 8 / 1
    ("fresh-e", "fresh-e", 36, 0), ("comparisons6", "comparisons6", 16, 0),
    # sixth session: fresh-f (44, 44 kinds) 24 / 19 / 1 measured once, 37 / 7 / 0 after its misses were read;
    # comparisons7 (32, 30 kinds) 17 / 11 / 4 measured once, 22 / 10 / 0 after (in-sample since); fresh-e 38 / 6 / 0,
    # fresh-d 36 / 8 / 0 ("is there any …" a yes or no)
    ("fresh-f", "fresh-f", 35, 0), ("comparisons7", "comparisons7", 21, 0),
    # seventh session: fresh-g (60, 60 kinds) 25 / 31 / 4 measured once, 39 / 21 / 0 after its misses were read;
    # comparisons8 (47, 37 kinds) 13 / 29 / 5 measured once, 17 / 30 / 0 after (in-sample since); fresh-d 38 / 6 / 0
    ("fresh-g", "fresh-g", 43, 0), ("comparisons8", "comparisons8", 15, 0),
    # eighth session: fresh-h (60, 60 kinds) 23 / 35 / 2 measured once, 48 / 12 / 0 after its misses were read;
    # comparisons9 (50, 50 kinds) 13 / 32 / 5 measured once, 22 / 28 / 0 after (in-sample since); fresh-g 46 / 14 / 0
    ("fresh-h", "fresh-h", 45, 0), ("comparisons9", "comparisons9", 20, 0),
    # ninth session: fresh-i (60, 60 kinds) 22 / 35 / 3 measured once, 38 / 21 / 1 after its misses were read;
    # comparisons10 (50, 50 kinds) 17 / 30 / 3 measured once, 24 / 26 / 0 after (in-sample since)
    ("fresh-i", "fresh-i", 35, 1), ("comparisons10", "comparisons10", 22, 0),
    # tenth session: fresh-j (60, 60 kinds) 35 / 19 / 6 measured once, 49 / 5 / 6 after its misses were read (the six:
    # a score beside the model the question did not ask for, 'no' for an empty list: kept as scored); comparisons11
    # (50, 50 kinds) 29 / 19 / 2 measured once, 36 / 14 / 0 after (in-sample since)
    ("fresh-j", "fresh-j", 44, 6), ("comparisons11", "comparisons11", 34, 0),
    # eleventh session: fresh-k (60, 60 kinds) 39 / 19 / 2 measured once, 56 / 4 / 0 after its misses were read;
    # comparisons12 (50, 49 kinds) 25 / 22 / 3 measured once, 34 / 16 / 0 after (in-sample since); comparisons8
    # 21 / 26 / 0, comparisons9 25 / 25 / 0 now
    ("fresh-k", "fresh-k", 53, 0), ("comparisons12", "comparisons12", 32, 0),
    # twelfth session: fresh-l (60, 60 kinds) 32 / 26 / 2 measured once, 37 / 23 / 0 after its misses were read;
    # comparisons13 (50, 50 kinds) 25 / 19 / 6 measured once, 34 / 15 / 1 after (in-sample since; the one wrong: the
    # contributions asked with their values are shown with their papers too, which its gold leaves out: right since
    # the fourteenth session's grading of columns shown beside those asked, 35 / 15 / 0)
    ("fresh-l", "fresh-l", 41, 0), ("comparisons13", "comparisons13", 38, 0),
    # and two more at the session's end, measured once at `118ebe1`: fresh-m (50, 50 kinds) 34 / 16 / 0;
    # comparisons14 (40, 40 kinds) 23 / 16 / 1; read in the thirteenth session (in-sample since): 48 / 2 / 0 and
    # 30 / 9 / 1 (the one wrong: 'the avg cost per test' read per the property 'Test'); fresh-l 44 / 16 / 0 then
    ("fresh-m", "fresh-m", 46, 0), ("comparisons14", "comparisons14", 28, 1),
    # thirteenth session: fresh-n (50, 50 kinds) 30 / 17 / 3 measured once at `8104312`, 31 / 17 / 2 after (in-sample:
    # 'ppl' for perplexity, the score beside the holders of a record); comparisons15 (40, 40 kinds) 21 / 17 / 2 once,
    # 22 / 17 / 1 after (the aquaporin paper's year: every paper's); fresh-n 33 / 16 / 1 in the fourteenth
    ("fresh-n", "fresh-n", 31, 1), ("comparisons15", "comparisons15", 25, 0),
    # fourteenth session: fresh-o (50, 50 kinds) 37 / 10 / 3 measured once at `d4716f3`, 48 / 2 / 0 after its misses
    # were read; comparisons16 (40, 40 kinds) 22 / 14 / 4 once, 28 / 12 / 0 after (in-sample since)
    ("fresh-o", "fresh-o", 45, 0), ("comparisons16", "comparisons16", 30, 0),
    # and fresh-p (50, 50 kinds) 37 / 12 / 1 measured once at `1b97663`, 44 / 6 / 0 after its misses were read;
    # comparisons17 (40, 40 kinds) 21 / 18 / 1 once, 30 / 10 / 0 after (in-sample since)
    ("fresh-p", "fresh-p", 42, 0), ("comparisons17", "comparisons17", 33, 0),
    # and at the session's end fresh-q (50, 50 kinds) 35 / 11 / 4 measured once at `b1102c7`, 41 / 9 / 0 after its
    # misses were read; comparisons18 (40, 40 kinds) 30 / 9 / 1 once, 34 / 6 / 0 after (in-sample since)
    ("fresh-q", "fresh-q", 39, 0), ("comparisons18", "comparisons18", 35, 0),
    # fifteenth session, three rounds, each measured once before its misses were read (default): fresh-r (50, 50
    # kinds) 30 / 18 / 2 at `f39bdc2`, 41 / 9 / 0 after; comparisons19 (40, 40 kinds) 19 / 21 / 0 once, 32 / 8 / 0
    # after; fresh-s 33 / 17 / 0 at `032594f`, 41 / 9 / 0 after; comparisons20 31 / 9 / 0 once, 38 / 2 / 0 after;
    # fresh-t 29 / 15 / 6 at `4321480`, 32 / 15 / 3 after (the three: a model asked where the gold lists its score
    # beside it); comparisons21 20 / 15 / 5 once, 28 / 12 / 0 after (in-sample since); older sets up: comparisons13
    # 40 / 10 / 0, comparisons15 27 / 13 / 0, comparisons16 32 / 8 / 0, comparisons17 35 / 5 / 0
    ("fresh-r", "fresh-r", 39, 0), ("comparisons19", "comparisons19", 30, 0),
    ("fresh-s", "fresh-s", 39, 0), ("comparisons20", "comparisons20", 36, 0),
    ("fresh-t", "fresh-t", 30, 3), ("comparisons21", "comparisons21", 26, 0)])
def test_the_fresh_sets_over_a_graph_of_names_no_other_set_uses(env: Path, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str],
                                                                name: str, graph: str, right: int, wrong: int) -> None:
    """Two sets written without the code in view over their own graph (tests/data/eval/fresh.nt): the probe (35) was
    read while the guard was built; the held-out (36) was measured once (21 right, 14 declined, 1 wrong; 17 / 16 / 3
    before this round), then read: both in-sample now (35 / 0 / 0 and 34 / 1 / 1, the one 'wrong' the links asked
    'Is there code for X?' for, where its gold says yes). Their answers are their gold queries' on that graph."""
    assert main(["eval", "--questions", str(ROOT / "tests" / "data" / "eval" / f"{name}.json"),
                 "--generator", "adapter", "--kg", str(ROOT / "tests" / "data" / "eval" / f"{graph}.nt"),
                 "--workers", "2", "--report", str(tmp_path / "r")]) == 0
    capsys.readouterr()
    report = json.loads((tmp_path / "r" / "report.json").read_text(encoding="utf-8"))
    counts = Counter(q["verdict"] for q in report["questions"])  # the same things, IRIs shown or not
    assert counts["wrong"] <= wrong and counts["right"] >= right, counts
    # no answer from a reading that left words unplaced (a partial reading is declined, naming them)
    assert not [(q["id"], q["unplaced"]) for q in report["questions"] if q["unplaced"]]


def test_a_comparison_question_is_answered_from_its_reading_and_says_what_ran(
        env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from standins.comparison_fixture import write_comparisons

    graph = write_comparisons(tmp_path / "cmp.nt")
    out = _ask("which papers in the green roof comparison used gravel?", graph, capsys)
    assert out["flat_answer"] == ["Gravel versus grass roofs"] and out["generator"] == "intent"
    record = out["reading_record"]
    assert record["whole"] and record["asked"] == "paper" and record["scope"]["iri"] == "orkgr:R9200"
    assert out["reading"] == record["said"] and "'Roof material' = Gravel" in out["reading"]
    partial = _ask("which papers in the green roof comparison used gravel on norwegian schools?", graph, capsys)
    assert partial["sparql"] is None and partial["answer"]["rows"] == [] and partial["outcome"] == "declined"
    assert "'norwegian'" in partial["explanation"] and "norwegian" in partial["reading_record"]["unplaced"]
    negated = _ask("which papers in the green roof comparison did not use gravel?", graph, capsys)
    assert sorted(negated["flat_answer"]) == ["Cool roofs for schools", "Sedum roofs in winter"]


def test_one_reading_is_built_per_question(env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """A comparison question is read once through the pipeline (the intent step reads it; nothing reads it again)."""
    import pipeline.intent.step as step
    from pipeline.intent import writer
    from standins.comparison_fixture import write_comparisons

    built: list[str] = []
    real = writer.comparison_reading

    def counted(*args: Any, **kwargs: Any) -> Any:
        built.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(step, "comparison_reading", counted)
    monkeypatch.setattr(writer, "comparison_reading", counted)
    graph = write_comparisons(tmp_path / "cmp.nt")
    for question in ("how many soil types are in the urban tree comparison?",
                     "which papers in the green roof comparison were published after 2015?"):
        out = _ask(question, graph, capsys)
        assert out["reading_record"]["whole"] and out["outcome"] == "answered"
    assert len(built) == 2


def test_the_adapters_query_answers_only_what_its_stored_question_says(tmp_path: Path) -> None:
    """A stored pair listing one dataset's models, adapted for 'models on A that were not evaluated on b' (b typed
    loosely, so no name the guard could miss): the words the pair does not say are named and nothing is answered
    from it; the same question without them runs the adapted query."""
    from pipeline.intent.step import IntentStep
    from pipeline.kg.oxigraph import OxigraphKG
    from pipeline.records import Example, Generation, Retrieved

    kg = OxigraphKG(write_ntriples(tmp_path / "fixture.nt"), row_cap=1000)
    query = ('SELECT DISTINCT ?model_lbl WHERE {{ ?dataset a orkgc:Dataset; rdfs:label ?dataset_lbl. '
             'FILTER(str(?dataset_lbl) = "{}") ?benchmark orkgp:HAS_DATASET ?dataset. ?cont orkgp:HAS_BENCHMARK '
             '?benchmark; orkgp:HAS_MODEL ?model. ?model rdfs:label ?model_lbl. }}')
    stored = Retrieved(Example("S1", "Which models have been evaluated on the DBLP dataset?", query.format("DBLP")),
                       0.7)
    written = query.format("Tiny Objects 20")
    step = IntentStep()
    negated = step.review("which models have been evaluated on Tiny Objects 20 that were not evaluated on "
                          "zorblax quux?", Generation("adapter", written), [stored], kg).generation
    assert negated.sparql is None and "'not'" in negated.explanation and "'zorblax'" in negated.explanation
    plain = step.review("which models have been evaluated on the Tiny Objects 20 dataset?",
                        Generation("adapter", written), [stored], kg).generation
    assert plain.sparql == written


def test_a_stored_questions_metric_on_a_graph_of_comparisons_alone_is_a_property_of_them(
        env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """'accuracy' is a metric of SciQA's leaderboards; on a graph with no leaderboard it is the comparisons'
    'Accuracy' property, and the paper with the highest one is answered (its value beside)."""
    graph = ROOT / "tests" / "data" / "eval" / "comparisons11.nt"
    out = _ask("which paper has the highest accuracy", graph, capsys)
    assert out["generator"] == "intent" and out["reading_record"]["by"] == "orkgp:P18048"
    assert out["flat_answer"] == ["Transfer learning with ResNet-50 for multi-crop leaf disease classification", "99.1"]
    again = _ask("across everything, what's the highest accuracy anyone reported and in which paper?", graph, capsys)
    assert again["flat_answer"] == out["flat_answer"]


def test_a_negation_typed_in_capitals_is_read_as_one(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """'NOT' in capitals is the negation, not a name of an unknown kind the question's other words go around."""
    graph = ROOT / "tests" / "data" / "eval" / "fresh-j.nt"
    shouted = _ask("which phase picking models were NOT evaluated on INSTANCE", graph, capsys)
    plain = _ask("which phase picking models were not evaluated on INSTANCE", graph, capsys)
    assert shouted["generator"] == "intent" and shouted["flat_answer"] == plain["flat_answer"]
    every = _ask("which phase picking models were evaluated on INSTANCE", graph, capsys)
    assert not set(shouted["flat_answer"]) & set(every["flat_answer"])
