"""The loop's exchange with a language model: the repair chain applied (its steps: tests/generators/test_checks.py),
one re-prompt with the parser's error or the defect found, and the adapter after two failures — against the
TGI-protocol stand-in on loopback."""
from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest

from pipeline.errors import GeneratorError, GeneratorTimeout
from pipeline.generators.adapter import AdapterGenerator
from pipeline.generators.openai import OpenAIGenerator
from pipeline.generators.replay import ReplayGenerator
from pipeline.generators.tgi import TGIGenerator
from pipeline.records import Ask, Generation, Retrieved, Verdict
from pipeline.schema.shapes import Shapes
from pipeline.sparql.text import PREFIXES, string_literals
from tests.generators.test_adapter import MODELS
from tests.generators.test_checks import GOOD, QUESTION
from tests.loop.talk import llm_first, looped, pipeline, repairing

ORKGP, ORKGC, RDFS_LABEL = PREFIXES["orkgp"], PREFIXES["orkgc"], PREFIXES["rdfs"] + "label"

# the values the builders pass (pipeline.factory, pipeline.plugins.generators)
tgi_generator = partial(TGIGenerator, retries=1)

EXAMPLES = [Retrieved(MODELS, 0.9)]


def test_a_valid_query_passes_with_its_notes(tgi: Any) -> None:
    tgi.enqueue(GOOD.replace("RACE", "race"))
    g = repairing(tgi_generator(tgi.url, timeout=10, max_new_tokens=512)).generate(QUESTION, EXAMPLES)
    assert g.sparql is not None and string_literals(g.sparql) == ["RACE"] and len(tgi.requests) == 1


def test_an_invalid_query_is_asked_again_with_the_parser_error(tgi: Any) -> None:
    tgi.enqueue("SELECT ?model WHERE { ?model ?p }", GOOD)
    g = repairing(tgi_generator(tgi.url, timeout=10, max_new_tokens=512)).generate(QUESTION, EXAMPLES)
    assert g.sparql == GOOD and "re-asked the model with the parser's error" in g.notes
    second = tgi.requests[-1][1]["inputs"]
    assert "does not parse" in second and second.rstrip().endswith("ASSISTANT:") and "</s>USER:" in second


def test_the_openai_route_is_asked_again_too(tgi: Any) -> None:
    tgi.enqueue("SELECT ?model WHERE { ?model ?p }", GOOD)
    g = repairing(OpenAIGenerator(tgi.url + "/v1", "tgi", None, timeout=10,
                                  max_new_tokens=512, stream=True)).generate(QUESTION, EXAMPLES)
    assert g.sparql == GOOD and g.generator == "openai"


def test_two_failures_give_no_query_and_the_fallback_answers_marked(tgi: Any) -> None:
    tgi.set_fault("500", times=2)
    repaired = repairing(tgi_generator(tgi.url, timeout=10, max_new_tokens=512))
    g = repaired.generate(QUESTION, EXAMPLES)
    assert g.sparql is None and "in two tries" in g.explanation and len(tgi.requests) == 2
    tgi.set_fault("garbage")
    answered = looped(question=QUESTION, examples=EXAMPLES, **llm_first(repaired, AdapterGenerator(0.5))).generation
    assert answered is not None
    assert answered.generator == "adapter" and "offline adapter" in answered.notes[0]
    assert answered.sparql is not None and string_literals(answered.sparql) == ["RACE"]


def test_one_failure_is_retried(tgi: Any) -> None:
    tgi.set_fault("500", times=1)  # a generation error (503 is retried inside the TGI client already)
    tgi.enqueue(GOOD)
    g = repairing(tgi_generator(tgi.url, timeout=10, max_new_tokens=512)).generate(QUESTION, EXAMPLES)
    assert g.sparql == GOOD and "asked the model again" in g.notes


def test_a_timeout_is_not_waited_for_twice_when_the_budget_forbids(tgi: Any) -> None:
    tgi.set_fault("hang")
    g = repairing(tgi_generator(tgi.url, timeout=0.5,
                                max_new_tokens=512), retry_timeouts=False).generate(QUESTION, EXAMPLES)
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
    assert repairing(slow, retry_timeouts=False).generate(QUESTION, EXAMPLES).sparql is None
    assert slow.calls == 1
    worded = Failing(GeneratorError("the model did not answer in time, it says"))  # a plain failure: asked again
    assert repairing(worded, retry_timeouts=False).generate(QUESTION, EXAMPLES).sparql == GOOD
    assert worded.calls == 2


def test_a_recorded_query_cannot_be_asked_again(tmp_path: Path) -> None:
    path = tmp_path / "recorded.json"
    path.write_text('[{"id": "q1", "sparql": "SELECT ?x WHERE { ?x ?y }"}]')
    g = repairing(ReplayGenerator(path, {"q1": QUESTION})).generate(QUESTION, EXAMPLES)
    assert g.sparql is None and "cannot be asked again" in g.explanation


