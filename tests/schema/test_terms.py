"""What the stored pairs say a name means: the variable phrases next to it and the questions asked of it."""
from __future__ import annotations

from pipeline.records import Example
from pipeline.schema.terms import TermKind, content_words, phrase, read_pairs, spelled

ENERGY = Example("HQ1", "What is the average energy generation of all energy sources considered?",
                 "SELECT (AVG(?v) AS ?avg) WHERE { orkgr:R153801 orkgp:compareContribution ?contrib. "
                 "?contrib orkgp:P43135 ?energy_sources. ?energy_sources rdfs:label ?energy_sources_labels; "
                 "orkgp:P43134 ?electricity_generation. ?papers a orkgc:Paper. }", "HQ")


def test_a_variable_name_is_read_as_words_and_bland_ones_say_nothing() -> None:
    assert phrase("?energy_sources_labels") == "energy sources"
    assert phrase("?researchField") == "research field"
    assert phrase("?contrib2") == "" and phrase("?label") == "" and phrase("?x") == ""


def test_a_spelled_out_name_is_its_words_and_a_numbered_one_none() -> None:
    assert spelled("orkgp:HAS_SOURCE_CODE") == "has source code" and spelled("orkgc:ResearchField") == "research field"
    assert spelled("orkgp:P32") == "" and spelled("orkgr:R153801") == ""


def test_the_pairs_give_each_name_its_phrases_and_questions() -> None:
    terms = read_pairs([ENERGY])
    assert terms["orkgp:P43135"].meaning() == "energy sources"
    assert terms["orkgp:P43134"].meaning() == "electricity generation"
    assert terms["orkgr:R153801"].kind is TermKind.COMPARISON and terms["orkgr:R153801"].questions == [ENERGY.question]
    assert terms["orkgc:Paper"].kind is TermKind.CLASS and terms["orkgc:Paper"].meaning() == "paper"
    assert "rdfs:label" not in terms  # only the ORKG's own names are the graph's schema


def test_a_resource_counts_only_as_a_comparison() -> None:
    other = Example("X", "Which papers are about R1?", "SELECT ?p WHERE { ?p orkgp:P32 orkgr:R1 }")
    assert "orkgr:R1" not in read_pairs([other])


def test_content_words_drop_stopwords_and_stem() -> None:
    assert content_words("What are the energy sources?") == ["energy", "sourc"]
