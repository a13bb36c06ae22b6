"""Builds the parts from Settings, in one place."""
from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from functools import lru_cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, cast

from pipeline.blueprint import Blueprint
from pipeline.core import Bounds, Parts, Pipeline
from pipeline.errors import KgqaError
from pipeline.parts import Encoder, Generator, KnowledgeGraph, ReadsAhead, Timed
from pipeline.records import Example
from pipeline.registry import Wiring, kg_kind, store_kind
from pipeline.sciqa import sciqa_for
from pipeline.settings import Settings
from pipeline.store.chroma import ChromaStore, fingerprint

if TYPE_CHECKING:
    from pipeline.loop.checks import ReplyCheck
    from pipeline.loop.writers import Writer
    from pipeline.names.check import NameCheck
    from pipeline.names.lexicon import Lexicon
    from pipeline.schema.graph import GraphFacts
    from pipeline.schema.grounding import Grounding
    from pipeline.schema.properties import PropertyIndex
    from pipeline.schema.shapes import Shapes
    from pipeline.store.knowledge import Knowledge
    from pipeline.store.retrieval import FormAwareStore

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


def build_generator(settings: Settings, name: str | None = None, knowledge: Callable[[], Knowledge] | None = None,
                    min_similarity: float | None = None, grounding: Grounding | None = None) -> Generator:
    """The named generator (see ``pipeline.registry``), as it is: ``generator_for`` its blueprint, ``min_similarity``
    (the threshold the adapter declines below) winning over KGQA_MIN_SIMILARITY, then the plain store's."""
    return generator_for(Blueprint.of(settings.with_(min_similarity=min_similarity), name), knowledge, grounding)


def generator_for(blueprint: Blueprint, knowledge: Callable[[], Knowledge] | None = None,
                  grounding: Grounding | None = None) -> Generator:
    """The blueprint's generator. ``knowledge`` (the stored pairs' forms and labels) helps the adapter fill labels;
    ``grounding``: what a language model is given of the graph beside its examples (KGQA_LLM_SCHEMA/LINKS/GRAMMAR).
    What checks its queries and who backs it: ``build_writers``."""
    part = blueprint.kind.build(Wiring(blueprint.settings, blueprint.threshold, blueprint.argument, knowledge))
    if blueprint.kind.llm:
        _ground(part, grounding)
    return part


def build_writers(blueprint: Blueprint, part: Generator, knowledge: Callable[[], Knowledge] | None = None,
                  reader: Generator | None = None) -> list[Writer]:
    """Who writes a question's query, in order (``pipeline.loop``). A language model (``llm`` in its registration,
    and ``repair:GENERATOR``) has its replies checked and is asked again; the offline adapter backs it
    (``KGQA_LLM_FALLBACK``): first, the model when it declines (``adapter-first``: the fewest wrong answers,
    docs/results/llm.md), or behind the model, replacing its query only with one that passes (``llm-first``, the paper's
    order: where the rules read every word, their query answers before the model is asked, ``Writer.rules``);
    ``KGQA_LLM_FALLBACK=none``: the model alone, whatever the order. ``reader``: the model as a reader
    (``KGQA_LLM_READER``), asked right before the model is asked to write."""
    from pipeline.loop.writers import Writer

    if not blueprint.kind.llm:
        return [Writer(part)]
    timeout = part.timeout if isinstance(part, Timed) else blueprint.settings.tgi_timeout
    deadline = blueprint.deadline  # a slow model is asked again only when a deadline leaves room
    model = Writer(part, blueprint.generator, model=True,
                   retry_timeouts=deadline is not None and 2 * timeout < deadline)
    models = [Writer(reader, reader=True), model] if reader is not None else [model]
    if blueprint.settings.llm_fallback == "none":
        return models
    from pipeline.generators.adapter import AdapterGenerator

    adapter = AdapterGenerator(blueprint.threshold, knowledge)
    if blueprint.order == "adapter-first":
        return [Writer(adapter), *models]
    return [Writer(adapter, rules=True), *models, Writer(adapter, fallback=True)]


