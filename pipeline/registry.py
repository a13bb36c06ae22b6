"""Generators, knowledge-graph backends and example stores by name, one registration each (as simonw/llm's
``register_models``).

The built-in parts register themselves in the modules named by ``BUILTINS``, a third-party package's in the modules
its ``kgqa.plugins`` entry points name (all loaded by name at the first look-up: the registry imports nothing it
serves); a new one is a builder and one ``register_generator``/``register_kg``/``register_store`` call
(docs/PLUGINS.md). Help texts and "unknown name" errors are written from what is registered. What differs between
generators is an attribute of the registration (``llm``: its replies checked and re-asked by the check loop, backed by
the offline adapter), never a check on a name."""
from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from importlib.metadata import entry_points
from typing import TYPE_CHECKING

from pipeline.errors import ConfigError
from pipeline.parts import Encoder, ExampleStore, Generator, KnowledgeGraph

if TYPE_CHECKING:
    from pipeline.settings import Settings
    from pipeline.store.knowledge import Knowledge


@dataclass(frozen=True)
class Wiring:
    """What a generator builder may use besides the settings: the text after ``name:`` (e.g. a path), the stored
    pairs' forms, labels and vocabulary, and the retriever's calibrated similarity threshold."""

    settings: Settings
    threshold: float
    argument: str = ""
    knowledge: Callable[[], Knowledge] | None = None


@dataclass(frozen=True)
class GeneratorKind:
    name: str
    build: Callable[[Wiring], Generator]
    help: str
    argument: str = ""  # e.g. "PATH": the generator is named "name:PATH"
    llm: bool = False  # a language model: checked and re-asked by the check loop, backed by the adapter
    local: bool = False  # runs on this machine's cores: a question waits for one whole generation (its timeout)


@dataclass(frozen=True)
class KGKind:
    name: str
    build: Callable[[Settings, str], KnowledgeGraph]  # (settings, the target as given)
    help: str
    accepts: Callable[[str], bool] | None = None  # targets that are not this name (a URL, a path)


@dataclass(frozen=True)
class StoreKind:
    """An example store backend. It offers what ``pipeline.store.chroma.ChromaStore`` does for the commands that use
    it (``search``/``add``/``count``/``examples`` for questions and ``kgqa lookup``; form-aware retrieval and
    ``kgqa index`` read its vectors and rebuild it)."""

    name: str
    build: Callable[[Settings, Encoder], ExampleStore]  # (settings, the encoder questions are embedded with)
    help: str
    chosen: Callable[[Settings], bool] | None = None  # picked without KGQA_STORE when true (None: the last resort)


_GENERATORS: dict[str, GeneratorKind] = {}
_KGS: dict[str, KGKind] = {}
_STORES: dict[str, StoreKind] = {}


def register_generator(kind: GeneratorKind) -> None:
    _GENERATORS[kind.name] = kind


def register_kg(kind: KGKind) -> None:
    _KGS[kind.name] = kind


def register_store(kind: StoreKind) -> None:
    _STORES[kind.name] = kind


BUILTINS = ("pipeline.plugins.generators", "pipeline.plugins.kgs", "pipeline.plugins.stores")
ENTRY_POINTS = "kgqa.plugins"  # a third-party package's modules that register its parts: [project.entry-points]
_loaded = threading.Event()
_loading = threading.Lock()


def _builtins() -> None:
    """Import, once per process, the modules that register parts: the built-in ones, then every installed plugin's."""
    if _loaded.is_set():
        return
    with _loading:
        if _loaded.is_set():
            return
        for module in BUILTINS:
            import_module(module)
        for plugin in entry_points(group=ENTRY_POINTS):
            try:
                plugin.load()
            except Exception as exc:  # a broken plugin is named, not a traceback
                raise ConfigError(f"the kgqa plugin {plugin.name!r} ({plugin.value}) cannot be loaded: "
                                  f"{type(exc).__name__}: {exc}") from exc
        _loaded.set()


def generator_kind(spec: str) -> tuple[GeneratorKind, str]:
    """The registration for ``name`` or ``name:ARGUMENT``, and the argument."""
    _builtins()
    name, _, argument = spec.partition(":")
    kind = _GENERATORS.get(name)
    if kind is None or bool(kind.argument) != bool(argument):
        raise ConfigError(f"unknown generator {spec!r}; choose one of {generator_names()}")
    return kind, argument


def kg_kind(target: str) -> KGKind:
    """The registration for a KG target: a registered name, else the first backend that accepts it."""
    _builtins()
    named = _KGS.get(target)
    kind = named if named and not named.accepts else \
        next((k for k in _KGS.values() if k.accepts and k.accepts(target)), None)
    if kind is None:
        raise ConfigError(f"unknown KG target {target!r}; give {kg_names()}")
    return kind


def generator_names() -> str:
    """'tgi, openai, adapter, replay:PATH' — for help texts and errors."""
    _builtins()
    return ", ".join(k.name + (f":{k.argument}" if k.argument else "") for k in _GENERATORS.values())


def kg_names() -> str:
    """Every KG target, e.g. "an endpoint URL, an RDF file or folder, 'auto', 'local' or 'snapshot'"."""
    _builtins()
    named = [f"'{k.name}'" for k in _KGS.values() if not k.accepts]
    patterns = [k.help for k in _KGS.values() if k.accepts]
    items = patterns + named
    return ", ".join(items[:-1]) + " or " + items[-1] if len(items) > 1 else "".join(items)


def store_kind(settings: Settings) -> StoreKind:
    """The store KGQA_STORE names; without it the first registered store whose ``chosen`` says so, else the one
    with no condition (the Chroma folder under $KGQA_HOME)."""
    _builtins()
    if settings.store:
        kind = _STORES.get(settings.store)
        if kind is None:
            raise ConfigError(f"unknown store {settings.store!r} (KGQA_STORE); choose one of {store_names()}")
        return kind
    kind = next((k for k in _STORES.values() if k.chosen and k.chosen(settings)), None) or \
        next((k for k in _STORES.values() if k.chosen is None), None)
    if kind is None:
        raise ConfigError(f"no example store fits these settings; set KGQA_STORE to one of {store_names()}")
    return kind


def store_names() -> str:
    """'chroma, chroma-server' — for help texts and errors."""
    _builtins()
    return ", ".join(_STORES)
