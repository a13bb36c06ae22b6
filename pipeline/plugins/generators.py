"""The built-in generators: TGI, an OpenAI-compatible server, a local GGUF model, the offline adapter, a recorded
file, and `repair:` (another generator taken as a language model: its replies checked and re-asked)."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pipeline.errors import ConfigError
from pipeline.parts import Generator
from pipeline.registry import GeneratorKind, Wiring, generator_kind, register_generator
from pipeline.sciqa import sciqa_for
from pipeline.settings import revealed


def _tgi(w: Wiring) -> Generator:
    if not w.settings.tgi_url:
        raise ConfigError("the tgi generator needs KGQA_TGI_URL (e.g. http://gpu-box:8080)")
    from pipeline.generators.tgi import RETRIES, TGIGenerator

    return TGIGenerator(w.settings.tgi_url, w.settings.tgi_timeout, w.settings.max_new_tokens, RETRIES)


def _openai(w: Wiring) -> Generator:
    s = w.settings
    url = s.openai_url or (s.tgi_url.rstrip("/") + "/v1" if s.tgi_url else "")
    if not url:
        raise ConfigError("the openai generator needs KGQA_OPENAI_URL (e.g. http://localhost:8000/v1)")
    from pipeline.generators.openai import OpenAIGenerator

    return OpenAIGenerator(url, s.openai_model, revealed(s.openai_api_key), timeout=s.tgi_timeout,
                           max_new_tokens=s.max_new_tokens, stream=True)


def _local_llm(w: Wiring) -> Generator:
    s = w.settings
    if not s.local_model:
        raise ConfigError("the local generator needs KGQA_LOCAL_MODEL: a .gguf file, or a model name "
                          "`kgqa models list` shows")
    from pipeline.generators.embedded import EmbeddedLlamaGenerator, shared_server
    from pipeline.generators.llamacpp import ServerConfig
    from pipeline.generators.weights import model_path

    config = ServerConfig.of(s, str(model_path(s.local_model, s.models_dir)))
    return EmbeddedLlamaGenerator(shared_server(config, s.home / "logs" / "local-llm.log"), s.local_timeout,
                          s.max_new_tokens)


def _adapter(w: Wiring) -> Generator:
    from pipeline.generators.adapter import AdapterGenerator

    return AdapterGenerator(w.threshold, w.knowledge)


def _replay(w: Wiring) -> Generator:
    from pipeline.generators.replay import ReplayGenerator

    data = sciqa_for(w.settings)
    texts = {r.id: r.question for r in data.all()}
    for phase in ("dev", "final"):
        texts.update(dict(data.challenge(phase)))
    return ReplayGenerator(Path(w.argument), texts)


def _repair(w: Wiring) -> Generator:
    """Another generator as it is; its registration (``llm``) has the check loop read and re-ask its replies."""
    kind, argument = generator_kind(w.argument)
    return kind.build(replace(w, argument=argument))


register_generator(GeneratorKind("tgi", _tgi, "Vicuna via Text Generation Inference (KGQA_TGI_URL)", llm=True))
register_generator(GeneratorKind("openai", _openai, "any OpenAI-compatible chat server (KGQA_OPENAI_URL)", llm=True))
register_generator(GeneratorKind("local", _local_llm, "a GGUF model run here by llama.cpp (KGQA_LOCAL_MODEL)",
                                 llm=True, local=True))
register_generator(GeneratorKind("adapter", _adapter, "offline: the nearest stored query, its labels refilled"))
register_generator(GeneratorKind("replay", _replay, "a recorded [{\"id\", \"sparql\"}] file", argument="PATH"))
register_generator(GeneratorKind("repair", _repair, "another generator, its replies checked and re-asked",
                                 argument="GENERATOR", llm=True))
