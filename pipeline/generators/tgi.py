"""Vicuna (or any model) served by Text Generation Inference, through the text_generation client."""
from __future__ import annotations

import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from typing import Any

from pipeline.errors import GeneratorError, Reason
from pipeline.generators.prompt import READING_TOKENS, STOP_SEQUENCES, few_shot, vicuna
from pipeline.generators.reply import interpret
from pipeline.generators.wire import Table, mapped
from pipeline.records import Generation, Retrieved
from pipeline.schema.grammar import regex
from pipeline.schema.grounding import Constraints, Context, Grounding

RETRIES = 1  # one more try on "overloaded" (503) or a dropped connection; never after a timeout
BACKOFF_S = 0.5


class TGIGenerator:
    """Greedy decoding on a TGI server (the paper's setting)."""

    name = "tgi"
    remote = True  # a server to reach (health reports say so)

    def __init__(self, url: str, timeout: float, max_new_tokens: int, retries: int,
                 grounding: Grounding | None = None) -> None:
        from text_generation import Client

        self.url = url
        self.client = Client(url, timeout=int(max(1, round(timeout))))
        self.max_new_tokens = max_new_tokens
        self.retries = retries
        self.grounding = grounding
        self.constraints = Constraints()

    def complete(self, prompt: str) -> str:
        return self._generate(prompt, self.max_new_tokens, STOP_SEQUENCES, _grammar(self.constraints.of(prompt)))

    def structured(self, prompt: str, schema: dict[str, Any], max_tokens: int = READING_TOKENS) -> str:
        """The model's reply to ``prompt`` (in Vicuna's conversation) held to the JSON ``schema``: TGI's ``grammar``
        of type ``json``."""
        from text_generation.types import Grammar, GrammarType

        return self._generate(vicuna(prompt), max_tokens, ["</s>"], Grammar(type=GrammarType.Json, value=schema))

    def _generate(self, prompt: str, max_tokens: int, stop: list[str], grammar: Any) -> str:
        """Greedy decoding is a pure read, so a retry is safe; it is bounded, and a timeout is never retried."""
        for attempt in range(self.retries + 1):
            try:
                with mapped(_errors(), self.url, "TGI's format"):
                    response = self.client.generate(prompt, max_new_tokens=max_tokens, do_sample=False,
                                                     stop_sequences=stop, grammar=grammar)
            except GeneratorError as exc:
                if attempt < self.retries and exc.reason.transient:
                    time.sleep(BACKOFF_S * 2 ** attempt)
                    continue
                raise
            return str(response.generated_text)
        raise AssertionError("unreachable")

    def ping(self, timeout: float = 2.0) -> bool:
        """True when TGI's ``/health`` says ready."""
        try:
            with urllib.request.urlopen(self.url.rstrip("/") + "/health", timeout=timeout) as response:
                return bool(response.status == 200)
        except (urllib.error.URLError, OSError, ValueError):
            return False

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation:
        context = self.grounding.context(question) if self.grounding is not None else Context()
        prompt = vicuna(few_shot(question, examples, context.text))
        self.constraints.remember(prompt, context.names)
        return interpret(self.complete(prompt), self.name, prompt)

    def follow_up(self, first: Generation, ask: str) -> str:
        """Vicuna's conversation goes on: its reply closed with ``</s>``, then the next USER turn."""
        start = first.prompt if first.prompt.rstrip().endswith("ASSISTANT:") else vicuna(first.prompt)
        return f"{start} {first.raw.strip()}</s>USER: {ask} ASSISTANT:"


def _grammar(names: tuple[str, ...] | None) -> Any:
    """TGI's own constraint (``grammar`` of type ``regex``, text-generation 0.7.0) for ``names``; None: none."""
    if names is None:
        return None
    from text_generation.types import Grammar, GrammarType

    return Grammar(type=GrammarType.Regex, value=regex(names))


def _errors() -> Table:
    """The text_generation client's errors (its own, requests', urllib3's and pydantic's), most telling first."""
    import pydantic
    import requests
    import urllib3
    from text_generation import errors

    return (
        ((urllib3.exceptions.NewConnectionError,), Reason.UNREACHABLE),  # first: urllib3 derives it from a timeout
        ((requests.Timeout, urllib3.exceptions.TimeoutError, TimeoutError, errors.ShardTimeoutError), Reason.TIMEOUT),
        ((errors.OverloadedError,), Reason.OVERLOADED),
        ((requests.exceptions.ChunkedEncodingError,), Reason.FAILED),  # the answer cut midway: not asked again
        ((urllib3.exceptions.ProtocolError, ConnectionResetError, ConnectionAbortedError), Reason.DROPPED),
        ((requests.ConnectionError,), Reason.UNREACHABLE),
        ((errors.ValidationError,), Reason.FAILED),  # the server refused the request's input (422), not a bad reply
        ((pydantic.ValidationError, ValueError), Reason.BAD_REPLY),  # JSON that is not TGI's response, or no JSON
        ((Exception,), Reason.FAILED),
    )