def test_a_name_the_graph_lacks_is_asked_again_with_the_nearest_real_ones(tgi: Any) -> None:
    """The model invented orkgp:HAS_CODE; nothing told it which predicates the graph has."""
    graph = frozenset({"orkgp:HAS_SOURCE_CODE", "orkgp:HAS_MODEL", "orkgp:HAS_DATASET", "orkgc:Dataset",
                       "orkgp:HAS_EVALUATION", "orkgp:HAS_BENCHMARK", "orkgp:P31", "orkgc:Model"})
    invented = 'SELECT ?code WHERE { ?m a orkgc:Model; rdfs:label "BERT"; orkgp:HAS_CODE ?code }'
    fixed = 'SELECT ?code WHERE { ?m a orkgc:Model; rdfs:label "BERT"; orkgp:HAS_SOURCE_CODE ?code }'
    tgi.enqueue(invented, fixed)
    g = repairing(OpenAIGenerator(tgi.url + "/v1", "tgi", None, timeout=10,
                                  max_new_tokens=512, stream=True), graph_names=lambda: graph).generate(
        "Where is the code of BERT?", EXAMPLES)
    assert g.sparql == fixed
    assert g.notes[0].startswith("re-asked the model: the graph has no orkgp:HAS_CODE (nearest: orkgp:HAS_SOURCE_CODE")
    asked = tgi.requests[-1][1]["messages"][0]["content"]
    assert "uses names the knowledge graph does not have: the graph has no orkgp:HAS_CODE" in asked
    tgi.enqueue(invented, invented)
    twice = repairing(OpenAIGenerator(tgi.url + "/v1", "tgi", None, timeout=10,
                                      max_new_tokens=512, stream=True), graph_names=lambda: graph).generate(
        "Where is the code of BERT?", EXAMPLES)
    assert twice.sparql is None and "the graph has no orkgp:HAS_CODE" in twice.explanation


def test_without_the_graphs_names_the_query_is_not_held(tgi: Any) -> None:
    tgi.enqueue(GOOD)
    g = repairing(OpenAIGenerator(tgi.url + "/v1", "tgi", None, timeout=10,
                                  max_new_tokens=512, stream=True), graph_names=lambda: None).generate(
        QUESTION, EXAMPLES)
    assert g.sparql == GOOD and len(tgi.requests) == 1


class OnlyKnows:
    """A graph where only the label ``known`` matches anything."""

    name = "only-knows"
    virtuoso = False

    def __init__(self, known: str) -> None:
        self.known = known
        self.queries: list[str] = []

    def select(self, query: str) -> Any:
        from pipeline.records import Rows

        self.queries.append(query)
        found = f'"{self.known}"' in query
        return Rows(["m"], [{"m": {"type": "literal", "value": "BERT"}}] if found else [])

    def ping(self, timeout: float = 2.0) -> bool:
        return True


class Store:
    def search(self, question: str, k: int) -> list[Retrieved]:
        return EXAMPLES


def test_an_empty_answer_is_asked_again_once_and_the_reply_says_which_attempt_answered(tgi: Any) -> None:
    from pipeline.records import Outcome

    kg = OnlyKnows("RACE")
    tgi.enqueue(GOOD.replace('"RACE"', '"RACE-1"'), GOOD)
    # an adapter that adapts nothing: the fallback has no query of its own, so the model is asked again
    gen = llm_first(repairing(OpenAIGenerator(tgi.url + "/v1", "tgi", None, timeout=10, max_new_tokens=512,
                                                 stream=True)), AdapterGenerator(1.01))
    answer = pipeline(Store(), kg, **gen).ask(QUESTION)
    assert answer.outcome is Outcome.ANSWERED and '"RACE"' in (answer.sparql or "")
    assert '"RACE-1"' in kg.queries[0] and '"RACE"' in kg.queries[1]
    assert "the second query answered" in answer.generation.notes[-1]  # type: ignore[union-attr]
    assert "returned no results" in tgi.requests[-1][1]["messages"][0]["content"]
    tgi.enqueue(GOOD.replace('"RACE"', '"RACE-1"'), GOOD)
    twice = pipeline(Store(), OnlyKnows("nothing"), **gen).ask(QUESTION)
    # the model's own query found nothing twice: declined with the query on show, not "nothing matches" on its word
    assert twice.outcome is Outcome.DECLINED and "found nothing either" in twice.generation.notes[-1]  # type: ignore
    assert '"RACE-1"' in (twice.sparql or "") and "will not answer 'none'" in twice.explanation


