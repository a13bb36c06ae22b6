"""The comparison a question names: by its label's words, by meaning (the sentence encoder, the real model), and
as the one run of words that ends its name."""
from __future__ import annotations

import pytest

from pipeline.intent.account import words
from pipeline.intent.comparisons import Comparisons
from pipeline.intent.scope import narrowed, scope_meant, scope_named


def test_a_comparison_named_by_its_words_takes_the_word_between_them(facts: Comparisons) -> None:
    found = words("list the urban street tree comparison papers")
    scoped = scope_named(found, facts)
    assert scoped is not None and scoped[0] == "orkgr:R9100"
    assert [w[2] for w in scoped[1]] == ["urban", "street", "tree", "comparison"]


@pytest.mark.parametrize(("question", "iri"), [
    ("which soil types did the city forestry studies report", "orkgr:R9100"),
    ("what tree species did the city forestry comparison look at", "orkgr:R9100")])
def test_a_comparison_named_in_other_words_is_found_by_meaning(facts: Comparisons, question: str, iri: str) -> None:
    found = words(question)
    assert scope_named(found, facts) is None
    meant = scope_meant(found, found, facts)
    assert meant is not None and meant[0] == iri


@pytest.mark.parametrize(("question", "iri"), [
    ("which cities are in the phage comparison", "orkgr:R2"),  # the last word of a compound
    ("which soil types are in the uts comparison", "orkgr:R1"),  # initials of 'urban tree survival'
    ("which moths are in the alan comp", "orkgr:R3"),  # of all its words ('artificial light at night')
])
def test_a_comparison_named_by_a_word_or_its_initials(question: str, iri: str) -> None:
    facts = Comparisons({"orkgr:R1": "Comparison of urban tree survival studies",
                         "orkgr:R2": "Bacteriophage therapy studies",
                         "orkgr:R3": "Artificial light at night and moths"}, {}, {})
    scoped = scope_named(words(question), facts)
    assert scoped is not None and scoped[0] == iri


def test_initials_before_a_word_of_another_label_abbreviated() -> None:
    """'CI': 'cochlear implantation' (initials), though 'ci' abbreviates 'cultivation' too."""
    facts = Comparisons({"orkgr:R1": "Speech outcomes after cochlear implantation",
                         "orkgr:R2": "Lettuce cultivation in vertical farms"}, {}, {})
    scoped = scope_named(words("max and min follow-up in the CI comparison"), facts)
    assert scoped is not None and scoped[0] == "orkgr:R1"


def test_the_last_word_of_a_compound_names_it() -> None:
    from pipeline.intent.linking import suffix_of
    assert suffix_of("phage", "bacteriophage") and not suffix_of("wave", "microwave")
    assert not suffix_of("phage", "phage") and not suffix_of("phages", "phage")


def test_words_that_mean_no_comparison_name_none(facts: Comparisons) -> None:
    found = words("which soil types did the pancake recipe studies report")
    assert scope_meant(found, found, facts) is None




def test_a_name_in_two_runs_is_the_run_that_ends_it_and_the_other_words_are_left(facts: Comparisons) -> None:
    """'which *trees* did the *urban survival* comparison look at': the words apart from the run right before
    'comparison' are not the comparison's name (they ask for its tree species)."""
    found = words("which trees did the urban survival comparison look at")
    wide = scope_named(found, facts)
    assert wide is not None and [w[2] for w in wide[1]] == ["trees", "urban", "survival"]
    iri, kept = narrowed(wide, found, facts)
    assert iri == "orkgr:R9100" and [w[2] for w in kept] == ["urban", "survival"]
    one_run = words("which soil types did the urban tree survival comparison report")
    scoped = scope_named(one_run, facts)
    assert scoped is not None and narrowed(scoped, one_run, facts) == scoped


def test_a_comparison_named_by_its_initials_alone() -> None:
    """'the NGS comparison': the initials of words in a row of one comparison's label, and of no other's; a filler
    word ('the') or a word that means something ('max') is no abbreviation."""
    facts = Comparisons({"orkgr:R1": "Comparison of next-generation sequencing platforms by cost",
                         "orkgr:R2": "Green roof cooling comparison"}, {}, {})
    scoped = scope_named(words("the most common manufacturer in the NGS comparison"), facts)
    assert scoped is not None and scoped[0] == "orkgr:R1" and [w[2] for w in scoped[1]] == ["ngs"]
    assert scope_named(words("which grc papers"), facts) is not None  # 'green roof cooling'
    two = Comparisons({"orkgr:R1": "next-generation sequencing", "orkgr:R2": "nucleotide gene screening"}, {}, {})
    assert scope_named(words("the ngs comparison"), two) is None
