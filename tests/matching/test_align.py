"""Slots of a stored question, its exact wording as a pattern, and the tolerant alignment for everything else."""
from __future__ import annotations

import math

import pytest

from pipeline.matching.align import (
    EDGE,
    GENERIC_IN_SLOT,
    MISSING_SLOT,
    Alignment,
    _clip,
    _Word,
    _words,
    align_form,
    norm_label,
    pattern_spans,
    pieces_of,
    slots,
)
from pipeline.matching.wording import word_sim

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


FORMS = [pieces(), ["What is ", "?"], ["What models are being evaluated on the ", " dataset?"], ["List the metrics."],
         ["", " and ", ""], ["Where did ", " publish ", " in ", "?"], ["What is the top benchmark score and its metric "
                                                                         "on the ", " dataset?"],
         ["Which energy system modeling papers indicate where to find their simulation software and whether there are "
          "associated simulation scenarios mentioned in ORKG?"]]
QUESTIONS = ["", "?", "Which model has achieved the highest F1 score on the SQuAD benchmark dataset?",
             "hey, quick one: which modle has achievd the highest Accuracy score on the Story Cloze Test benchmark",
             "What models are being evaluated on the RACE dataset? thanks! the the dataset", "list teh metrics",
             "What is the top benchmark scote and its metric on the SemEval-2018 Task 7 dataset dataset",
             "Where did Yann LeCun publish papers in 1998? And what is CoNLL?", "BERT and GPT-2", "what is what is",
             "Models evaluated on ImageNet dataset dataset, which ones?", "WHICH MODEL HAS THE HIGHEST SCORE?",
             "Provide a list of research paper titles and IDs that have benchmarked models on the SciERC dataset?"]


@pytest.mark.parametrize("form", FORMS)
def test_alignment_is_the_plain_dynamic_programme(form: list[str]) -> None:
    for q in QUESTIONS:
        for generic in (GENERIC, frozenset()):
            fast, plain = align_form(form, q, generic), _plain_align(form, q, generic)
            assert fast == plain and fast.score.hex() == plain.score.hex()


def _plain_align(pieces: list[str], question: str, generic: frozenset[str]) -> Alignment:
    """The alignment as first written: every cell's choice kept, then read back."""
    items: list[_Word | None] = []
    for n, piece in enumerate(pieces):
        items += [w for w in _words(piece, frozenset()) if w.norm]
        if n < len(pieces) - 1:
            items.append(None)
    words = _words(question, generic)
    m, n = len(items), len(words)
    a = [[math.inf] * (n + 1) for _ in range(m + 1)]
    s = [[math.inf] * (n + 1) for _ in range(m + 1)]
    pa: list[list[tuple[str, float]]] = [[("", 0.0)] * (n + 1) for _ in range(m + 1)]
    ps = [[""] * (n + 1) for _ in range(m + 1)]
    a[0][0] = 0.0
    for i in range(m + 1):
        item = items[i - 1] if i else None
        for j in range(n + 1):
            best, how = a[i][j], pa[i][j]
            if j and a[i][j - 1] + words[j - 1].weight * (EDGE if i in (0, m) else 1.0) < best:
                best, how = a[i][j - 1] + words[j - 1].weight * (EDGE if i in (0, m) else 1.0), ("ins", 0.0)
            if i and item is not None:
                if a[i - 1][j] + item.weight < best:
                    best, how = a[i - 1][j] + item.weight, ("del", 0.0)
                sim = word_sim(item.norm, words[j - 1].norm) if j else 0.0
                if sim and a[i - 1][j - 1] + (1 - sim) * (item.weight + words[j - 1].weight) < best:
                    best, how = a[i - 1][j - 1] + (1 - sim) * (item.weight + words[j - 1].weight), ("match", sim)
            elif i:
                if s[i - 1][j] < best:
                    best, how = s[i - 1][j], ("close", 0.0)
                if a[i - 1][j] + MISSING_SLOT < best:
                    best, how = a[i - 1][j] + MISSING_SLOT, ("miss", 0.0)
            a[i][j], pa[i][j] = best, how
        if i < m and items[i] is None:
            for j in range(1, n + 1):
                absorb = words[j - 1].weight * GENERIC_IN_SLOT if words[j - 1].generic else 0.0
                s[i][j], ps[i][j] = a[i][j - 1] + absorb, "open"
                if j > 1 and not words[j - 2].final and s[i][j - 1] + absorb < s[i][j]:
                    s[i][j], ps[i][j] = s[i][j - 1] + absorb, "ext"
    i, j = m, n
    matched = matched_q = outside = 0.0
    typos, spans = [], {}
    while i or j:
        how, sim = pa[i][j]
        if how == "ins":
            outside += words[j - 1].weight * (EDGE if i in (0, m) else 1.0)
            j -= 1
        elif how == "match":
            item = items[i - 1]
            assert item is not None
            matched += sim * (item.weight + words[j - 1].weight)
            matched_q += words[j - 1].weight
            if sim < 1:
                typos.append((item.norm, words[j - 1].norm))
            i, j = i - 1, j - 1
        elif how in ("del", "miss"):
            i -= 1
        else:
            assert how == "close"
            end = j
            while ps[i - 1][j] == "ext":
                j -= 1
            spans[i - 1] = (words[j - 1].start, words[end - 1].end)
            i, j = i - 1, j - 1
    slot_ids = [k for k, w in enumerate(items) if w is None]
    total = sum(w.weight for w in items if w is not None) + matched_q + outside
    score = (matched / total if total else 1.0) * (sum(k in spans for k in slot_ids) / len(slot_ids) if slot_ids
                                                    else 1.0)
    return Alignment(tuple(_clip(question, spans.get(k)) for k in slot_ids), score, tuple(reversed(typos)))
