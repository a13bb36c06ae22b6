"""Looking a question's names up in the graph, to compose a query for an ask the stored pairs lack."""
from __future__ import annotations

from pathlib import Path

from pipeline.errors import NotInSnapshot
from pipeline.intent.named import graph_kinds, resolve
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.names.index import LabelIndex
from standins.fakes import RecordingKG

ORKG, RDF = "http://orkg.org/orkg/", "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
THINGS = [("R1", "Problem", "Relation Extraction"), ("R2", "Problem", "relation extraction"),
          ("R3", "Dataset", "SQuAD1.1"), ("R4", "Model", "DrQA"), ("R5", "Model", "Transformer")]
GRAPH = "".join(f'<{ORKG}resource/{rid}> <{RDF}> <{ORKG}class/{kind}> .\n<{ORKG}resource/{rid}> <{LABEL}> "{label}" .\n'
                for rid, kind, label in THINGS)


def kg(tmp_path: Path) -> OxigraphKG:
    path = tmp_path / "g.nt"
    path.write_text(GRAPH, encoding="utf-8")
    return OxigraphKG(path, row_cap=1000)


def test_of_two_labels_equal_but_for_case_the_one_typed_is_taken(tmp_path: Path) -> None:
    graph = kg(tmp_path)
    for typed in ("Relation Extraction", "relation extraction"):
        found = graph_kinds(["relation extraction"], graph, loose=True, spelled={"relation extraction": typed})
        assert found == {"relation extraction": (typed, {"problem"})}
    names = resolve("What is the research field of the Relation Extraction problem?", graph, frozenset({"problem"}))
    assert [(n.label, set(n.kinds)) for n in names] == [("Relation Extraction", {"problem"})]


def test_a_name_typed_with_other_spacing_is_found_through_the_label_index(tmp_path: Path) -> None:
    graph = kg(tmp_path)
    text = "which research problems is squad 1.1 used for?"
    assert resolve(text, graph, frozenset()) == []  # the graph's own case-insensitive lookup misses it
    index = LabelIndex([("SQuAD1.1", "dataset"), ("Relation Extraction", "problem")], threshold=85.0)
    names = resolve(text, graph, frozenset(), index)
    assert [(text[n.start:n.end], n.label, set(n.kinds)) for n in names] == [("squad 1.1", "SQuAD1.1", {"dataset"})]


def test_a_close_spelling_is_not_enough_to_compose_with(tmp_path: Path) -> None:
    index = LabelIndex([("SQuAD1.1", "dataset")], threshold=85.0)
    assert resolve("which problems is squadd 1.1 used for?", kg(tmp_path), frozenset(), index) == []


def test_a_graph_that_cannot_name_its_labels_gets_nothing_composed() -> None:
    index = LabelIndex([("SQuAD1.1", "dataset")], threshold=85.0)
    text = "which research problems is squad 1.1 used for?"
    assert resolve(text, RecordingKG(error=NotInSnapshot("not in snapshot")), frozenset(), index) == []


def test_a_pair_that_returns_what_the_question_does_not_ask_for_is_never_composed(tmp_path: Path) -> None:
    """'the best score on SQuAD1.1' is not 'the research problems of SQuAD1.1' (a confident answer to another
    question); 'which research problems ...' is."""
    from pipeline.intent.compose import Composer
    from pipeline.intent.pairs import intent_pairs
    from pipeline.intent.reading import asked_kinds, read_intent

    graph, composer = kg(tmp_path), Composer(intent_pairs)

    def composed(text: str) -> str | None:
        at = text.index("SQuAD1.1")
        done = composer.compose(text, read_intent(text), graph, frozenset(), asked_kinds(text, [(at, at + 8)]))
        return done.sparql if done else None

    for other in ("What is the best score on SQuAD1.1?", "Which datasets are used for SQuAD1.1?",
                  "most common metric on SQuAD1.1"):
        assert composed(other) is None, other
    asked = composed("Which research problems is SQuAD1.1 used for?")
    assert asked is not None and "orkgp:P32" in asked and '"SQuAD1.1"' in asked