def build_reader(blueprint: Blueprint, part: Generator, lexicon: Lexicon,
                 knowledge: Callable[[], Knowledge] | None = None) -> Generator | None:
    """The model as a reader of the question (``KGQA_LLM_READER``; ``pipeline.intent.reader``) of ``lexicon``'s
    graph, or None: not asked for, not a language model, or one that cannot hold its reply to a JSON schema (a
    replayed file)."""
    from pipeline.intent.pairs import intent_pairs
    from pipeline.intent.reader import ReaderGenerator
    from pipeline.parts import Structured

    if not blueprint.settings.llm_reader or not blueprint.kind.llm or not isinstance(part, Structured):
        return None
    return ReaderGenerator(part, blueprint.generator, lexicon.kg, intent_pairs, knowledge, lexicon.labels.available)


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


def grounding_for(settings: Settings, lexicon: Lexicon, store: ChromaStore | FormAwareStore) -> Grounding:
    """What a language model is given of ``lexicon``'s graph beside its examples, as KGQA_LLM_* say
    (``pipeline.schema``)."""
    from pipeline.schema.grounding import Grounding, Levers
    from pipeline.schema.vocabulary import vocabulary_for

    levers = Levers(settings.llm_schema, settings.llm_links, settings.llm_grammar, settings.llm_schema_budget)
    return Grounding(levers, lexicon.kg, store.examples, lexicon.vocabulary.available, lexicon.labels.available,
                     settings.home / "labels", orkg=lambda: vocabulary_for(settings))


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
    from pipeline.intent.comparisons import ComparisonFacts
    from pipeline.intent.step import IntentStep
    from pipeline.intent.writer import ComparisonWriter
    from pipeline.loop.writers import Writer
    from pipeline.names.lexicon import Lexicon
    from pipeline.parts import Structured
    from pipeline.schema.shapes import graph_shapes

    graph = build_kg(settings, kg)
    # each retriever's score has its own calibrated threshold, used unless KGQA_MIN_SIMILARITY says otherwise
    blueprint = Blueprint.of(settings, generator, searched.min_score)
    lexicon = Lexicon.of(settings, graph)  # one reader of each kind, shared by every part of this pipeline
    knowledge = found.knowledge if found else None
    _one_blas_thread()
    comparisons = ComparisonFacts(lambda: orkg_labels(settings), searched.encoder)
    intent = IntentStep(knowledge, labels=lexicon.labels.available, comparisons=comparisons, far=blueprint.threshold)
    made = generator_for(blueprint, knowledge, grounding_for(settings, lexicon, searched))
    reader = build_reader(blueprint, made, lexicon, knowledge)
    writers = build_writers(blueprint, made, knowledge, reader)
    if any(w.model for w in writers):  # what the rules read whole is answered before the model is asked
        picker = made if settings.llm_pick and reader is not None and isinstance(made, Structured) else None
        writers.insert(0, Writer(ComparisonWriter(graph, comparisons, picker), reader=True))
    reply = build_reply_check(knowledge, lexicon.vocabulary.available, graph_shapes(graph))
    parts = Parts(searched, made, graph, writers=writers, names=build_names(lexicon), intent=intent, reply=reply,
                  lexicon=lexicon)
    return Pipeline(parts, Bounds.of(settings, blueprint.deadline))


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


def warm_up(pipeline: Pipeline) -> dict[str, float]:
    """Ready now what the first questions would otherwise wait for — the embedding model and the store, the graph's
    label index and its vocabulary (the pipeline's lexicon), what it holds of its comparisons with the ORKG
    vocabulary's labels, and with a language model the graph's predicate sets (on a big graph or a big vocabulary each
    takes seconds: docs/results/scale.md, vocabulary.md) — and say how long each took (s). A part that cannot be had
    is left to be read later, as when not warmed."""
    took: dict[str, float] = {}
    steps: dict[str, Callable[[], object]] = {"store": lambda: pipeline.lookup("warm up", 1)}
    if pipeline.lexicon is not None:
        steps.update(labels=pipeline.lexicon.labels.index, vocabulary=pipeline.lexicon.vocabulary.available)
    if isinstance(pipeline.intent, ReadsAhead):
        steps["comparisons"] = partial(pipeline.intent.read_ahead, pipeline.kg)
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


def build_names(lexicon: Lexicon) -> NameCheck:
    """The check of a query's names against the graph's labels (unchecked while the labels cannot be had)."""
    from pipeline.names.check import NameCheck

    return NameCheck(lexicon.labels.available)
