"""The repair chain over one generated query: the safe syntax fixes, the stored vocabulary's names, label literals
spelled as the question (or the store) spells them."""
from __future__ import annotations

import difflib

from pipeline.generators.checks import add_missing_dots, balance_braces, check, repair_labels, unknown_names
from pipeline.matching.forms import Labels
from pipeline.sparql.text import string_literals, syntax_errors
from tests.generators.test_adapter import JACQUARD
from tests.matching.test_forms import T01

GOOD = T01.format(d="RACE")
QUESTION = "What models are being evaluated on the RACE dataset?"


def test_unbalanced_braces_are_closed_or_dropped() -> None:
    assert not syntax_errors(balance_braces(GOOD[:-1]))
    assert not syntax_errors(balance_braces(GOOD + " }"))
    assert balance_braces('SELECT ?x WHERE { ?x rdfs:label "a } b" ') == 'SELECT ?x WHERE { ?x rdfs:label "a } b" }'


def test_a_missing_dot_between_triples_is_added() -> None:
    broken = "SELECT ?p WHERE { ?p orkgp:P31 ?c ?c orkgp:HAS_BENCHMARK ?b ; rdfs:label ?l }"
    assert syntax_errors(broken) and not syntax_errors(add_missing_dots(broken))


def test_check_applies_the_safe_fixes_and_says_so() -> None:
    fixed = check(GOOD[:-1], QUESTION)
    assert fixed.ok and fixed.notes == ("balanced the braces",) and not syntax_errors(fixed.fixed)
    broken = check("SELECT ?x WHERE { ?x ?y }", QUESTION)
    assert not broken.ok and broken.errors[0].startswith("syntax error")
    assert check(GOOD, QUESTION) .fixed == GOOD


ORKG_NAMES = ["orkgp:HAS_DATASET", "orkgp:HAS_METRIC", "orkgp:HAS_MODEL", "orkgp:HAS_BENCHMARK", "orkgp:HAS_VALUE",
              "orkgp:HAS_EVALUATION", "orkgp:HAS_SOURCE_CODE", "orkgp:P31", "orkgp:P32", "orkgp:P30", "orkgp:P27",
              "orkgc:Dataset", "orkgc:Model", "orkgc:Metric", "orkgc:Problem", "orkgc:Paper", "orkgc:ResearchField"]


def _slips(name: str) -> list[str]:
    """A letter of the local name dropped, doubled, changed or swapped with the next; a plural; the other prefix."""
    prefix, local = name.split(":")
    out = [local + "S", local.lower()]
    for i in range(len(local)):
        out += [local[:i] + local[i + 1:], local[:i] + local[i] + local[i:], local[:i] + "x" + local[i + 1:],
                local[:i] + local[i + 1:i + 2] + local[i] + local[i + 2:]]
    other = {"orkgp": "orkgc", "orkgc": "orkgp"}[prefix]
    return [f"{prefix}:{o}" for o in out if o] + [f"{other}:{local}"]


def test_the_closest_known_name_is_the_one_difflib_offered() -> None:
    """rapidfuzz replaced difflib.get_close_matches(name, names, n=1, cutoff=0.8): the same name is offered (ties
    included) for every one-slip misspelling of ORKG's names and for names close to none."""
    typed = sorted({t for n in ORKG_NAMES for t in _slips(n)} - set(ORKG_NAMES)) + ["orkgp:HAS_TASK", "orkgc:Author"]
    for name in typed:
        offered = difflib.get_close_matches(name, sorted(ORKG_NAMES), n=1, cutoff=0.8)
        said = f" (did you mean {offered[0]}?)" if offered else ""
        assert unknown_names(f"SELECT ?x {{ ?x {name} ?y }}", frozenset(ORKG_NAMES)) == \
            [f"{name} is used by no stored query{said}"], name


def test_unknown_prefixed_names_are_flagged_with_the_closest_known_one() -> None:
    vocabulary = {"orkgp:HAS_DATASET", "orkgp:HAS_METRIC", "orkgc:Dataset"}
    notes = unknown_names("SELECT ?m { ?e orkgp:HAS_METRICS ?m; orkgp:HAS_DATASET ?d. ?d a orkgc:Dataset. "
                          "orkgr:R1 ?p ?q }", vocabulary)
    assert notes == ["orkgp:HAS_METRICS is used by no stored query (did you mean orkgp:HAS_METRIC?)"]
    assert "flagged: orkgp:HAS_MODEL is used by no stored query" in check(GOOD, QUESTION, vocabulary).notes


def test_labels_differing_only_in_blanks_case_or_an_apostrophe_take_the_questions_spelling() -> None:
    query = T01.format(d="Atari 2600 Montezumas   revenge")
    fixed, notes = repair_labels(query, "Which models were run on the Atari 2600 Montezuma's Revenge dataset?")
    assert string_literals(fixed) == ["Atari 2600 Montezuma's Revenge"] and notes
    assert repair_labels(GOOD, "Which models ran on SQuAD?") == (GOOD, [])  # another name is not a repair


def test_a_label_the_store_spells_with_other_blanks_takes_the_stores_spelling() -> None:
    fixed, _ = repair_labels(T01.format(d="Jacquard dataset"), "What models ran on the Jacquard dataset dataset?",
                             Labels([JACQUARD]))
    assert string_literals(fixed) == [" Jacquard dataset"]


def test_a_missing_brace_is_closed_before_group_by_not_after_it() -> None:
    """Appended after GROUP BY … LIMIT, the brace left the query unparsable, and the re-ask failed the same way."""
    broken = ('SELECT ?m (MAX(?v) AS ?best) WHERE { ?d a orkgc:Dataset; rdfs:label "SQuAD" . ?d orkgp:HAS_EVALUATION '
              '?e . ?e orkgp:HAS_VALUE ?v; orkgp:HAS_MODEL ?m GROUP BY ?m ORDER BY DESC(?best) LIMIT 1')
    fixed = check(broken, "Best model on SQuAD?")
    assert fixed.ok and fixed.notes == ("balanced the braces",)
    assert fixed.fixed.endswith("orkgp:HAS_MODEL ?m } GROUP BY ?m ORDER BY DESC(?best) LIMIT 1")
    assert balance_braces("SELECT * { ?a ?b ?c . { ?d ?e ?f }") == "SELECT * { ?a ?b ?c . { ?d ?e ?f } }"


def test_prefix_declarations_are_not_flagged_as_unknown_vocabulary() -> None:
    declared = ("PREFIX orkgp: <http://orkg.org/orkg/predicate/> PREFIX orkgc: <http://orkg.org/orkg/class/> "
                "SELECT ?d { ?d a orkgc:Dataset; orkgp:HAS_METRICS ?m }")
    notes = unknown_names(declared, {"orkgc:Dataset", "orkgp:HAS_METRIC"})
    assert notes == ["orkgp:HAS_METRICS is used by no stored query (did you mean orkgp:HAS_METRIC?)"]
