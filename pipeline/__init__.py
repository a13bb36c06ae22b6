"""Answer plain-language questions over the ORKG with few-shot SPARQL generation (Taffa & Usbeck 2023).

The names a library user needs, imported at first use (``import pipeline`` loads nothing else)::

    from pipeline import Settings, build_pipeline
    answer = build_pipeline(Settings.from_env()).ask("Which model scores best on SQuAD 1.1?")
    answer.outcome, answer.rows
"""
from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pipeline.core import Pipeline
    from pipeline.errors import (
        ConfigError,
        DeadlinePassed,
        EndpointTimeout,
        EndpointUnreachable,
        GeneratorError,
        GeneratorTimeout,
        KgqaError,
        KnowledgeGraphError,
        NotInSnapshot,
        Refused,
        StoreError,
        StoreUnavailable,
        TimedOut,
    )
    from pipeline.factory import build_generator, build_index, build_kg, build_pipeline, build_store
    from pipeline.parts import Encoder, ExampleStore, Generator, IntentReview, KnowledgeGraph, Reaskable
    from pipeline.records import Answer, Example, Generation, Outcome, Retrieved, Rows
    from pipeline.registry import (
        GeneratorKind,
        KGKind,
        StoreKind,
        Wiring,
        register_generator,
        register_kg,
        register_store,
    )
    from pipeline.settings import Settings

_WHERE = {
    "pipeline.core": ("Pipeline",),
    "pipeline.records": ("Answer", "Outcome", "Example", "Retrieved", "Generation", "Rows"),
    "pipeline.settings": ("Settings",),
    "pipeline.factory": ("build_pipeline", "build_generator", "build_kg", "build_store", "build_index"),
    "pipeline.parts": ("Encoder", "ExampleStore", "Generator", "Reaskable", "KnowledgeGraph", "IntentReview"),
    "pipeline.registry": ("register_generator", "register_kg", "register_store", "GeneratorKind", "KGKind",
                          "StoreKind", "Wiring"),
    "pipeline.errors": ("KgqaError", "ConfigError", "TimedOut", "DeadlinePassed", "StoreError", "StoreUnavailable",
                        "GeneratorError", "GeneratorTimeout", "KnowledgeGraphError", "EndpointUnreachable",
                        "EndpointTimeout", "NotInSnapshot", "Refused"),
}
_MODULE_OF = {name: module for module, names in _WHERE.items() for name in names}

__all__ = [
    "Pipeline", "Answer", "Outcome", "Example", "Retrieved", "Generation", "Rows", "Settings",
    "build_pipeline", "build_generator", "build_kg", "build_store", "build_index",
    "Encoder", "ExampleStore", "Generator", "Reaskable", "KnowledgeGraph", "IntentReview",
    "register_generator", "register_kg", "register_store", "GeneratorKind", "KGKind", "StoreKind", "Wiring",
    "KgqaError", "ConfigError", "TimedOut", "DeadlinePassed", "StoreError", "StoreUnavailable", "GeneratorError",
    "GeneratorTimeout", "KnowledgeGraphError", "EndpointUnreachable", "EndpointTimeout", "NotInSnapshot", "Refused",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use."""
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'pipeline' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
