"""Any OpenAI-compatible chat-completions server (TGI /v1, vLLM, Ollama, llama.cpp), spoken to with the standard
library's HTTP client: nothing between us and a local server has an "offline mode" (huggingface_hub's client
refused every request, loopback included, when HF_HUB_OFFLINE was set to keep models from downloading)."""
from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterable, Sequence
from http.client import HTTPException
from typing import Any

from pipeline.errors import GeneratorError, Reason
from pipeline.generators.prompt import STOP_SEQUENCES, few_shot
from pipeline.generators.reply import interpret
from pipeline.generators.wire import Table, mapped
from pipeline.records import Generation, Retrieved

DEFAULT_MODEL = "tgi"  # any name serves a one-model server (TGI, llama.cpp); others need KGQA_OPENAI_MODEL
_ERRORS: Table = (  # the standard library's HTTP client, most telling first
    ((TimeoutError,), Reason.TIMEOUT),
    ((ConnectionResetError, ConnectionAbortedError, BrokenPipeError), Reason.DROPPED),
    ((urllib.error.URLError,), Reason.UNREACHABLE),
    ((OSError, HTTPException), Reason.FAILED),  # a connection cut mid-answer, an answer that stopped midway
    ((ValueError, KeyError, IndexError, TypeError), Reason.BAD_REPLY),  # not JSON, or not the chat format
)


class OpenAIGenerator:
    """The paper's prompt as one user message; the server applies the model's own chat template."""

    name = "openai"
    remote = True

    def __init__(self, url: str, model: str = "", api_key: str = "", timeout: float = 60.0,
                 max_new_tokens: int = 512, stream: bool = True) -> None:
        self.url = url.rstrip("/")
        self.model = model or DEFAULT_MODEL
        self._api_key = api_key
        self.timeout = timeout
        self.max_new_tokens = max_new_tokens
        self.stream = stream

    def complete(self, prompt: str) -> str:
        body = {"model": self.model, "messages": [{"role": "user", "content": prompt}], "temperature": 0.0,
                "max_tokens": self.max_new_tokens, "stop": STOP_SEQUENCES, "stream": self.stream}
        request = urllib.request.Request(self.url + "/chat/completions", data=json.dumps(body).encode(),
                                         headers=self._headers(), method="POST")
        with mapped(_ERRORS, self.url, "the OpenAI chat format"):
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    return "".join(_streamed(response)) if self.stream else _whole(json.load(response))
            except urllib.error.HTTPError as exc:
                detail = exc.read(300).decode("utf-8", "replace").strip()
                raise GeneratorError(f"the language model at {self.url} failed: HTTP {exc.code}"
                                     + (f": {' '.join(detail.split())[:200]}" if detail else ""),
                                     Reason.OVERLOADED if exc.code in (429, 503) else Reason.FAILED) from exc

    def ping(self, timeout: float = 2.0) -> bool:
        """True when the server answers HTTP at all (``GET /models``; any status: it is there)."""
        request = urllib.request.Request(self.url + "/models", headers=self._headers())
        try:
            with urllib.request.urlopen(request, timeout=timeout):
                return True
        except urllib.error.HTTPError:
            return True
        except (urllib.error.URLError, OSError, HTTPException, ValueError):
            return False

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation:
        prompt = few_shot(question, examples)
        return interpret(self.complete(prompt), self.name, prompt)

    def follow_up(self, first: Generation, ask: str) -> str:
        """One user message again (the server applies the chat template): the first prompt, the reply, the ask."""
        return f"{first.prompt}\nYour answer was:\n{first.raw.strip()}\n{ask}"

    def _headers(self) -> dict[str, str]:
        return {"Content-Type": "application/json", "Accept": "text/event-stream" if self.stream else
                "application/json", "Authorization": f"Bearer {self._api_key or '-'}"}


def _whole(data: dict[str, Any]) -> str:
    return str(data["choices"][0]["message"]["content"] or "")


def _streamed(lines: Iterable[bytes]) -> Iterable[str]:
    """The text of a server-sent event stream of chat chunks, up to ``data: [DONE]``."""
    for raw in lines:
        line = raw.decode("utf-8").strip()
        if not line.startswith("data:"):
            continue
        data = line.removeprefix("data:").strip()
        if data == "[DONE]":
            return
        choices = json.loads(data).get("choices") or []
        if choices and (choices[0].get("delta") or {}).get("content"):
            yield str(choices[0]["delta"]["content"])
    raise HTTPException("the answer stopped midway (no [DONE])")
