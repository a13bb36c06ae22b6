"""A stand-in for Text Generation Inference (TGI) serving Vicuna-13B, for tests.

It speaks TGI's HTTP protocol as the ``text_generation`` 0.7 client and ``huggingface_hub.InferenceClient`` see it:

- ``POST /`` — TGI's compat route: a JSON *list* ``[{"generated_text", "details"}]``, or SSE when ``"stream": true``;
- ``POST /generate`` — one object; ``POST /generate_stream`` — SSE ``data:{"index", "token", "generated_text",
  "details"}`` events, the last carrying the text and details (``details`` only when ``parameters.details`` is true,
  as TGI does);
- ``POST /v1/chat/completions`` — OpenAI chat completions, or ``stream: true`` chunks ending with ``data: [DONE]``;
- ``GET /info``, ``GET /health``.

It answers with the real Vicuna-13B outputs recorded in ``$SEED_DIR`` (``../shared/seed-paper-outputs``): the asked
question is the prompt's last ``Question:``, the shot count the number of examples before it (1, 3 or 5; others use
the 3-shot run). An unknown question gets the first example's SPARQL, as a model copying its nearest example would.
Stop sequences cut the text (the stop sequence is kept, as TGI keeps it); ``max_new_tokens`` counts whitespace words.

Tests script it with ``srv.enqueue(text)`` (next generated texts, FIFO) and ``srv.fault`` / ``srv.set_fault(name,
times=None)``, which apply to every generation route: ``"500"`` (TGI's error JSON, ``error_type`` "generation"),
``"503"`` ("overloaded"), ``"hang"`` (held until ``close()`` drops it, or answered normally after ``hang_seconds``),
``"drop"`` (the connection closed without an answer), ``"garbage"`` (prose, not SPARQL), ``"refusal"`` ("I cannot
generate a SPARQL query ..."), ``"truncated_sse"`` (streams stop after a token or two without the closing chunk; other
routes send half the body they announced), and ``"bad_json"`` (a 200 whose JSON, or first SSE event, is cut in half) and
``"trickle"`` (a stream that sends one event every ``trickle_seconds``, as a slow CPU model writes; a client that leaves
is counted in ``srv.disconnects`` and nothing more is written, as llama.cpp stops a generation nobody reads).
``srv.requests`` holds ``(path, parsed JSON body)`` pairs, ``None`` for GETs, for asserting what the client sent.
A request held to a JSON schema (OpenAI's ``response_format`` of type ``json_schema``, or TGI's ``grammar`` of type
``json``) is answered, when nothing is scripted, with the schema's least instance (each required property's first
allowed value), as a constrained server can only write JSON of that schema; ``srv.respond = fn`` scripts a model by
its prompt (``fn(prompt)`` -> the text, or None for the scripted or usual answer).
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

from standins._tgi_answers import (
    GARBAGE_TEXT,
    REFUSAL_TEMPLATE,
    Finished,
    default_seed_dir,
    finish,
    load_recorded,
    parse_prompt,
)

from . import _tgi_wire as wire
from .loopback import LoopbackServer, QuietServer

MODEL_ID = "lmsys/vicuna-13b-v1.5"
FAULTS = ("500", "503", "hang", "drop", "garbage", "refusal", "truncated_sse", "bad_json", "trickle")
_ERRORS = {  # status, TGI's error JSON; text_generation maps error_type to GenerationError / OverloadedError
    "500": (500, {"error": "Request failed during generation: Server error: CUDA out of memory",
                  "error_type": "generation"}),
    "503": (503, {"error": "Model is overloaded", "error_type": "overloaded"}),
}


class TGIServer(LoopbackServer):
    """TGI on 127.0.0.1, on a free port, in a daemon thread; ready once constructed. Use as a context manager."""

    def __init__(self, seed_dir: Path | None = None, *, model_id: str = MODEL_ID, hang_seconds: float = 30.0) -> None:
        self.model_id = model_id
        self.hang_seconds = hang_seconds  # how long "hang" holds a request before answering normally
        self.trickle_seconds = 0.5  # the gap between two events of a "trickle" stream
        self.slots: int | None = None  # set: ``GET /props`` answers ``total_slots`` as llama.cpp's server does
        self.disconnects = 0  # streams the client left before their end
        self.events_sent = 0  # SSE events written, over every stream
        self.requests: list[tuple[str, Any]] = []
        self._fault: str | None = None
        self._fault_left: int | None = None  # requests the fault still applies to; None = until changed
        self._queue: deque[str] = deque()
        self.respond: Callable[[str], str | None] | None = None
        self._lock = threading.Lock()
        self._recorded = load_recorded((seed_dir or default_seed_dir()).resolve())
        super().__init__(_Handler, "tgi-server")

    @property
    def url(self) -> str:
        return self.base

    @property
    def fault(self) -> str | None:
        return self._fault

    @fault.setter
    def fault(self, name: str | None) -> None:
        self.set_fault(name)

    def set_fault(self, name: str | None, times: int | None = None) -> None:
        """Apply fault ``name`` (one of ``FAULTS``, or None) to the next ``times`` generation requests, or all."""
        if name is not None and name not in FAULTS:
            raise ValueError(f"unknown fault {name!r}; expected one of {FAULTS}")
        with self._lock:
            self._fault, self._fault_left = name, times

    def enqueue(self, *texts: str) -> None:
        """Script the next generated texts, used before any recorded output."""
        with self._lock:
            self._queue.extend(texts)

    def clear_queue(self) -> None:
        """Drop scripted texts not used yet (a wrapper may ask fewer times than were scripted)."""
        with self._lock:
            self._queue.clear()

    # --- used by the handler -------------------------------------------------------------------------------------

    def _record(self, path: str, body: Any) -> None:
        with self._lock:
            self.requests.append((path, body))

    def _take_fault(self) -> str | None:
        with self._lock:
            fault = self._fault
            if fault is not None and self._fault_left is not None:
                self._fault_left -= 1
                if self._fault_left <= 0:
                    self._fault, self._fault_left = None, None
            return fault

    def _generate(self, prompt: str, fault: str | None, stop: list[str], max_new: int | None,
                  schema: dict[str, Any] | None = None) -> Finished:
        parsed = parse_prompt(prompt)
        if fault == "garbage":
            text = GARBAGE_TEXT
        elif fault == "refusal":
            text = REFUSAL_TEMPLATE.format(question=parsed.asked or "the question")
        else:
            scripted = self.respond(prompt) if self.respond is not None else None
            with self._lock:
                queued = self._queue.popleft() if self._queue and scripted is None else None
            given = scripted if scripted is not None else queued
            text = given if given is not None else (
                wire.least_instance(schema) if schema is not None else self._recorded.answer(parsed))
        return finish(text, stop, max_new)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # chunked SSE, so a cut stream is visible to the client as a broken one
    server: QuietServer

    def do_GET(self) -> None:
        tgi = self.server.owner
        tgi._record(self.path, None)
        if self.path == "/health":
            self._send(200, b"", "application/json")
        elif self.path == "/info":
            self._json(200, wire.info(tgi.model_id))
        elif self.path == "/props" and tgi.slots is not None:
            self._json(200, {"total_slots": tgi.slots, "model_path": tgi.model_id})
        else:
            self._json(404, {"error": f"no route {self.path}", "error_type": "not_found"})

    def do_POST(self) -> None:
        tgi = self.server.owner
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            body = json.loads(raw or b"null")
        except ValueError:
            body = raw.decode("utf-8", "replace")
        tgi._record(self.path, body)
        if self.path not in ("/", "/generate", "/generate_stream", "/v1/chat/completions"):
            self._json(404, {"error": f"no route {self.path}", "error_type": "not_found"})
        elif not isinstance(body, dict):
            self._json(422, {"error": "Failed to deserialize the JSON body", "error_type": "validation"})
        else:
            self._answer(tgi, body)

    def _answer(self, tgi: TGIServer, body: dict[str, Any]) -> None:
        chat = self.path == "/v1/chat/completions"
        prompt, stop, max_new = wire.chat_request(body) if chat else wire.generate_request(body)
        stream = self.path == "/generate_stream" or (self.path != "/generate" and bool(body.get("stream")))
        invalid = wire.validate(prompt, stop)
        if invalid:
            self._json(422, {"error": invalid, "error_type": "validation"})
            return
        fault = tgi._take_fault()
        if fault in _ERRORS:
            self._json(*_ERRORS[fault])
            return
        if fault == "drop":  # the connection cut before any answer (a proxy restarting, say)
            self.close_connection = True
            return
        if fault == "hang" and tgi._closed.wait(tgi.hang_seconds):
            self.close_connection = True  # the server is closing: drop the request unanswered
            return
        out = tgi._generate(prompt, fault, stop, max_new, wire.json_schema(body, chat))
        params = body.get("parameters") or {}
        if params.get("return_full_text"):
            out = Finished(prompt + out.text, out.tokens, out.finish_reason)
        if stream:
            self._sse(wire.chat_events(tgi.model_id, out) if chat else wire.stream_events(out, params), fault)
            return
        payload: Any = wire.chat_completion(tgi.model_id, prompt, out) if chat else wire.response(out, params, prompt)
        data = json.dumps([payload] if self.path == "/" else payload).encode()
        if fault in ("bad_json", "truncated_sse"):
            # bad_json: a complete 200 whose body is half a JSON document; truncated: promise it all, hang up halfway.
            length = len(data) if fault == "truncated_sse" else None
            self._send(200, data[: len(data) // 2], "application/json", length=length)
        else:
            self._send(200, data, "application/json")

    # --- writing ---------------------------------------------------------------------------------------------------

    def _json(self, status: int, payload: Any) -> None:
        self._send(status, json.dumps(payload).encode(), "application/json")

    def _send(self, status: int, data: bytes, content_type: str, length: int | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data) if length is None else length))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)

    def _sse(self, events: list[str], fault: str | None) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Connection", "close")
        self.end_headers()
        if fault == "truncated_sse":
            events = events[:2] if len(events) > 3 else events[:1]
        elif fault == "bad_json":
            events = [events[0][: len(events[0]) // 2] + "\n\n"]
        tgi = self.server.owner
        for event in events:
            data = event.encode()
            if fault == "trickle" and tgi._closed.wait(tgi.trickle_seconds):
                return
            try:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                self.wfile.flush()
            except OSError:  # the client left: stop writing, as a real server stops generating
                with tgi._lock:
                    tgi.disconnects += 1
                self.close_connection = True
                return
            with tgi._lock:
                tgi.events_sent += 1
        if fault != "truncated_sse":  # a cut stream never sends the last chunk
            self.wfile.write(b"0\r\n\r\n")
        self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: tests assert on ``requests``, not on stderr."""
