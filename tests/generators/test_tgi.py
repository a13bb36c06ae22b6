"""The TGI generator through the real text_generation client against a TGI-protocol server on loopback."""
from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from pipeline.errors import GeneratorError, GeneratorTimeout, Reason
from pipeline.generators.tgi import TGIGenerator
from pipeline.records import Example, Retrieved
from pipeline.sciqa import SciQA
from pipeline.sparql.text import squash

tgi_generator = partial(TGIGenerator, retries=1)  # the retries the builder passes (pipeline.plugins.generators)

EXAMPLES = [Retrieved(Example("AQ1", "List the title and ID of research papers that contain a benchmark over the "
                                     "CINIC-10 dataset?", 'SELECT ?p WHERE { ?d rdfs:label "CINIC-10" }', "T02"), 0.9)]


def recorded_three_shot(seed_dir: Path, sciqa: SciQA) -> tuple[str, str]:
    """A final-phase question and the SPARQL Vicuna-13B wrote for it with 3 shots (read from the seed outputs)."""
    recorded = json.loads((seed_dir / "test" / "three_shot" / "three_shot_sparql.json").read_text())
    questions = dict(sciqa.challenge("final"))
    item = next(r for r in recorded if r["id"].startswith("AQ") and r["sparql"].startswith("SELECT"))
    return questions[item["id"]], item["sparql"]


def test_greedy_generation_returns_the_models_query(tgi: Any, seed_dir: Path, sciqa: SciQA) -> None:
    question, sparql = recorded_three_shot(seed_dir, sciqa)
    gen = tgi_generator(tgi.url, timeout=10, max_new_tokens=512).generate(question, EXAMPLES * 3)
    assert gen.sparql == squash(sparql) and gen.generator == "tgi" and "USER:" in gen.prompt
    path, body = tgi.requests[-1]
    assert path == "/" and body["parameters"]["do_sample"] is False
    assert body["parameters"]["max_new_tokens"] == 512 and "USER:" in body["parameters"]["stop"]


def test_a_refusal_becomes_the_explanation(tgi: Any) -> None:
    tgi.set_fault("refusal")
    gen = tgi_generator(tgi.url, timeout=10, max_new_tokens=512).generate("Who wrote the most papers on cats?",
                                                                        EXAMPLES)
    assert gen.sparql is None and gen.explanation.startswith("The model could not write a query: I cannot")


def test_garbage_is_not_taken_for_a_query(tgi: Any) -> None:
    tgi.set_fault("garbage")
    gen = tgi_generator(tgi.url, timeout=10, max_new_tokens=512).generate("Which model is best on SQuAD?", EXAMPLES)
    assert gen.sparql is None and gen.explanation


@pytest.mark.parametrize("fault, message, kind, reason", [
    ("500", "failed", GeneratorError, Reason.FAILED), ("503", "failed", GeneratorError, Reason.OVERLOADED),
    ("bad_json", "TGI's format", GeneratorError, Reason.BAD_REPLY),
    ("hang", "did not answer in time", GeneratorTimeout, Reason.TIMEOUT)])
def test_server_faults_become_generator_errors(tgi: Any, fault: str, message: str, kind: type[Exception],
                                               reason: Reason) -> None:
    tgi.set_fault(fault)
    with pytest.raises(kind, match=message) as raised:
        tgi_generator(tgi.url, timeout=1, max_new_tokens=512).generate("Which model is best on SQuAD?", EXAMPLES)
    assert isinstance(raised.value, GeneratorTimeout) == (kind is GeneratorTimeout)
    assert isinstance(raised.value, GeneratorError) and raised.value.reason is reason


def test_an_unreachable_server_is_a_clear_error() -> None:
    with pytest.raises(GeneratorError, match=r"could not be reached \(.*refused\)") as raised:
        tgi_generator("http://127.0.0.1:9", timeout=2, max_new_tokens=512).generate("q?", EXAMPLES)
    assert raised.value.reason is Reason.UNREACHABLE


def test_the_graphs_names_go_to_tgi_as_its_regex_grammar(tgi: Any) -> None:
    from pipeline.schema.grammar import regex
    from pipeline.schema.grounding import Context, Grounding

    class Held(Grounding):
        def __init__(self) -> None:
            pass

        def context(self, question: str) -> Context:
            return Context("", ("orkgp:P31",))

    tgi.enqueue("SELECT ?p WHERE { ?p orkgp:P31 ?c }")
    gen = tgi_generator(tgi.url, timeout=10, max_new_tokens=64, grounding=Held())
    assert gen.generate("Papers?", EXAMPLES).sparql == "SELECT ?p WHERE { ?p orkgp:P31 ?c }"
    _, body = tgi.requests[-1]
    assert body["parameters"]["grammar"] == {"type": "regex", "value": regex(("orkgp:P31",))}
    tgi.enqueue("SELECT ?p WHERE { ?p orkgp:P32 ?c }")
    tgi_generator(tgi.url, timeout=10, max_new_tokens=64).generate("Papers?", EXAMPLES)
    assert tgi.requests[-1][1]["parameters"].get("grammar") is None
