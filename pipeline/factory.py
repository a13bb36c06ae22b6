"""Builds the parts from Settings, in one place."""
from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from pipeline.core import Pipeline
from pipeline.errors import KgqaError
from pipeline.parts import Encoder, Generator, KnowledgeGraph, Timed
from pipeline.records import Example
from pipeline.registry import Wiring, generator_kind, kg_kind, store_kind
from pipeline.sciqa import sciqa_for
from pipeline.settings import Settings
from pipeline.store.chroma import ChromaStore, fingerprint

if TYPE_CHECKING:
    from pipeline.loop.checks import ReplyCheck
    from pipeline.loop.writers import Writer
    from pipeline.names.check import NameCheck
    from pipeline.names.sources import LabelSource
    from pipeline.names.vocabulary import GraphVocabulary
    from pipeline.schema.graph import GraphFacts
    from pipeline.schema.grounding import Grounding
    from pipeline.schema.properties import PropertyIndex
    from pipeline.schema.shapes import Shapes
    from pipeline.store.knowledge import Knowledge
    from pipeline.store.retrieval import FormAwareStore

T = TypeVar("T")
log = logging.getLogger(__name__)


def build_encoder(settings: Settings) -> Encoder:
    return _encoder(settings.embedding_model, settings.encoder_backend, settings.encoder_dir, settings.hf_offline)


@lru_cache(maxsize=2)
def _encoder(name: str, backend: str, cache: Path, offline: bool) -> Encoder:
    """The model behind one worker that batches what concurrent questions want encoded."""
    from pipeline.store.batching import MAX_BATCH, BatchingEncoder
    from pipeline.store.encoder import model_encoder

    return BatchingEncoder(model_encoder(name, backend, cache, offline=offline), MAX_BATCH)


def build_store(settings: Settings) -> ChromaStore:
    """The example store of the registered kind (see ``pipeline.registry``): Chroma on disk, a Chroma server, or a
    plugin's. A plugin's store offers ChromaStore's interface where the commands using it need it (``StoreKind``)."""
    return cast(ChromaStore, store_kind(settings).build(settings, build_encoder(settings)))


def form_aware(settings: Settings, base: ChromaStore) -> FormAwareStore:
    """The form-aware store over ``base``, its knowledge kept in ``$KGQA_HOME/derived/`` per store state."""
    from pipeline.store.retrieval import RECHECK, FormAwareStore

    return FormAwareStore(base, base.encoder, settings.home / "derived" / f"knowledge-{settings.collection}.json",
                          recheck=RECHECK)


def index_examples(settings: Settings) -> list[Example]:
    splits = [s.strip() for s in settings.index_splits.split(",") if s.strip()]
    data = sciqa_for(settings)
    return [Example(r.id, r.question, r.sparql, r.template_id, "sciqa") for s in splits for r in data.split(s)]


def build_index(settings: Settings, store: ChromaStore, rebuild: bool = False,
                progress: Callable[[int, int], Callable[[int], None]] | None = None) -> tuple[bool, int]:
    """(rebuilt?, pairs stored): rebuilds only when the data, the model or ``rebuild`` says so."""
    examples = index_examples(settings)
    fp = fingerprint(examples, settings.embedding_model)
    if not rebuild and store.fingerprint() == fp:
        return False, store.count()
    tick = progress(len(examples), 0) if progress else None
    return True, store.rebuild(examples, fp, tick)


def resolve_generator_name(settings: Settings, name: str | None) -> str:
    name = name or settings.generator
    return name or ("tgi" if settings.tgi_url else "adapter")


def build_generator(settings: Settings, name: str | None = None, knowledge: Callable[[], Knowledge] | None = None,
                    min_similarity: float | None = None, grounding: Grounding | None = None) -> Generator:
    """The named generator (see ``pipeline.registry``), as it is. ``knowledge`` (the stored pairs' forms and labels)
    helps the adapter fill labels; ``min_similarity`` (the threshold the adapter declines below) wins over
    KGQA_MIN_SIMILARITY, then the plain store's; ``grounding``: what a language model is given of the graph beside
    its examples (KGQA_LLM_SCHEMA/LINKS/GRAMMAR). What checks its queries and who backs it: ``build_writers``."""
    kind, argument = generator_kind(resolve_generator_name(settings, name))
    threshold = next(t for t in (min_similarity, settings.min_similarity, ChromaStore.min_score) if t is not None)
    part = kind.build(Wiring(settings, threshold, argument, knowledge))
    if kind.llm:
        _ground(part, grounding)
    return part


