"""``--generator local``: a GGUF model served by llama.cpp on this machine (``pipeline.generators.llamacpp``), spoken
to as any OpenAI-compatible server, so the prompt, the reply's reading and its checks are the same."""
from __future__ import annotations

import threading
from http.client import HTTPException
from pathlib import Path

from pipeline.errors import GeneratorError, ModelUnavailable
from pipeline.generators.gguf import read_model
from pipeline.generators.llamacpp import LlamaServer, ServerConfig
from pipeline.generators.openai import OpenAIGenerator
from pipeline.schema.grounding import Grounding

_SERVERS: dict[ServerConfig, LlamaServer] = {}
_SERVERS_LOCK = threading.Lock()


def shared_server(config: ServerConfig, log_path: Path | None = None) -> LlamaServer:
    """The one server per model and configuration in this process (every pipeline and worker shares it)."""
    with _SERVERS_LOCK:
        if config not in _SERVERS:
            _SERVERS[config] = LlamaServer(config, log_path)
        return _SERVERS[config]


def stop_servers() -> None:
    """Stop every model server this process started (a benchmark between configurations; a process's exit)."""
    with _SERVERS_LOCK:
        servers = list(_SERVERS.values())
        _SERVERS.clear()
    for server in servers:
        server.stop()


class EmbeddedLlamaGenerator(OpenAIGenerator):
    """The paper's prompt through the model's own chat template; the server starts at the first question."""

    name = "local"
    remote = False

    def __init__(self, server: LlamaServer, timeout: float, max_new_tokens: int,
                 grounding: Grounding | None = None) -> None:
        super().__init__("", Path(server.config.model).name, None, timeout=timeout, max_new_tokens=max_new_tokens,
                         stream=True, grounding=grounding)
        self.server = server

    def base(self) -> str:
        self.url = self.server.url() + "/v1"
        return self.url

    def broken(self, exc: Exception, url: str) -> GeneratorError:
        """A request cut because the server died is the model being unavailable, said with how it died."""
        if isinstance(exc, (OSError, HTTPException)) and not isinstance(exc, TimeoutError) and self.server.died():
            return ModelUnavailable(f"the local model server stopped mid-answer ({self.server.exit_reason()}); "
                                    "it starts again for the next question")
        return super().broken(exc, url)

    @property
    def slots(self) -> int:
        return self.server.config.slots

    def ping(self, timeout: float = 2.0) -> bool:
        """Ready when its server runs, or when its model file checks out (the server starts at the next question)."""
        if self.server.running():
            return super().ping(timeout)
        try:
            read_model(Path(self.server.config.model))
        except ModelUnavailable:
            return False
        return True
