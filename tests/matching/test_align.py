"""Slots of a stored question, its exact wording as a pattern, and the tolerant alignment for everything else."""
from __future__ import annotations

import pytest

from pipeline.matching.align import align_form, norm_label, pattern_spans, pieces_of, slots

STORED = "Which model has achieved the highest Score score on the Atari 2600 Defender benchmark dataset?"
SPARQL = ('SELECT ?m WHERE { ?metric rdfs:label ?ml. FILTER (str(?ml) = "Score") '
          '?d rdfs:label ?dl. FILTER (str(?dl) = "Atari 2600 Defender") }')
GENERIC = frozenset({"benchmark", "dataset", "score", "model", "the"})


def pieces() -> list[str]:
    return pieces_of(STORED, slots(STORED, SPARQL))


def test_slots_are_the_literals_the_question_holds_in_question_order() -> None:
    found = slots(STORED, SPARQL)
    assert [(s.literal, STORED[s.start:s.end]) for s in found] == [("Score", "Score"),
                                                                   ("Atari 2600 Defender", "Atari 2600 Defender")]


def test_slots_need_whole_words() -> None:
    query = 'SELECT ?v { FILTER(REGEX(?x, "etanin", "i")) }'
    assert slots("Which vegetables are utilized for betanin extraction?", query) == []


def test_exact_wording_gives_the_new_labels() -> None:
    q = "Which model has achieved the highest F1 score on the SQuAD1.1 benchmark dataset?"
    found = slots(STORED, SPARQL)
    spans = pattern_spans(pieces_of(STORED, found), q)
    assert spans and [q[a:b] for a, b in spans] == ["F1", "SQuAD1.1"]
    assert [s.literal for s in found] == ["Score", "Atari 2600 Defender"]


def test_exact_wording_tolerates_case_blanks_and_a_missing_question_mark() -> None:
    q = "which model has achieved the  highest F1 score on the   SQuAD1.1 benchmark dataset"
    spans = pattern_spans(pieces(), q)
    assert spans is not None and [q[a:b] for a, b in spans] == ["F1", "SQuAD1.1"]


def test_a_label_keeps_punctuation_inside_the_question() -> None:
    q = "Which model has achieved the highest Score score on the Atari 2600 Pitfall! benchmark dataset?"
    spans = pattern_spans(pieces(), q)
    assert spans is not None and q[spans[1][0]:spans[1][1]] == "Atari 2600 Pitfall!"


def test_other_wording_is_no_pattern_match() -> None:
    assert pattern_spans(pieces(), "Which model is best on SQuAD1.1 for F1?") is None


def test_alignment_reads_through_typos_and_a_greeting() -> None:
    q = "hey, quick one: which modle has achievd the highest Accuracy score on the Story Cloze Test benchmark dataset"
    al = align_form(pieces(), q, GENERIC)
    assert [q[s[0]:s[1]] if s else None for s in al.spans] == ["Accuracy", "Story Cloze Test"]
    assert al.score > 0.8
    assert ("achieved", "achievd") in al.typos


def test_alignment_score_falls_with_rewording_and_a_missing_slot_is_none() -> None:
    exact = align_form(pieces(), "Which model has achieved the highest F1 score on the SQuAD benchmark dataset?")
    loose = align_form(pieces(), "who leads on SQuAD for F1?")
    assert exact.score == pytest.approx(1.0)
    assert loose.score < 0.5
    assert align_form(["What is ", "?"], "").spans == (None,)


def test_a_slot_does_not_run_past_the_end_of_a_sentence() -> None:
    al = align_form(["What models are being evaluated on the ", " dataset?"],
                    "What models are being evaluated on the RACE dataset? thanks!")
    assert al.spans[0] is not None


def test_a_trailing_class_word_repeated_by_the_question_stays_in_the_label() -> None:
    q = "What is the top benchmark scote and its metric on the SemEval-2018 Task 7 dataset dataset"
    al = align_form(["What is the top benchmark score and its metric on the ", " dataset?"], q, GENERIC)
    assert al.spans[0] is not None and q[al.spans[0][0]:al.spans[0][1]] == "SemEval-2018 Task 7 dataset"


def test_norm_label_collapses_blanks() -> None:
    assert norm_label('  "Story   Cloze Test"? ') == "Story Cloze Test"