def build_writers(settings: Settings, part: Generator, name: str | None = None,
                  knowledge: Callable[[], Knowledge] | None = None,
                  min_similarity: float | None = None, reader: Generator | None = None) -> list[Writer]:
    """Who writes a question's query, in order (``pipeline.loop``). A language model (``llm`` in its registration,
    and ``repair:GENERATOR``) has its replies checked and is asked again; the offline adapter backs it
    (``KGQA_LLM_FALLBACK``): first, the model when it declines (``adapter-first``: the fewest wrong answers,
    docs/results/llm.md), or behind the model, replacing its query only with one that passes (``llm-first``, the paper's
    order); ``KGQA_LLM_FALLBACK=none``: the model alone, whatever the order. ``reader``: the model as a reader
    (``KGQA_LLM_READER``), asked right before the model is asked to write."""
    from pipeline.loop.writers import Writer

    spec = resolve_generator_name(settings, name)
    kind, _ = generator_kind(spec)
    if not kind.llm:
        return [Writer(part)]
    timeout = part.timeout if isinstance(part, Timed) else settings.tgi_timeout
    deadline = question_deadline(settings, spec)  # a slow model is asked again only when a deadline leaves room
    model = Writer(part, spec, model=True, retry_timeouts=deadline is not None and 2 * timeout < deadline)
    models = [Writer(reader, reader=True), model] if reader is not None else [model]
    if settings.llm_fallback == "none":
        return models
    from pipeline.generators.adapter import AdapterGenerator

    threshold = next(t for t in (min_similarity, settings.min_similarity, ChromaStore.min_score) if t is not None)
    adapter = AdapterGenerator(threshold, knowledge)
    if llm_order(settings, spec) == "adapter-first":
        return [Writer(adapter), *models]
    return [*models, Writer(adapter, fallback=True)]


def build_reader(settings: Settings, part: Generator, kg: KnowledgeGraph, name: str | None = None,
                 knowledge: Callable[[], Knowledge] | None = None) -> Generator | None:
    """The model as a reader of the question (``KGQA_LLM_READER``; ``pipeline.intent.reader``), or None: not asked
    for, not a language model, or one that cannot hold its reply to a JSON schema (a replayed file)."""
    from pipeline.intent.pairs import intent_pairs
    from pipeline.intent.reader import ReaderGenerator
    from pipeline.parts import Structured

    spec = resolve_generator_name(settings, name)
    if not settings.llm_reader or not generator_kind(spec)[0].llm or not isinstance(part, Structured):
        return None
    return ReaderGenerator(part, spec, kg, intent_pairs, knowledge, label_source(settings, kg).available)


def build_reply_check(knowledge: Callable[[], Knowledge] | None,
                      graph_names: Callable[[], frozenset[str] | None] | None = None,
                      shapes: Callable[[], Shapes | None] | None = None) -> ReplyCheck:
    """The check of a language model's reply: the stored pairs' vocabulary and labels, the KG's predicates and
    classes (``graph_names``: a query using others is asked again once, with them) and which of them its nodes carry
    together (``shapes``)."""
    from pipeline.loop.checks import ReplyCheck

    if knowledge is None:
        return ReplyCheck(None, None, graph_names, shapes)
    get: Callable[[], Knowledge] = knowledge
    return ReplyCheck(lambda: get().prefixed, lambda: get().labels, graph_names, shapes)


def _ground(part: Generator, grounding: Grounding | None) -> None:
    """A language model given the graph's schema, linked names and grammar (KGQA_LLM_SCHEMA/LINKS/GRAMMAR)."""
    from pipeline.schema.grounding import Groundable

    if grounding is not None and grounding.levers.any and isinstance(part, Groundable):
        part.grounding = grounding


def grounding_for(settings: Settings, kg: KnowledgeGraph, store: ChromaStore | FormAwareStore) -> Grounding:
    """What a language model is given of ``kg`` beside its examples, as KGQA_LLM_* say (``pipeline.schema``)."""
    from pipeline.schema.grounding import Grounding, Levers
    from pipeline.schema.vocabulary import vocabulary_for

    levers = Levers(settings.llm_schema, settings.llm_links, settings.llm_grammar, settings.llm_schema_budget)
    return Grounding(levers, kg, store.examples, graph_vocabulary(settings, kg).available,
                     label_source(settings, kg).available, settings.home / "labels",
                     orkg=lambda: vocabulary_for(settings))