def test_a_metric_abbreviated_is_a_name_the_question_is_composed_with(tmp_path: Path) -> None:
    metric = ("R6", "Metric", "Word Error Rate")
    path = tmp_path / "g.nt"
    path.write_text(GRAPH + "".join(f'<{ORKG}resource/{rid}> <{RDF}> <{ORKG}class/{kind}> .\n'
                                    f'<{ORKG}resource/{rid}> <{LABEL}> "{label}" .\n' for rid, kind, label in [metric]),
                    encoding="utf-8")
    graph = OxigraphKG(path, row_cap=1000)
    index = LabelIndex([(label, kind.lower()) for _, kind, label in [*THINGS, metric]], threshold=85.0)
    names = resolve("what wer does drqa get on squad1.1?", graph, frozenset(), index)
    assert [(n.label, set(n.kinds)) for n in names] == [("Word Error Rate", {"metric"}), ("DrQA", {"model"}),
                                                        ("SQuAD1.1", {"dataset"})]


def test_the_same_thing_named_twice_fills_one_slot() -> None:
    """'fastest on X (inference latency) and what's its latency': the metric named twice is one slot's; two names
    over the same words (two readings of them) are not."""
    from pipeline.intent.compose import assign
    from pipeline.intent.named import Name
    from pipeline.matching.forms import Form

    form = Form(("best on ", " by ", "?"), ("dataset", "metric"), "")
    dataset = Name(0, 5, "TeaLeaf", frozenset({"dataset"}))
    latency, again = (Name(a, a + 7, "Inference Latency (ms)", frozenset({"metric"})) for a in (10, 40))
    assert assign(form, [dataset, latency, again]) == [dataset, latency]
    overlapping = Name(12, 19, "Inference Latency (ms)", frozenset({"metric"}))
    assert assign(form, [dataset, latency, overlapping]) is None


def test_a_sign_after_a_name_loosely_typed_is_no_part_of_it(tmp_path: Path) -> None:
    graph = kg(tmp_path)
    text = "top model on squad 1.1 for rouge-l + its score"
    index = LabelIndex([("SQuAD1.1", "dataset"), ("ROUGE-L", "metric")], threshold=85.0)
    names = resolve(text, graph, frozenset(), index)
    assert [text[n.start:n.end] for n in names] == ["squad 1.1", "rouge-l"]


def test_the_things_to_show_listed_last_are_each_asked() -> None:
    from pipeline.intent.asked import shown_kinds

    assert shown_kinds("for each dataset whats the best X model? dataset + model") == {"dataset", "model"}
    assert shown_kinds("the lowest X and which model? (dataset, model, X)") == {"dataset", "model"}
    assert shown_kinds("best model on X") == frozenset() and shown_kinds("papers on X and models") == frozenset()


def test_lower_said_better_by_the_question_itself() -> None:
    from pipeline.intent.ranked import better_said

    assert better_said("best error rate on X (lower is better)") is True
    assert better_said("best error rate on X") is None and better_said("higher is better on X") is False


def test_lower_is_better_ranks_nothing_of_its_own() -> None:
    """'how many models beat X's rmse (lower = better)' counts those beating X: no 'best' asked by 'better'."""
    from pipeline.intent.ranked import directed
    from pipeline.intent.reading import read_intent

    text = "how many models beat X's X on X? (lower is better)"
    assert directed(read_intent(text), text, True).operators == {"count"}
    both = "the gap between the best and the worst X on X"  # both ends, whichever way is better
    assert directed(read_intent(both), both, True) == directed(read_intent(both), both, False)
    assert directed(read_intent(both), both, True).operators == {"lowest"}
    said_best = "best X on X (lower is better)"
    assert "lowest" in directed(read_intent(said_best), said_best, True).operators


def test_the_lowest_for_each_group_answers_no_lowest_of_all() -> None:
    """'the smallest X in the whole kg (any dataset)' is one, not each dataset's; 'mean X per dataset' is grouped."""
    from pipeline.intent.ranked import fits
    from pipeline.intent.reading import read_intent

    grouped = "SELECT ?d (MIN(?s) AS ?lowest) WHERE { ?b orkgp:HAS_DATASET ?d; orkgp:HAS_VALUE ?s } GROUP BY ?d"
    each = read_intent("What is the lowest X for each dataset?")
    from pipeline.intent.ranked import PER_GROUP

    overall = "smallest X reported in the whole kg (any dataset)?"
    assert not fits(each, read_intent(overall), grouped, PER_GROUP.search(overall) is not None)
    assert fits(each, read_intent("lowest X for every dataset"), grouped)
    per = "lowest error rate per dataset pls"  # one for each group asked, in other words than 'each'
    assert fits(each, read_intent(per), grouped, PER_GROUP.search(per) is not None)
