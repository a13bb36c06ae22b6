"""Any OpenAI-compatible chat-completions server (TGI /v1, vLLM, Ollama, llama.cpp), spoken to with the standard
library's HTTP client: nothing between us and a local server has an "offline mode" (huggingface_hub's client
refused every request, loopback included, when HF_HUB_OFFLINE was set to keep models from downloading)."""
from __future__ import annotations

import json
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from http.client import HTTPConnection, HTTPException, HTTPResponse, HTTPSConnection
from typing import Any
from urllib.parse import urlsplit

from pipeline.deadline import Stage, current
from pipeline.errors import DeadlinePassed, GeneratorError, PromptTooLong, Reason
from pipeline.generators.prompt import READING_TOKENS, STOP_SEQUENCES, few_shot
from pipeline.generators.reply import interpret
from pipeline.generators.wire import Table, classify, generator_error
from pipeline.records import Generation, Retrieved
from pipeline.schema.grammar import gbnf
from pipeline.schema.grounding import Constraints, Context, Grounding

PROTOCOL = "the OpenAI chat format"
_ERRORS: Table = (  # the standard library's HTTP client, most telling first
    ((TimeoutError,), Reason.TIMEOUT),
    ((ConnectionResetError, ConnectionAbortedError, BrokenPipeError), Reason.DROPPED),
    ((urllib.error.URLError,), Reason.UNREACHABLE),
    ((OSError, HTTPException), Reason.FAILED),  # a connection cut mid-answer, an answer that stopped midway
    ((ValueError, KeyError, IndexError, TypeError), Reason.BAD_REPLY),  # not JSON, or not the chat format
)
GIVEN_UP = "the question's time ran out while the model was writing; the server was told to stop"


class OpenAIGenerator:
    """The paper's prompt as one user message; the server applies the model's own chat template.

    ``timeout`` bounds one request in all (a stream that writes on past it is cut). When the question gives up on the
    request (its deadline, ``pipeline.deadline``), the connection is shut at once: llama.cpp, vLLM and TGI
    stop generating for a client that is gone, so an abandoned answer does not keep a server slot busy."""

    name = "openai"
    remote = True

    def __init__(self, url: str, model: str, api_key: str | None, *, timeout: float, max_new_tokens: int,
                 stream: bool, grounding: Grounding | None = None) -> None:
        """``model``: any name serves a one-model server (TGI, llama.cpp); ``api_key`` None: the server needs none;
        ``grounding``: the graph's schema, linked names and grammar for each question (``pipeline.schema``)."""
        self.url = url.rstrip("/")
        self.model = model
        self._api_key = api_key
        self.timeout = timeout
        self.max_new_tokens = max_new_tokens
        self.stream = stream
        self.grounding = grounding
        self.constraints = Constraints()

    def base(self) -> str:
        """The server's ``…/v1`` URL (a local server is started here)."""
        return self.url

    def complete(self, prompt: str) -> str:
        return self._chat(prompt, {"max_tokens": self.max_new_tokens, "stop": STOP_SEQUENCES,
                                   **self.constrained(self.constraints.of(prompt))})

    def structured(self, prompt: str, schema: dict[str, Any], max_tokens: int = READING_TOKENS) -> str:
        """The model's reply to ``prompt`` held to the JSON ``schema`` (OpenAI's structured outputs, which llama.cpp,
        vLLM and TGI's ``/v1`` read as a constraint on decoding)."""
        return self._chat(prompt, {"max_tokens": max_tokens, "response_format": {
            "type": "json_schema", "json_schema": {"name": "reading", "schema": schema, "strict": True}}})

    def _chat(self, prompt: str, options: dict[str, Any]) -> str:
        """One user message, greedy; ``options``: the request's length, stops and constraint."""
        stage = current()
        if stage is not None:
            if stage.abandoned:
                raise DeadlinePassed(GIVEN_UP)
            stage.sent(prompt)
        body = {"model": self.model, "messages": [{"role": "user", "content": prompt}], "temperature": 0.0,
                "stream": self.stream, **options}
        url = self.base()
        conn = _connection(url, self.timeout)
        forget: Callable[[], None] = lambda: None  # noqa: E731
        try:
            try:
                conn.connect()
            except OSError as exc:
                if isinstance(exc, TimeoutError):
                    raise
                raise GeneratorError(f"the language model at {url} could not be reached "
                                     f"({exc.strerror or exc})", Reason.UNREACHABLE) from exc
            if stage is not None and conn.sock is not None:  # (the response takes the socket over from conn)
                forget = stage.on_abandon(partial(_cut, conn.sock))
            conn.request("POST", urlsplit(url).path + "/chat/completions", body=json.dumps(body).encode(),
                         headers=self._headers())
            with conn.getresponse() as response:  # closed with the connection: the socket really goes
                if response.status >= 400:
                    raise _refusal(url, response)
                if not self.stream:
                    return _whole(json.load(response))
                return "".join(_streamed(response, time.monotonic() + self.timeout, stage))
        except GeneratorError:
            raise
        except (OSError, HTTPException) as exc:  # a timeout while reading, a connection cut mid-answer
            if stage is not None and stage.abandoned:
                raise DeadlinePassed(GIVEN_UP) from exc
            raise self.broken(exc, url) from exc
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise generator_error(exc, Reason.BAD_REPLY, url, PROTOCOL) from exc
        finally:
            forget()
            conn.close()

    def broken(self, exc: Exception, url: str) -> GeneratorError:
        """The error for a request that broke off (a local server tells whether it died)."""
        return generator_error(exc, classify(exc, _ERRORS) or Reason.FAILED, url, PROTOCOL)

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

    @property
    def slots(self) -> int | None:
        """How many answers the server writes at once, where it says (llama.cpp's ``/props``), else None."""
        request = urllib.request.Request(self.url.removesuffix("/v1") + "/props", headers=self._headers())
        try:
            with urllib.request.urlopen(request, timeout=2.0) as response:
                slots = json.load(response).get("total_slots")
        except (urllib.error.URLError, OSError, HTTPException, ValueError, AttributeError):
            return None
        return slots if isinstance(slots, int) else None

    def constrained(self, names: tuple[str, ...] | None) -> dict[str, Any]:
        """The request's fields that hold decoding to ``names``: llama.cpp's ``grammar`` (GBNF), which its
        OpenAI-compatible server reads; nothing when unconstrained."""
        return {"grammar": gbnf(names)} if names is not None else {}

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation:
        context = self.grounding.context(question) if self.grounding is not None else Context()
        prompt = few_shot(question, examples, context.text)
        self.constraints.remember(prompt, context.names)
        return interpret(self.complete(prompt), self.name, prompt)

    def follow_up(self, first: Generation, ask: str) -> str:
        """One user message again (the server applies the chat template): the first prompt, the reply, the ask."""
        return f"{first.prompt}\nYour answer was:\n{first.raw.strip()}\n{ask}"

    def _headers(self) -> dict[str, str]:
        return {"Content-Type": "application/json", "Accept": "text/event-stream" if self.stream else
                "application/json", "Authorization": f"Bearer {self._api_key if self._api_key is not None else '-'}"}