def question_deadline(settings: Settings, generator: str | None = None) -> float | None:
    """KGQA_DEADLINE; for a model run on this machine at least one whole generation (KGQA_LOCAL_TIMEOUT) and 30 s
    for the rest of the question, so that a CPU model is not cut off by a deadline sized for a GPU server."""
    if _runs_here(settings, generator) and settings.deadline:
        return max(settings.deadline, settings.local_timeout + 30.0)
    return settings.deadline


def llm_order(settings: Settings, generator: str | None = None) -> str:
    """KGQA_LLM_ORDER; unset: adapter first for a model run on this machine (a small CPU model: its own queries
    were the wrong answers on new asks, docs/results/llm.md), the paper's LLM first for a model server."""
    if settings.llm_order is not None:
        return settings.llm_order
    return "adapter-first" if _runs_here(settings, generator) else "llm-first"


def _runs_here(settings: Settings, generator: str | None) -> bool:
    """Whether the generator (through ``repair:``) is a model run on this machine."""
    kind, argument = generator_kind(resolve_generator_name(settings, generator))
    while kind.argument == "GENERATOR":  # repair:local
        kind, argument = generator_kind(argument)
    return kind.local


def build_kg(settings: Settings, target: str | None = None) -> KnowledgeGraph:
    """The KG for a target (see ``pipeline.registry``): a registered name, an endpoint URL, an RDF file or folder."""
    target = target or settings.kg
    return kg_kind(target).build(settings, target)


def build_retriever(settings: Settings, store: ChromaStore | None = None) -> ChromaStore | FormAwareStore:
    """What questions are searched with, for the pipeline and ``kgqa lookup`` alike (one ranking, one score scale):
    form-aware re-ranking, or with ``KGQA_RETRIEVAL=plain`` the raw question-embedding neighbours (the paper's)."""
    base = store or build_store(settings)
    return base if settings.retrieval == "plain" else form_aware(settings, base)


def build_pipeline(settings: Settings, generator: str | None = None, kg: str | None = None,
                   shots: int | None = None, store: ChromaStore | None = None) -> Pipeline:
    settings = settings.with_(shots=shots)  # checked by the Settings type, as KGQA_SHOTS is
    from pipeline.store.retrieval import FormAwareStore

    searched = build_retriever(settings, store)
    found = searched if isinstance(searched, FormAwareStore) else None
    # each retriever's score has its own calibrated threshold, used unless KGQA_MIN_SIMILARITY says otherwise
    threshold = searched.min_score if settings.min_similarity is None else settings.min_similarity
    from pipeline.intent.comparisons import ComparisonFacts
    from pipeline.intent.step import IntentStep
    from pipeline.intent.writer import ComparisonWriter
    from pipeline.loop.writers import Writer
    from pipeline.schema.shapes import graph_shapes

    graph = build_kg(settings, kg)
    knowledge = found.knowledge if found else None
    _one_blas_thread()
    vocabulary = graph_vocabulary(settings, graph).available
    names = build_names(settings, graph)
    comparisons = ComparisonFacts(lambda: orkg_labels(settings), searched.encoder)
    intent = IntentStep(knowledge, labels=label_source(settings, graph).available, comparisons=comparisons)
    made = build_generator(settings, generator, knowledge, threshold, grounding_for(settings, graph, searched))
    reader = build_reader(settings, made, graph, generator, knowledge)
    writers = build_writers(settings, made, generator, knowledge, threshold, reader)
    if any(w.model for w in writers):  # what the rules read whole is answered before the model is asked
        writers.insert(0, Writer(ComparisonWriter(graph, comparisons), reader=True))
    return Pipeline(searched, made, graph, shots=settings.shots, row_cap=settings.row_cap,
                    max_question_chars=settings.max_question_chars, deadline=question_deadline(settings, generator),
                    names=names, intent=intent, workers=settings.workers, writers=writers,
                    reply=build_reply_check(knowledge, vocabulary, graph_shapes(graph)))


