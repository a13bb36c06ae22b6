"""The offline adapter: fill the best example's labels from the question, however it was typed, or decline."""
from __future__ import annotations

import pytest

from pipeline.generators.adapter import AdapterGenerator, clean_label
from pipeline.records import Example, Retrieved
from pipeline.sparql.text import string_literals
from pipeline.store.retrieval import Knowledge, build_knowledge
from standins.fakes import HashEncoder
from tests.matching.test_forms import T01, T05

BEST = Example("t5", "Which model has achieved the highest Score score on the Atari 2600 Defender benchmark dataset?",
               T05.format(m="Score", d="Atari 2600 Defender"), "T05")
MODELS = Example("t1", "What models are being evaluated on the RACE dataset?", T01.format(d="RACE"), "T01")
JACQUARD = Example("t1j", "What models are being evaluated on the  Jacquard dataset dataset?",
                   T01.format(d=" Jacquard dataset"), "T01")
STORY = Example("t1s", "What models are being evaluated on the Story Cloze Test dataset?",
                T01.format(d="Story Cloze Test"), "T01")
BEST2 = Example("t5b", "Which model has achieved the highest F1 score on the CoNLL04 benchmark dataset?",
                T05.format(m="F1", d="CoNLL04"), "T05")
NO_LABELS = Example("hq", "What is the most common drug in the studies?",
                    "SELECT ?drug WHERE { orkgr:R1 orkgp:compareContribution ?c. ?c orkgp:P2 ?drug. }", "HQ")


def knowledge() -> Knowledge:
    return build_knowledge([BEST, BEST2, MODELS, JACQUARD, STORY, NO_LABELS], HashEncoder())


def adapt(question: str, *examples: Example, score: float = 0.9) -> tuple[list[str], tuple[str, ...], str]:
    know = knowledge()
    g = AdapterGenerator(0.5, lambda: know).generate(question, [Retrieved(e, score) for e in examples])
    return (string_literals(g.sparql) if g.sparql else []), g.notes, g.explanation


def test_exact_wording_fills_both_labels() -> None:
    labels, notes, _ = adapt("Which model has achieved the highest F1 score on the SQuAD1.1 benchmark dataset?", BEST)
    assert labels == ["F1", "SQuAD1.1"]
    assert "matched the wording of t5" in notes[0]


@pytest.mark.parametrize("typed", [
    "<@U0KGQABOT> which model has achieved the highest F1 score on the SQuAD1.1 benchmark dataset",
    "hey, quick one: Which model has achieved the highest F1 score on the  SQuAD1.1  benchmark dataset? thanks!",
    "Which modle has acheived the higest F1 score on the SQuAD1.1 benchmark datset",
    "@kgqa which model has achieved the highest F1 score on SQuAD1.1 benchmark dataset please",
])
def test_slack_style_questions_fill_the_same_labels(typed: str) -> None:
    labels, notes, _ = adapt(typed, BEST)
    assert labels == ["F1", "SQuAD1.1"], notes


def test_typos_are_said() -> None:
    _, notes, _ = adapt("Which model has acheived the highest F1 score on the SQuAD1.1 benchmark dataset?", BEST)
    assert "'acheived' as 'achieved'" in notes[0]


def test_a_reworded_question_fills_labels_by_kind() -> None:
    labels, notes, _ = adapt("who leads on Story Cloze Test for Score?", BEST)
    assert labels == ["Score", "Story Cloze Test"]
    assert "kinds" in notes[0]


def test_the_users_casing_stays_and_an_all_lowercase_label_takes_the_stored_casing() -> None:
    assert adapt("What models are being evaluated on the sQuAD dataset?", MODELS)[0] == ["sQuAD"]
    labels, notes, _ = adapt("what models are being evaluated on the story cloze test dataset", MODELS)
    assert labels == ["Story Cloze Test"] and any("as the stored queries spell it" in n for n in notes)


def test_blanks_are_normalised_unless_the_store_spells_the_label_with_them() -> None:
    assert adapt("What models are being evaluated on the  Penn   Treebank dataset?", MODELS)[0] == ["Penn Treebank"]
    assert adapt("What models are being evaluated on the Jacquard dataset dataset?", MODELS)[0] == [" Jacquard dataset"]


def test_a_class_word_the_question_adds_is_not_part_of_the_label() -> None:
    # 'benchmark' is a word of a form two stored pairs share: a class word, not a name
    assert adapt("hey what models are being evaluated on the RotoWire benchmark dataset", MODELS)[0] == ["RotoWire"]


def test_a_query_without_labels_is_reused_only_for_the_same_question() -> None:
    _labels, notes, _ = adapt("what is the most common drug in the studies", NO_LABELS)
    assert "reused the query of hq" in notes[0]
    _, _, why = adapt("What is the capital of France?", NO_LABELS)
    assert "asks something else" in why


def test_it_declines_below_the_threshold_as_off_topic() -> None:
    g = AdapterGenerator(0.5, lambda: knowledge()).generate("What's the weather in Hannover tomorrow?",
                                                          [Retrieved(MODELS, 0.3), Retrieved(BEST, 0.3)])
    assert g.sparql is None and g.off_topic and "close enough" in g.explanation and "below 0.50" in g.explanation
    assert MODELS.question not in g.explanation  # unrelated near matches: the reply lists none
    near = AdapterGenerator(0.5, lambda: knowledge()).generate("What is the capital of France?",
                                                             [Retrieved(NO_LABELS, 0.9)])
    assert near.sparql is None and not near.off_topic  # close to a stored question: declined, not off-topic


def test_without_knowledge_the_examples_are_the_vocabulary() -> None:
    g = AdapterGenerator(0.5).generate("what models are being evaluated on the race dataset",
                                       [Retrieved(MODELS, 0.9)])
    assert g.sparql is not None and string_literals(g.sparql) == ["RACE"]


def test_clean_label_keeps_a_class_word_the_question_repeats() -> None:
    know = knowledge()
    assert clean_label("SemEval-2018 Task 7 dataset", know.labels, know.generic, after="dataset")[0] \
        == "SemEval-2018 Task 7 dataset"
    assert clean_label("the SemEval-2018 Task 7 dataset", know.labels, know.generic, after="?")[0] \
        == "SemEval-2018 Task 7"
    assert clean_label("STS Benchmark", know.labels, know.generic)[0] == "STS Benchmark"


def test_a_stored_pair_whose_query_does_not_parse_is_never_adapted() -> None:
    broken = Example("hq2", "What models are being evaluated on the RACE dataset?",
                     T01.format(d="RACE").replace("?model ?model_lbl", "?model, ?model_lbl"), "HQ")
    assert "?model," in broken.sparql
    labels, notes, _ = adapt("What models are being evaluated on the SQuAD1.1 dataset?", broken, MODELS)
    assert labels == ["SQuAD1.1"] and "t1" in notes[0] and "hq2" not in notes[0]
    labels, _, why = adapt("What models are being evaluated on the SQuAD1.1 dataset?", broken)
    assert labels == [] and "do not parse" in why