def test_the_adapters_empty_answer_is_not_retried(tgi: Any) -> None:
    from pipeline.records import Outcome

    tgi.set_fault("500")  # the LLM fails: the adapter answers, and its empty answer stands
    gen = llm_first(repairing(OpenAIGenerator(tgi.url + "/v1", "tgi", None, timeout=10, max_new_tokens=512,
                                                 stream=True)), AdapterGenerator(0.5))
    kg = OnlyKnows("nothing")
    answer = pipeline(Store(), kg, **gen).ask(QUESTION)
    assert answer.outcome is Outcome.EMPTY and answer.generation.generator == "adapter"  # type: ignore[union-attr]
    assert len(kg.queries) == 1


def test_a_retry_that_names_something_the_question_does_not_is_not_taken(tgi: Any) -> None:
    """The second query answered about another dataset: it is not taken; the first, which found nothing, is shown and
    declined."""
    from pipeline.records import Outcome

    tgi.enqueue(GOOD.replace('"RACE"', '"RACE-1"'), GOOD.replace('"RACE"', '"LAMBADA"'))
    gen = llm_first(repairing(OpenAIGenerator(tgi.url + "/v1", "tgi", None, timeout=10, max_new_tokens=512,
                                                 stream=True)), AdapterGenerator(0.5))
    answer = pipeline(Store(), OnlyKnows("LAMBADA"), **gen).ask(QUESTION)
    assert answer.outcome is Outcome.DECLINED and '"RACE-1"' in (answer.sparql or "")


def test_every_reply_is_on_the_record_with_what_became_of_it(tgi: Any) -> None:
    """A vocabulary re-prompt, then the empty retry: each reply kept, taken or not, and why."""
    from pipeline.records import Ask, Verdict

    graph = frozenset({"orkgc:Dataset", "orkgp:HAS_DATASET", "orkgp:HAS_BENCHMARK", "orkgp:HAS_MODEL",
                       "orkgp:HAS_EVALUATION"})
    invented = GOOD.replace("orkgp:HAS_MODEL", "orkgp:HAS_MODELS").replace('"RACE"', '"RACE-1"')
    talk = repairing(OpenAIGenerator(tgi.url + "/v1", "tgi", None, timeout=10, max_new_tokens=512,
                                     stream=True), graph_names=lambda: graph)
    gen = {"writers": [talk.writer], "reply": talk.reply}  # the model alone
    tgi.enqueue(invented, GOOD.replace('"RACE"', '"RACE-1"'), GOOD)
    answered = pipeline(Store(), OnlyKnows("RACE"), **gen).ask(QUESTION)
    attempts = answered.generation.attempts  # type: ignore[union-attr]
    assert [(a.ask, a.verdict) for a in attempts] == [(Ask.PROMPT, Verdict.VOCABULARY),
                                                      (Ask.VOCABULARY, Verdict.TAKEN), (Ask.EMPTY, Verdict.TAKEN)]
    assert attempts[0].raw == invented and "HAS_MODELS" in attempts[0].why and attempts[2].sparql == GOOD
    tgi.enqueue(GOOD.replace('"RACE"', '"RACE-1"'), GOOD)
    twice = pipeline(Store(), OnlyKnows("nothing"), **gen).ask(QUESTION)
    last = twice.generation.attempts[-1]  # type: ignore[union-attr]
    assert (last.ask, last.verdict, last.why) == (Ask.EMPTY, Verdict.NOT_TAKEN, "it ended empty too")
    assert last.raw == GOOD and '"RACE-1"' in (twice.sparql or "")
    tgi.enqueue(GOOD.replace('"RACE"', '"RACE-1"'), GOOD.replace('"RACE"', '"LAMBADA"'))
    other = pipeline(Store(), OnlyKnows("LAMBADA"), **gen).ask(QUESTION)
    assert other.generation.attempts[-1].why == "it names what the question and first query do not"  # type: ignore


def test_a_query_selecting_what_it_never_binds_is_asked_again_then_declined_with_the_reason(tgi: Any) -> None:
    """The model copied half of a metrics example: ?model is selected, nothing in WHERE binds it (an answer of
    nothing bound). Asked again with the variables; the same defect twice is a decline, never an empty answer."""
    unbound = GOOD.split("OPTIONAL")[0] + "OPTIONAL { ?eval orkgp:HAS_METRIC ?metric. } }"
    tgi.enqueue(unbound, GOOD)
    model = OpenAIGenerator(tgi.url + "/v1", "tgi", None, timeout=10, max_new_tokens=512, stream=True)
    g = repairing(model).generate(QUESTION, EXAMPLES)
    assert g.sparql == GOOD
    assert g.notes[0] == "re-asked the model: ?model and ?model_lbl are selected but never bound in WHERE"
    asked = " ".join(m["content"] for m in tgi.requests[-1][1]["messages"])
    assert "?model and ?model_lbl are selected but never bound in WHERE" in asked
    assert [(a.ask, a.verdict) for a in g.attempts] == [(Ask.PROMPT, Verdict.UNBOUND), (Ask.UNBOUND, Verdict.TAKEN)]
    tgi.enqueue(unbound, unbound)
    twice = repairing(model).generate(QUESTION, EXAMPLES)
    assert twice.sparql is None and twice.reason == "?model and ?model_lbl are selected but never bound in WHERE"
    assert [a.verdict for a in twice.attempts] == [Verdict.UNBOUND, Verdict.UNBOUND]