def orkg_labels(settings: Settings) -> dict[str, str] | None:
    """The ORKG vocabulary's predicate labels (``KGQA_ORKG_VOCABULARY``), for a graph that lacks its own; None: none
    configured, or it cannot be read (the graph's own labels are used alone)."""
    from pipeline.errors import KgqaError
    from pipeline.schema.vocabulary import vocabulary_for

    try:
        vocabulary = vocabulary_for(settings)
    except KgqaError:
        return None
    return {name: term.label for name, term in vocabulary.predicates.items()} if vocabulary is not None else None


def _one_blas_thread() -> None:
    """A question's BLAS work is a few small matrix-vector products: a second BLAS thread costs more to wake than it
    saves, and fights ONNX Runtime's threads and the other questions for the cores (burst p95 3.5 -> 2.6 s)."""
    import numpy  # noqa: F401  (loaded first: the limit applies to the libraries loaded when it is set)
    from threadpoolctl import threadpool_limits

    threadpool_limits(1, user_api="blas")


_PER_GRAPH: dict[tuple[type, str, Path], object] = {}  # one reader of each kind per graph and home


def _per_graph(settings: Settings, kg: KnowledgeGraph, kind: type[T], ttl: float) -> T:
    """The ``kind`` reader (labels, vocabulary) of a KG, made once per graph and home in this process, cached on
    disk under $KGQA_HOME/labels."""
    key = (kind, kg.name, settings.home)
    if key not in _PER_GRAPH:
        make: Any = kind  # each reader takes (kg, folder, ttl=, page=)
        _PER_GRAPH[key] = make(kg, settings.home / "labels", ttl=ttl, page=min(1000, settings.row_cap))
    found = _PER_GRAPH[key]
    assert isinstance(found, kind)
    return found


def property_search(settings: Settings, examples: Sequence[Example] = (),
                    facts: GraphFacts | None = None) -> PropertyIndex | None:
    """Property search over the ORKG vocabulary KGQA_ORKG_VOCABULARY names (None when it names none), with the example
    store's encoder; the label vectors kept in KGQA_HOME (``pipeline.schema.properties``)."""
    from pipeline.schema.properties import property_index
    from pipeline.schema.vocabulary import vocabulary_for

    vocabulary = vocabulary_for(settings)
    if vocabulary is None:
        return None
    return property_index(vocabulary, build_encoder(settings), settings.vocabulary_dir, examples, facts)


def label_source(settings: Settings, kg: KnowledgeGraph) -> LabelSource:
    """The label index of a KG (pipeline.names.sources)."""
    from pipeline.names.sources import LABELS_TTL_S, LabelSource

    return _per_graph(settings, kg, LabelSource, LABELS_TTL_S)


def graph_vocabulary(settings: Settings, kg: KnowledgeGraph) -> GraphVocabulary:
    """The KG's predicates and classes (pipeline.names.vocabulary)."""
    from pipeline.names.vocabulary import TTL_S, GraphVocabulary

    return _per_graph(settings, kg, GraphVocabulary, TTL_S)


def warm_up(settings: Settings, pipeline: Pipeline) -> dict[str, float]:
    """Ready now what the first questions would otherwise wait for — the embedding model and the store, the graph's
    label index and its vocabulary, and with a language model the graph's predicate sets (on a big graph each takes
    seconds: docs/results/scale.md) — and say how long each took (s). A part that cannot be had is left to be read
    later, as when not warmed."""
    took: dict[str, float] = {}
    steps: dict[str, Callable[[], object]] = {
        "store": lambda: pipeline.lookup("warm up", 1),
        "labels": lambda: label_source(settings, pipeline.kg).index(),
        "vocabulary": graph_vocabulary(settings, pipeline.kg).available,
    }
    shapes = pipeline.reply.shapes if pipeline.reply is not None else None
    if shapes is not None and any(w.model for w in pipeline.writers):  # read only where a model's queries are checked
        steps["shapes"] = shapes
    for name, step in steps.items():
        start = time.perf_counter()
        try:
            step()
        except KgqaError as exc:
            log.warning("warm-up: %s not ready: %s", name, exc)
            continue
        took[name] = round(time.perf_counter() - start, 3)
    return took


def build_names(settings: Settings, kg: KnowledgeGraph) -> NameCheck:
    """The check of a query's names against the graph's labels (unchecked while the labels cannot be had)."""
    from pipeline.names.check import NameCheck

    return NameCheck(label_source(settings, kg).available)
