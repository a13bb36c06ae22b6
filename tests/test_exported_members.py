"""The public face: ``pipeline`` exports what a library user needs, under ``__all__``, and importing it stays light."""
from __future__ import annotations

import subprocess
import sys
from importlib import import_module
from pathlib import Path

import pipeline

REPO = Path(__file__).resolve().parents[1]
PUBLIC = [
    "Pipeline", "Answer", "Outcome", "Example", "Retrieved", "Generation", "Rows", "Settings",
    "build_pipeline", "build_generator", "build_kg", "build_store", "build_index",
    "Encoder", "ExampleStore", "Generator", "Reaskable", "KnowledgeGraph", "IntentReview",
    "register_generator", "register_kg", "register_store", "GeneratorKind", "KGKind", "StoreKind", "Wiring",
    "KgqaError", "ConfigError", "TimedOut", "DeadlinePassed", "StoreError", "StoreUnavailable", "GeneratorError",
    "GeneratorTimeout", "KnowledgeGraphError", "EndpointUnreachable", "EndpointTimeout", "NotInSnapshot", "Refused",
]


def test_all_holds_the_public_names_and_each_is_the_object_its_module_defines() -> None:
    assert pipeline.__all__ == PUBLIC
    for name in PUBLIC:
        value = getattr(pipeline, name)
        assert getattr(import_module(value.__module__), name) is value, name
        assert value.__module__.startswith("pipeline."), name


def test_a_star_import_gives_exactly_the_public_names_and_an_unknown_one_is_an_attribute_error() -> None:
    scope: dict[str, object] = {}
    exec("from pipeline import *", scope)
    assert sorted(k for k in scope if k != "__builtins__") == sorted(PUBLIC)
    try:
        pipeline.build_everything  # noqa: B018
    except AttributeError as exc:
        assert "build_everything" in str(exc)
    else:
        raise AssertionError("an unknown name was found")


def test_importing_pipeline_loads_none_of_its_modules_until_a_name_is_used() -> None:
    script = ("import sys, pipeline\nbefore = sorted(m for m in sys.modules if m.startswith('pipeline'))\n"
              "pipeline.Outcome\nprint(before, 'pipeline.records' in sys.modules, 'pipeline.core' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                         cwd=REPO).stdout
    assert out.split() == ["['pipeline']", "True", "False"]