@pytest.mark.parametrize(("tail", "said"), [
    # where the OPTIONAL finds no model, "?model rdfs:label ?l" after it matches every labelled thing: unrelated rows
    ("?model rdfs:label ?model_label. }", "?model is bound only inside an OPTIONAL and required after it"),
    # a FILTER on a variable no pattern binds fails on every row: an empty answer whatever the graph holds
    ('FILTER (str(?never_lbl) = "F1") }', "?never_lbl is filtered on but never bound"),
])
def test_a_query_that_cannot_answer_rightly_is_asked_again_with_the_reason(tgi: Any, tail: str, said: str) -> None:
    """The model is told why; the same defect twice is a decline."""
    faulty = GOOD.rstrip().removesuffix("}") + tail
    tgi.enqueue(faulty, GOOD)
    model = OpenAIGenerator(tgi.url + "/v1", "tgi", None, timeout=10, max_new_tokens=512, stream=True)
    g = repairing(model).generate(QUESTION, EXAMPLES)
    asked = " ".join(m["content"] for m in tgi.requests[-1][1]["messages"])
    assert g.sparql == GOOD and said in asked
    tgi.enqueue(faulty, faulty)
    twice = repairing(model).generate(QUESTION, EXAMPLES)
    assert twice.sparql is None and twice.reason == said


def test_predicates_no_node_carries_together_are_told_with_where_the_graph_uses_them(tgi: Any) -> None:
    """The model hung the model on the benchmark: the query would find nothing. Told which predicates never meet and
    what HAS_MODEL is found with, it moves it; asked with only "it found nothing" it wrote the same query again."""
    shapes = Shapes.of([frozenset({ORKGP + "HAS_DATASET", ORKGP + "HAS_EVALUATION"}),
                        frozenset({ORKGP + "HAS_BENCHMARK", ORKGP + "HAS_MODEL"}),
                        frozenset({"a " + ORKGC + "Dataset", RDFS_LABEL}), frozenset({ORKGP + "HAS_MODEL"})])
    misplaced = GOOD.replace("?paper orkgp:HAS_BENCHMARK ?benchmark.", "").replace(
        "OPTIONAL { ?paper orkgp:HAS_MODEL ?model.", "?benchmark orkgp:HAS_MODEL ?model. OPTIONAL {")
    tgi.enqueue(misplaced, GOOD)
    g = repairing(OpenAIGenerator(tgi.url + "/v1", "tgi", None, timeout=10, max_new_tokens=512, stream=True),
                  shapes=lambda: shapes).generate(QUESTION, EXAMPLES)
    asked = " ".join(m["content"] for m in tgi.requests[-1][1]["messages"])
    assert g.sparql == GOOD and g.attempts[0].verdict is Verdict.VOCABULARY
    assert "no node of the graph has both orkgp:HAS_DATASET and orkgp:HAS_MODEL" in asked
    assert "orkgp:HAS_MODEL is found with orkgp:HAS_BENCHMARK" in asked


def test_names_the_graph_lacks_and_variables_never_bound_are_told_in_one_re_prompt(tgi: Any) -> None:
    graph = frozenset({"orkgc:Dataset", "orkgp:HAS_DATASET", "orkgp:HAS_EVALUATION", "orkgp:HAS_BENCHMARK",
                       "orkgp:HAS_MODEL", "orkgp:HAS_METRIC"})
    both = GOOD.split("OPTIONAL")[0].replace("HAS_EVALUATION", "HAS_EVALUATIONS") + "}"
    tgi.enqueue(both, GOOD)
    g = repairing(OpenAIGenerator(tgi.url + "/v1", "tgi", None, timeout=10, max_new_tokens=512, stream=True),
                  graph_names=lambda: graph).generate(QUESTION, EXAMPLES)
    asked = " ".join(m["content"] for m in tgi.requests[-1][1]["messages"])
    assert g.sparql == GOOD and "the graph has no orkgp:HAS_EVALUATIONS" in asked
    assert "?model and ?model_lbl are selected but never bound in WHERE" in asked
    assert g.attempts[0].verdict is Verdict.VOCABULARY
