"""Repairing an LLM's query: safe fixes, one re-prompt with the parser's error, vocabulary and label checks, and the
adapter after two failures — against the TGI-protocol stand-in on loopback."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from pipeline.matching.forms import Labels
from pipeline.generators.adapter import AdapterGenerator
from pipeline.generators.fallback import FallbackGenerator
from pipeline.generators.openai import OpenAIGenerator
from pipeline.generators.replay import ReplayGenerator
from pipeline.generators.tgi import TGIGenerator
from pipeline.errors import GeneratorError, GeneratorTimeout
from pipeline.records import Generation, Retrieved
from pipeline.generators.repair import RepairingGenerator, add_missing_dots, balance_braces, check, repair_labels, unknown_names
from pipeline.sparql.text import string_literals, syntax_errors
from tests.generators.test_adapter import JACQUARD, MODELS
from tests.matching.test_forms import T01

GOOD = T01.format(d="RACE")
QUESTION = "What models are being evaluated on the RACE dataset?"
EXAMPLES = [Retrieved(MODELS, 0.9)]


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


def test_a_valid_query_passes_with_its_notes(tgi: Any) -> None:
    tgi.enqueue(GOOD.replace("RACE", "race"))
    g = RepairingGenerator(TGIGenerator(tgi.url, timeout=10)).generate(QUESTION, EXAMPLES)
    assert g.sparql is not None and string_literals(g.sparql) == ["RACE"] and len(tgi.requests) == 1


def test_an_invalid_query_is_asked_again_with_the_parser_error(tgi: Any) -> None:
    tgi.enqueue("SELECT ?model WHERE { ?model ?p }", GOOD)
    g = RepairingGenerator(TGIGenerator(tgi.url, timeout=10)).generate(QUESTION, EXAMPLES)
    assert g.sparql == GOOD and "re-asked the model with the parser's error" in g.notes
    second = tgi.requests[-1][1]["inputs"]
    assert "does not parse" in second and second.rstrip().endswith("ASSISTANT:") and "</s>USER:" in second


def test_the_openai_route_is_asked_again_too(tgi: Any) -> None:
    tgi.enqueue("SELECT ?model WHERE { ?model ?p }", GOOD)
    g = RepairingGenerator(OpenAIGenerator(tgi.url + "/v1", timeout=10)).generate(QUESTION, EXAMPLES)
    assert g.sparql == GOOD and g.generator == "openai"


def test_two_failures_give_no_query_and_the_fallback_answers_marked(tgi: Any) -> None:
    tgi.set_fault("500", times=2)
    repaired = RepairingGenerator(TGIGenerator(tgi.url, timeout=10))
    g = repaired.generate(QUESTION, EXAMPLES)
    assert g.sparql is None and "in two tries" in g.explanation and len(tgi.requests) == 2
    tgi.set_fault("garbage")
    answered = FallbackGenerator(repaired, AdapterGenerator(0.5)).generate(QUESTION, EXAMPLES)
    assert answered.generator == "adapter" and "offline adapter" in answered.notes[0]
    assert answered.sparql is not None and string_literals(answered.sparql) == ["RACE"]


def test_one_failure_is_retried(tgi: Any) -> None:
    tgi.set_fault("500", times=1)  # a generation error (503 is retried inside the TGI client already)
    tgi.enqueue(GOOD)
    g = RepairingGenerator(TGIGenerator(tgi.url, timeout=10)).generate(QUESTION, EXAMPLES)
    assert g.sparql == GOOD and "asked the model again" in g.notes


def test_a_timeout_is_not_waited_for_twice_when_the_budget_forbids(tgi: Any) -> None:
    tgi.set_fault("hang")
    g = RepairingGenerator(TGIGenerator(tgi.url, timeout=0.5), retry_timeouts=False).generate(QUESTION, EXAMPLES)
    assert g.sparql is None and "in time" in g.explanation and len(tgi.requests) == 1


class Failing:
    """A model that raises ``errors`` in turn, then writes GOOD."""

    name = "failing"

    def __init__(self, *errors: Exception) -> None:
        self.errors = list(errors)
        self.calls = 0

    def generate(self, question: str, examples: Any) -> Generation:
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return Generation(self.name, GOOD)


def test_whether_to_ask_again_after_a_failure_depends_on_its_type_not_its_words() -> None:
    slow = Failing(GeneratorTimeout("the model was slow"))
    assert RepairingGenerator(slow, retry_timeouts=False).generate(QUESTION, EXAMPLES).sparql is None
    assert slow.calls == 1
    worded = Failing(GeneratorError("the model did not answer in time, it says"))  # a plain failure: asked again
    assert RepairingGenerator(worded, retry_timeouts=False).generate(QUESTION, EXAMPLES).sparql == GOOD
    assert worded.calls == 2


def test_a_recorded_query_cannot_be_asked_again(tmp_path: Path) -> None:
    path = tmp_path / "recorded.json"
    path.write_text('[{"id": "q1", "sparql": "SELECT ?x WHERE { ?x ?y }"}]')
    g = RepairingGenerator(ReplayGenerator(path, {"q1": QUESTION})).generate(QUESTION, EXAMPLES)
    assert g.sparql is None and "cannot be asked again" in g.explanation
