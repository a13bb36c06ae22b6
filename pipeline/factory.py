"""Builds the parts from Settings, in one place."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.store.connection import ChromaConnection
from pipeline.core import Pipeline
from pipeline.errors import ConfigError
from pipeline.parts import Encoder, Generator, KnowledgeGraph
from pipeline.records import Example
from pipeline.registry import GeneratorKind, KGKind, Wiring, generator_kind, kg_kind, register_generator, register_kg
from pipeline.sciqa import SciQA
from pipeline.settings import Settings
from pipeline.store.chroma import ChromaStore, fingerprint

if TYPE_CHECKING:
    from pipeline.names.check import NameCheck
    from pipeline.names.sources import LabelSource
    from pipeline.matching.forms import Labels
    from pipeline.shared.link import RedisLink
    from pipeline.store.retrieval import FormAwareStore, Knowledge


@lru_cache(maxsize=4)
def _sciqa(root: Path | None, cache: Path) -> SciQA:
    return SciQA.open(root, cache)


def sciqa(settings: Settings) -> SciQA:
    return _sciqa(settings.sciqa_dir, settings.sciqa_cache)


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
    data = sciqa(settings)
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

    timeout = float(getattr(part, "timeout", settings.tgi_timeout))
    repaired = RepairingGenerator(part, _vocabulary_of(knowledge), _labels_of(knowledge),
                                  retry_timeouts=2 * timeout < question_deadline(settings, spec), name=spec)
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


def _tgi(w: Wiring) -> Generator:
    if not w.settings.tgi_url:
        raise ConfigError("the tgi generator needs KGQA_TGI_URL (e.g. http://gpu-box:8080)")
    from pipeline.generators.tgi import TGIGenerator

    return TGIGenerator(w.settings.tgi_url, w.settings.tgi_timeout, w.settings.max_new_tokens)


def _openai(w: Wiring) -> Generator:
    s = w.settings
    url = s.openai_url or (s.tgi_url.rstrip("/") + "/v1" if s.tgi_url else "")
    if not url:
        raise ConfigError("the openai generator needs KGQA_OPENAI_URL (e.g. http://localhost:8000/v1)")
    from pipeline.generators.openai import OpenAIGenerator

    return OpenAIGenerator(url, s.openai_model, s.openai_api_key, s.tgi_timeout, s.max_new_tokens)


def _local_llm(w: Wiring) -> Generator:
    s = w.settings
    if not s.local_model:
        raise ConfigError("the local generator needs KGQA_LOCAL_MODEL: a .gguf file, or a model name "
                          "`python scripts/models.py --list` shows")
    from pipeline.generators.llamacpp import ServerConfig
    from pipeline.generators.local import LocalGenerator, shared_server
    from pipeline.generators.weights import model_path

    config = ServerConfig(str(model_path(s.local_model, s.models_dir)), s.local_threads, s.local_context,
                          s.local_slots, s.local_draft, s.local_draft_ngram, s.local_draft_max)
    return LocalGenerator(shared_server(config, s.home / "logs" / "local-llm.log"), s.local_timeout,
                          s.max_new_tokens)


def question_deadline(settings: Settings, generator: str | None = None) -> float:
    """KGQA_DEADLINE; for a model run on this machine at least one whole generation (KGQA_LOCAL_TIMEOUT) and 30 s
    for the rest of the question, so that a CPU model is not cut off by a deadline sized for a GPU server."""
    kind, argument = generator_kind(resolve_generator_name(settings, generator))
    while kind.argument == "GENERATOR":  # repair:local
        kind, argument = generator_kind(argument)
    if kind.local and settings.deadline:
        return max(settings.deadline, settings.local_timeout + 30.0)
    return settings.deadline


def _adapter(w: Wiring) -> Generator:
    from pipeline.generators.adapter import AdapterGenerator

    return AdapterGenerator(w.threshold, w.knowledge)


def _replay(w: Wiring) -> Generator:
    from pipeline.generators.replay import ReplayGenerator

    data = sciqa(w.settings)
    texts = {r.id: r.question for r in data.all()}
    for phase in ("dev", "final"):
        texts.update(dict(data.challenge(phase)))
    return ReplayGenerator(Path(w.argument), texts)


def _repair(w: Wiring) -> Generator:
    """Another generator as it is; its registration (``llm``) puts the repair step around it."""
    kind, argument = generator_kind(w.argument)
    return kind.build(replace(w, argument=argument))


register_generator(GeneratorKind("tgi", _tgi, "Vicuna via Text Generation Inference (KGQA_TGI_URL)", llm=True))
register_generator(GeneratorKind("openai", _openai, "any OpenAI-compatible chat server (KGQA_OPENAI_URL)", llm=True))
register_generator(GeneratorKind("local", _local_llm, "a GGUF model run here by llama.cpp (KGQA_LOCAL_MODEL)",
                                 llm=True, local=True))
register_generator(GeneratorKind("adapter", _adapter, "offline: the nearest stored query, its labels refilled"))
register_generator(GeneratorKind("replay", _replay, "a recorded [{\"id\", \"sparql\"}] file", argument="PATH"))
register_generator(GeneratorKind("repair", _repair, "another generator, checked and re-asked by the repair step",
                                 argument="GENERATOR", llm=True))


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


def _auto(settings: Settings, target: str) -> KnowledgeGraph:
    from pipeline.kg.fallback import FallbackKG
    from pipeline.kg.lazy import LazyKG

    # built at the first query the endpoint cannot answer, not when the bot starts
    return FallbackKG(_endpoint(settings, settings.endpoint), LazyKG("sciqa", lambda: _sciqa_graph(settings)))


def _local(settings: Settings, target: str) -> KnowledgeGraph:
    from pipeline.kg.local import LocalKG

    if not settings.kg_store.is_dir():
        raise ConfigError(f"no local store at {settings.kg_store}: load a dump with `kgqa kg load FILE|URL`")
    return LocalKG(None, store_path=settings.kg_store, row_cap=settings.row_cap)


def _rdf(settings: Settings, target: str) -> KnowledgeGraph:
    from pipeline.kg.local import LocalKG

    return LocalKG(Path(target).expanduser(), row_cap=settings.row_cap)


def _is_url(target: str) -> bool:
    return target.startswith(("http://", "https://"))


register_kg(KGKind("url", lambda s, target: _endpoint(s, target), "an endpoint URL", accepts=_is_url))
register_kg(KGKind("rdf", _rdf, "an RDF file or folder", accepts=lambda target: Path(target).expanduser().exists()))
register_kg(KGKind("auto", _auto, "the live endpoint (KGQA_ENDPOINT), the graph rebuilt from SciQA when it cannot "
                                  "be reached"))
register_kg(KGKind("local", _local, "the store `kgqa kg load` built under $KGQA_HOME/kg"))
register_kg(KGKind("sciqa", lambda s, target: _sciqa_graph(s), "an RDF graph rebuilt from SciQA's queries and answers"))
register_kg(KGKind("snapshot", lambda s, target: _snapshot(s), "SciQA's answers recorded from ORKG in early 2023"))


def _endpoint(settings: Settings, url: str) -> KnowledgeGraph:
    from pipeline.kg.endpoint import EndpointKG

    live = EndpointKG(url, timeout=settings.kg_timeout, row_cap=settings.row_cap)
    if settings.cache_ttl <= 0:
        return live
    from pipeline.kg.cache import Answers, CachedKG, SqliteAnswers

    link = build_link(settings)
    answers: Answers
    if link is not None:
        from pipeline.shared.answers import RedisAnswers

        answers = RedisAnswers(link, settings.cache_max)
    else:
        answers = SqliteAnswers(settings.home / "answer-cache.sqlite3", settings.cache_max)
    return CachedKG(live, answers, settings.cache_ttl)


def _snapshot(settings: Settings) -> KnowledgeGraph:
    return _snapshot_for(settings.sciqa_dir, settings.home)


@lru_cache(maxsize=2)
def _snapshot_for(root: Path | None, home: Path) -> KnowledgeGraph:
    from pipeline.kg.snapshot import SnapshotKG

    return SnapshotKG(_sciqa(root, Settings(home=home).sciqa_cache).all(), home / "derived" / "snapshot.json")


def _sciqa_graph(settings: Settings) -> KnowledgeGraph:
    return _sciqa_graph_for(sciqa(settings).root, settings.home, settings.row_cap)


@lru_cache(maxsize=2)
def _sciqa_graph_for(root: Path, home: Path, row_cap: int) -> KnowledgeGraph:
    """The graph rebuilt from SciQA, built under ``home`` once (again when SciQA's files change)."""
    from pipeline.kg.sciqa_graph.store import open_graph

    return open_graph(root, home, row_cap)


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
                    deadline=question_deadline(settings, generator), names=build_names(settings, graph),
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


def build_link(settings: Settings) -> RedisLink | None:
    """This process's one link to Redis (shared by the answer cache and the bot's state), or None without a URL."""
    return _link(settings.redis_url, settings.redis_timeout) if settings.redis_url else None


@lru_cache(maxsize=2)
def _link(url: str, timeout: float) -> RedisLink:
    from pipeline.shared.link import RedisLink

    return RedisLink(url, timeout)
