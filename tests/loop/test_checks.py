"""Each check says one kind of thing of a query, and runs once per query: against the OpenAI-protocol stand-in on
loopback, the fixture graph in pyoxigraph, the real intent and names steps."""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pipeline.factory import build_names
from pipeline.generators.adapter import AdapterGenerator
from pipeline.generators.openai import OpenAIGenerator
from pipeline.intent.step import IntentStep
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.loop.checks import IntentCheck, NamesCheck, ReplyCheck
from pipeline.loop.verdicts import Call, Judgement
from pipeline.names.check import Checked
from pipeline.names.lexicon import Lexicon
from pipeline.parts import KnowledgeGraph
from pipeline.records import Answer, Generation, Outcome, Retrieved, Review, Rows
from pipeline.settings import Settings
from tests.loop.talk import adapter_first, llm_first, pipeline, repairing
from tests.loop.test_order import ASKED, STORY, Store
from tests.matching.test_forms import T01


@dataclass(frozen=True)
class CountedReply(ReplyCheck):
    seen: Counter[str] = field(default_factory=Counter)

    def judge(self, question: str, generation: Generation) -> Judgement:
        self.seen[generation.sparql or ""] += 1
        return super().judge(question, generation)


class Counted:
    """The intent step, the names step and the graph, each counting the queries it is given."""

    def __init__(self, intent: IntentStep, names: Any, kg: KnowledgeGraph) -> None:
        self.inner, self.names_of, self.kg = intent, names, kg
        self.intent: Counter[str] = Counter()
        self.names: Counter[str] = Counter()
        self.ran: Counter[str] = Counter()

    def review(self, question: str, g: Generation, examples: Sequence[Retrieved], kg: Any) -> Review:
        self.intent[g.sparql or ""] += 1
        return self.inner.review(question, g, examples, kg)

    def check(self, sparql: str, question: str) -> Checked:
        self.names[sparql] += 1
        checked: Checked = self.names_of(sparql, question)
        return checked

    def select(self, query: str) -> Rows:
        self.ran[query] += 1
        return self.kg.select(query)


class CountingKG:
    def __init__(self, kg: OxigraphKG, counted: Counted) -> None:
        self.name, self.virtuoso, self.counted = kg.name, kg.virtuoso, counted

    def select(self, query: str) -> Rows:
        return self.counted.select(query)

    def ping(self, timeout: float = 2.0) -> bool:
        return True


def ask(settings: Settings, kg: OxigraphKG, url: str, order: str, score: float) -> tuple[Answer, Counted,
                                                                                        CountedReply]:
    lexicon = Lexicon.of(settings, kg)
    intent = IntentStep(labels=lexicon.labels.available, pairs=lambda: [])  # no composer: the writers'
    counted = Counted(intent, build_names(lexicon), kg)
    llm = repairing(OpenAIGenerator(url, "tgi", None, timeout=10, max_new_tokens=512, stream=True))
    reply = CountedReply()
    llm.reply = reply
    arranged = llm_first(llm, AdapterGenerator(0.5)) if order == "llm-first" else \
        adapter_first(AdapterGenerator(0.5), llm)
    pipe = pipeline(Store(score), CountingKG(kg, counted), names=counted.check, intent=counted,  # type: ignore
                    **arranged)
    return pipe.ask(ASKED), counted, reply


def test_one_question_meets_each_check_once(settings: Settings, local_kg: OxigraphKG, tgi: Any) -> None:
    tgi.enqueue(STORY.sparql)
    answer, counted, reply = ask(settings, local_kg, tgi.url + "/v1", "llm-first", 0.9)
    assert answer.outcome is Outcome.ANSWERED and len(tgi.requests) == 1
    assert list(reply.seen.values()) == [1] and list(counted.intent.values()) == [1]
    assert list(counted.names.values()) == [1] and counted.ran[answer.sparql or ""] == 1  # (and the glance's)
    assert [c.check for c in answer.checks] == ["syntax", "intent", "names"]
    adapted, counted, reply = ask(settings, local_kg, tgi.url + "/v1", "adapter-first", 0.9)
    assert adapted.outcome is Outcome.ANSWERED and adapted.generator == "adapter" and not reply.seen
    assert list(counted.intent.values()) == [1] and list(counted.names.values()) == [1]
    assert counted.ran[adapted.sparql or ""] == 1 and len(tgi.requests) == 1  # the model was not asked


def test_two_writers_queries_are_each_judged_once(settings: Settings, local_kg: OxigraphKG, tgi: Any) -> None:
    """The model's query is about another dataset than the question's: the intent check declines it, the adapter's
    passes; neither query meets a check twice."""
    tgi.enqueue(T01.format(d="Quux Corpus"))
    answer, counted, _reply = ask(settings, local_kg, tgi.url + "/v1", "llm-first", 0.9)
    assert answer.outcome is Outcome.ANSWERED and answer.generator == "adapter"
    assert set(counted.intent.values()) == {1} and len(counted.intent) == 2  # two queries, once each
    assert set(counted.names.values()) == {1} and counted.ran[answer.sparql or ""] == 1
    assert [(c.writer, c.check, c.call) for c in answer.checks] == [
        ("openai", "syntax", "pass"), ("openai", "intent", "decline"), ("adapter", "intent", "pass"),
        ("adapter", "names", "pass")]
    assert not any("Quux" in q for q in counted.ran)


def test_each_check_says_one_kind_of_thing(local_kg: OxigraphKG) -> None:
    bad = Generation("tgi", "SELECT ?m WHERE { ?m ?p }")
    assert ReplyCheck().judge("q", bad).call is Call.ASK_AGAIN
    good = Generation("tgi", STORY.sparql)
    assert ReplyCheck().judge("q", good).call in (Call.PASS, Call.FIXED)
    unbound = Generation("tgi", "SELECT ?m ?x WHERE { ?m ?p ?o }")
    said = ReplyCheck().judge("q", unbound)
    assert (said.call, said.check) == (Call.ASK_AGAIN, "unbound") and "?x" in said.told
    intent = IntentCheck(IntentStep(), local_kg)
    assert intent.judge(ASKED, good, [Retrieved(STORY, 0.9)]).call is Call.PASS
    silent = intent.judge("Which cat won the most prizes?", Generation("adapter", None), [])
    assert silent.call is Call.DECLINE and silent.generation is not None and not silent.generation.sparql
    held = NamesCheck(lambda sparql, question: Checked(sparql)).judge(ASKED, good)
    assert held.call is Call.PASS and held.sparql == good.sparql
