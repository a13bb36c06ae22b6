"""What the factory reads from the settings and the generator it is given, once, for every builder: the generator as
registered and what its kind implies — the similarity the offline adapter declines below, the time a question has,
and who writes first when a language model is backed by the adapter."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pipeline.registry import GeneratorKind, generator_kind
from pipeline.settings import Settings
from pipeline.store.chroma import MIN_SCORE

Order = Literal["llm-first", "adapter-first"]


@dataclass(frozen=True)
class Blueprint:
    """The settings and the generator a pipeline is built with, each read once."""

    settings: Settings
    generator: str  # as named, e.g. "tgi" or "repair:local"
    kind: GeneratorKind  # its registration
    argument: str  # the text after "name:"
    threshold: float  # the similarity of the closest stored question the offline adapter declines below
    deadline: float | None  # seconds a question may take in all; None: no deadline
    order: Order  # with a language model backed by the adapter: which of them writes first

    @classmethod
    def of(cls, settings: Settings, generator: str | None = None, min_score: float = MIN_SCORE) -> Blueprint:
        """``generator``, else KGQA_GENERATOR, else TGI when KGQA_TGI_URL is set, else the adapter. ``min_score``: the
        retriever's calibrated threshold (the plain store's by default), used unless KGQA_MIN_SIMILARITY says
        otherwise."""
        name = generator or settings.generator or ("tgi" if settings.tgi_url else "adapter")
        kind, argument = generator_kind(name)
        here = runs_here(kind, argument)
        # KGQA_DEADLINE; for a model run on this machine at least one whole generation (KGQA_LOCAL_TIMEOUT) and 30 s
        # for the rest of the question, so that a CPU model is not cut off by a deadline sized for a GPU server
        deadline = settings.deadline
        if here and deadline:
            deadline = max(deadline, settings.local_timeout + 30.0)
        # KGQA_LLM_ORDER; unset: adapter first for a model run on this machine (a small CPU model: its own queries
        # were the wrong answers on new asks, docs/results/llm.md), the paper's LLM first for a model server
        order: Order = settings.llm_order or ("adapter-first" if here else "llm-first")
        threshold = min_score if settings.min_similarity is None else settings.min_similarity
        return cls(settings, name, kind, argument, threshold, deadline, order)


def runs_here(kind: GeneratorKind, argument: str) -> bool:
    """Whether the generator (through ``repair:``) is a model run on this machine."""
    while kind.argument == "GENERATOR":  # repair:local
        kind, argument = generator_kind(argument)
    return kind.local
