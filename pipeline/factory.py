"""Builds the parts from Settings, in one place."""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.store.connection import ChromaConnection
from pipeline.core import Pipeline
from pipeline.errors import ConfigError
from pipeline.parts import Encoder, Generator, KnowledgeGraph
from pipeline.records import Example
from pipeline.registry import Wiring, generator_kind, kg_kind
from pipeline.sciqa import sciqa_for
from pipeline.settings import Settings
from pipeline.store.chroma import ChromaStore, fingerprint

if TYPE_CHECKING:
    from pipeline.names.check import NameCheck
    from pipeline.names.sources import LabelSource
    from pipeline.matching.forms import Labels
    from pipeline.store.retrieval import FormAwareStore, Knowledge


def build_encoder(settings: Settings) -> Encoder:
    return _encoder(settings.embedding_model, settings.encoder_backend, settings.encoder_cache)


@lru_cache(maxsize=2)
def _encoder(name: str, backend: str, cache: Path | None) -> Encoder:
    """The model behind one worker that batches what concurrent questions want encoded."""
    from pipeline.store.batching import BatchingEncoder
    from pipeline.store.encoder import model_encoder

    return BatchingEncoder(model_encoder(name, backend, cache))


def build_store(settings: Settings) -> ChromaStore:
    """The example store; a Chroma server is connected at first use, so a bot starts (and says so) while it is down."""
    store = ChromaStore(ChromaConnection(settings.chroma_path, settings.chroma_url, settings.store_timeout),
                        build_encoder(settings), settings.collection)
    if not settings.chroma_url:
        store.open()  # an embedded store opens now: a broken one is reported before anything starts
    return store


def form_aware(settings: Settings, base: ChromaStore) -> FormAwareStore:
    """The form-aware store over ``base``, its knowledge kept in ``$KGQA_HOME/derived/`` per store state."""
    from pipeline.store.retrieval import FormAwareStore

    return FormAwareStore(base, base.encoder, settings.home / "derived" / f"knowledge-{settings.collection}.json")


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
                    min_similarity: float | None = None) -> Generator:
    """The named generator (see ``pipeline.registry``). ``knowledge`` (the stored pairs' forms, labels and vocabulary)
    helps the adapter fill labels and the repair step check an LLM's query; ``min_similarity`` (the retriever's
    calibrated threshold) replaces the setting's default. A language model (``llm`` in its registration, and
    ``repair:GENERATOR``) is wrapped in the repair step, then backed by the adapter (``KGQA_LLM_FALLBACK``)."""
    spec = resolve_generator_name(settings, name)
    kind, argument = generator_kind(spec)
    threshold = settings.min_similarity if min_similarity is None else min_similarity
    part = kind.build(Wiring(settings, argument, knowledge, threshold))
    if not kind.llm:
        return part
    from pipeline.generators.repair import RepairingGenerator

    repaired = RepairingGenerator(part, _vocabulary_of(knowledge), _labels_of(knowledge),
                                  retry_timeouts=2 * settings.tgi_timeout < settings.deadline, name=spec)
    return _with_fallback(settings, repaired, knowledge, threshold)


def _vocabulary_of(knowledge: Callable[[], Knowledge] | None) -> Callable[[], frozenset[str]] | None:
    if knowledge is None:
        return None
    get: Callable[[], Knowledge] = knowledge
    return lambda: get().prefixed


def _labels_of(knowledge: Callable[[], Knowledge] | None) -> Callable[[], Labels] | None:
    if knowledge is None:
        return None
    get: Callable[[], Knowledge] = knowledge
    return lambda: get().labels


def _with_fallback(settings: Settings, llm: Generator, knowledge: Callable[[], Knowledge] | None,
                   threshold: float) -> Generator:
    """The LLM, backed by the offline adapter (``KGQA_LLM_FALLBACK=adapter``, the default) or alone (``none``)."""
    if settings.llm_fallback == "none":
        return llm
    from pipeline.generators.adapter import AdapterGenerator
    from pipeline.generators.fallback import FallbackGenerator

    return FallbackGenerator(llm, AdapterGenerator(threshold, knowledge))


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
    shots = shots or settings.shots
    if shots not in (1, 3, 5):
        raise ConfigError(f"shots must be 1, 3 or 5, not {shots}")
    from pipeline.store.retrieval import FormAwareStore

    searched = build_retriever(settings, store)
    found = searched if isinstance(searched, FormAwareStore) else None
    # the form-aware score has its own calibrated threshold, used unless KGQA_MIN_SIMILARITY says otherwise
    unchanged = settings.min_similarity == Settings.model_fields["min_similarity"].default
    threshold = found.min_score if found and unchanged else None
    from pipeline.intent.step import IntentStep

    graph = build_kg(settings, kg)
    knowledge = found.knowledge if found else None
    _one_blas_thread()
    return Pipeline(searched, build_generator(settings, generator, knowledge, threshold),
                    graph, shots=shots, row_cap=settings.row_cap, max_question_chars=settings.max_question_chars,
                    deadline=settings.deadline, names=build_names(settings, graph),
                    intent=IntentStep(knowledge, labels=label_source(settings, graph).available),
                    workers=settings.workers)


def _one_blas_thread() -> None:
    """A question's BLAS work is a few small matrix-vector products: a second BLAS thread costs more to wake than it
    saves, and fights ONNX Runtime's threads and the other questions for the cores (burst p95 3.5 -> 2.6 s)."""
    import numpy  # noqa: F401  (loaded first: the limit applies to the libraries loaded when it is set)
    from threadpoolctl import threadpool_limits

    threadpool_limits(1, user_api="blas")


_LABEL_SOURCES: dict[tuple[str, Path], LabelSource] = {}


def label_source(settings: Settings, kg: KnowledgeGraph) -> LabelSource:
    """The label index of a KG, one per graph and home in this process (cached on disk under $KGQA_HOME/labels)."""
    from pipeline.names.sources import LabelSource

    key = (kg.name, settings.home)
    if key not in _LABEL_SOURCES:
        _LABEL_SOURCES[key] = LabelSource(kg, settings.home / "labels", page=min(1000, settings.row_cap))
    return _LABEL_SOURCES[key]


def build_names(settings: Settings, kg: KnowledgeGraph) -> NameCheck:
    """The check of a query's names against the graph's labels (unchecked while the labels cannot be had)."""
    from pipeline.names.check import NameCheck

    return NameCheck(label_source(settings, kg).available)