def _whole(data: dict[str, Any]) -> str:
    return str(data["choices"][0]["message"]["content"] or "")


def _connection(url: str, timeout: float) -> HTTPConnection:
    parts = urlsplit(url)
    kind = HTTPSConnection if parts.scheme == "https" else HTTPConnection
    return kind(parts.hostname or "localhost", parts.port, timeout=timeout)


def _cut(sock: socket.socket) -> None:
    """Shut the socket from another thread: a read blocked on it returns at once, and the server sees the client
    leave."""
    sock.shutdown(socket.SHUT_RDWR)


def _refusal(url: str, response: HTTPResponse) -> GeneratorError:
    """An HTTP error as one line; llama.cpp's "exceeds the available context size" as what to do about it."""
    detail = response.read(2000).decode("utf-8", "replace").strip()
    try:
        error = json.loads(detail).get("error") or {}
    except (ValueError, AttributeError):
        error = {}
    if isinstance(error, dict) and error.get("type") == "exceed_context_size_error":
        return PromptTooLong(f"the prompt ({error.get('n_prompt_tokens', '?')} tokens) is longer than the model's "
                             f"context ({error.get('n_ctx', '?')} tokens): raise KGQA_LOCAL_CONTEXT or use fewer shots")
    message = error.get("message") if isinstance(error, dict) else None
    text = " ".join(str(message or detail).split())[:200]
    return GeneratorError(f"the language model at {url} failed: HTTP {response.status}" + (f": {text}" if text else ""),
                          Reason.OVERLOADED if response.status in (429, 503) else Reason.FAILED)


def _streamed(lines: Iterable[bytes], until: float, stage: Stage | None = None) -> Iterator[str]:
    """The text of a server-sent event stream of chat chunks, up to ``data: [DONE]``; a stream still going at
    ``until`` (monotonic) is a timeout."""
    for raw in lines:
        if time.monotonic() > until:
            raise TimeoutError("the answer took longer than the timeout")
        line = raw.decode("utf-8").strip()
        if not line.startswith("data:"):
            continue
        data = line.removeprefix("data:").strip()
        if data == "[DONE]":
            return
        choices = json.loads(data).get("choices") or []
        if choices and (choices[0].get("delta") or {}).get("content"):
            text = str(choices[0]["delta"]["content"])
            if stage is not None:
                stage.streamed(text)
            yield text
    raise HTTPException("the answer stopped midway (no [DONE])")
