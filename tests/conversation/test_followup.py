"""Follow-ups made standalone from the thread's earlier question and names; standalone questions left alone."""
from __future__ import annotations

from typing import Any

from pipeline.conversation.followup import read_in_thread
from pipeline.names.index import LabelIndex

INDEX = LabelIndex([("SQuAD1.1", "dataset"), ("SQuAD2.0", "dataset"), ("F1", "metric"), ("Exact Match", "metric"),
                    ("BERT-Large", "model"), ("BERT-Base", "model"), ("Question Answering", "problem"),
                    ("Image Classification", "problem")], threshold=85.0)


def turn(question: str, *names: tuple[str, str]) -> dict[str, Any]:
    return {"question": question, "names": [{"kind": k, "label": n, "typed": n} for n, k in names]}


BEST = turn("Which model has achieved the highest F1 score on the SQuAD1.1 benchmark dataset?",
            ("F1", "metric"), ("SQuAD1.1", "dataset"))
CODE = turn("List the code links in papers that use the BERT-Base model in any benchmark?", ("BERT-Base", "model"))


def test_same_template_follow_ups_change_the_name_of_their_kind() -> None:
    cases = {"and on SQuAD2.0?": "Which model has achieved the highest F1 score on the SQuAD2.0 benchmark dataset?",
             "what about Exact Match?": "Which model has achieved the highest Exact Match score on the SQuAD1.1 "
                                        "benchmark dataset?",
             "And by exact match?": "Which model has achieved the highest exact match score on the SQuAD1.1 "
                                    "benchmark dataset?"}
    for follow_up, standalone in cases.items():
        reading = read_in_thread(follow_up, [BEST], INDEX)
        assert (reading.question, reading.rewritten) == (standalone, True), follow_up
    same = read_in_thread("same for BERT-Large", [CODE], INDEX)
    assert same.question == "List the code links in papers that use the BERT-Large model in any benchmark?"


def test_without_a_label_index_the_preposition_says_the_kind() -> None:
    assert read_in_thread("and on NewQA?", [BEST]).question.endswith("on the NewQA benchmark dataset?")
    assert "highest Recall score" in read_in_thread("what about by Recall?", [BEST]).question


def test_references_become_the_last_named_entity() -> None:
    assert read_in_thread("which metrics are used there?", [BEST], INDEX).question == \
        "Which metrics are used on the SQuAD1.1 dataset?"
    assert read_in_thread("and which papers benchmark it?", [BEST], INDEX).question == \
        "Which papers benchmark the SQuAD1.1 dataset?"
    models = turn("Which models have been evaluated on SQuAD2.0?", ("SQuAD2.0", "dataset"))
    assert read_in_thread("which of them is best by Accuracy?", [models], INDEX).question == \
        "Which model is best by Accuracy on the SQuAD2.0 dataset?"


def test_the_latest_turn_with_names_is_the_one_followed() -> None:
    older = turn("Which models have been evaluated on SQuAD2.0?", ("SQuAD2.0", "dataset"))
    assert "SQuAD1.1" in read_in_thread("which metrics are used there?", [older, BEST], INDEX).question


def test_questions_that_stand_on_their_own_are_not_rewritten() -> None:
    for question in ("Which model has achieved the highest Accuracy score on the Story Cloze Test benchmark dataset?",
                     "Is there a paper on Question Answering?", "What are the models evaluated on SQuAD2.0?",
                     "and", "what about", "hello there, what is the best model on SQuAD2.0?"):
        reading = read_in_thread(question, [BEST], INDEX)
        assert (reading.question, reading.rewritten) == (question, False), question


def test_a_follow_up_with_no_earlier_turn_is_a_fresh_question() -> None:
    for question in ("and on SQuAD2.0?", "which metrics are used there?"):
        assert read_in_thread(question, [], INDEX).rewritten is False
    assert read_in_thread("and on SQuAD2.0?", [{"question": "hi", "names": []}], INDEX).rewritten is False


def test_no_sciqa_valid_or_test_question_is_rewritten(sciqa: Any) -> None:
    from pipeline.kg.snapshot import SnapshotKG
    from pipeline.names.sources import LabelSource

    graph = LabelSource(SnapshotKG(sciqa.all()), None, ttl=604800.0, page=1000).index()
    questions = [r.question for r in sciqa.split("valid") + sciqa.split("test")]
    rewritten = [q for q in questions for index in (graph, None) for earlier in (BEST, CODE)
                 if read_in_thread(q, [earlier], index).rewritten]
    assert len(questions) == 770 and rewritten == []


def test_a_reference_naming_a_kind_is_the_last_name_of_that_kind() -> None:
    metrics = turn("Which metrics are used on SQuAD2.0?", ("SQuAD2.0", "dataset"))
    assert read_in_thread("List all the models on the dataset?", [metrics], INDEX).question == \
        "List all the models on the SQuAD2.0 dataset?"
    both = turn("What is the F1 of BERT-Large on SQuAD1.1?", ("BERT-Large", "model"), ("SQuAD1.1", "dataset"))
    assert read_in_thread("which paper introduced that model?", [both], INDEX).question == \
        "Which paper introduced the BERT-Large model?"
    assert read_in_thread("which paper introduced that model?", [metrics], INDEX).rewritten is False
    assert read_in_thread("Indicate the model that performed best on SQuAD2.0?", [both], INDEX).rewritten is False
    assert read_in_thread("what metrics does that dataset use?", [metrics], INDEX).question == \
        "What metrics does the SQuAD2.0 dataset use?"


def test_which_one_after_a_list_asks_for_the_best_of_it() -> None:
    models = turn("Which models have been evaluated on SQuAD2.0?", ("SQuAD2.0", "dataset"))
    assert read_in_thread("which one scores best on F1?", [models], INDEX).question == \
        "Which model scores best on F1 on the SQuAD2.0 dataset?"


def test_a_bare_kind_asks_for_those_things_of_the_last_name() -> None:
    models = turn("Which models have been evaluated on SQuAD2.0?", ("SQuAD2.0", "dataset"))
    cases = {"And the metrics?": "Which metrics are used on the SQuAD2.0 dataset?",
             "and its papers?": "Which papers include a benchmark on the SQuAD2.0 dataset?",
             "what about the models?": "Which models have been evaluated on the SQuAD2.0 dataset?"}
    for follow_up, standalone in cases.items():
        assert read_in_thread(follow_up, [models], INDEX).question == standalone, follow_up
    assert read_in_thread("and the code?", [CODE], INDEX).question == "Where can I find code for the BERT-Base model?"
    unchanged = read_in_thread("and the datasets?", [models], INDEX)  # nothing says which datasets of a dataset
    assert (unchanged.question, unchanged.rewritten) == ("and the datasets?", False)
