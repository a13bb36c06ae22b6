"""Vicuna (or any model) served by Text Generation Inference, through the text_generation client."""
from __future__ import annotations

import time
import urllib.error
import urllib.request
from collections.abc import Sequence

from pipeline.errors import GeneratorError, GeneratorTimeout
from pipeline.generators.reply import interpret
from pipeline.generators.prompt import STOP_SEQUENCES, few_shot, vicuna
from pipeline.records import Generation, Retrieved

RETRIES = 1  # one more try on "overloaded" (503) or a dropped connection; never after a timeout
BACKOFF_S = 0.5


class TGIGenerator:
    """Greedy decoding on a TGI server (the paper's setting)."""

    name = "tgi"
    remote = True  # a server to reach (health reports say so)

    def __init__(self, url: str, timeout: float = 60.0, max_new_tokens: int = 512, retries: int = RETRIES) -> None:
        from text_generation import Client

        self.url = url
        self.client = Client(url, timeout=int(max(1, round(timeout))))
        self.max_new_tokens = max_new_tokens
        self.retries = retries

    def complete(self, prompt: str) -> str:
        """Greedy decoding is a pure read, so a retry is safe; it is bounded, and a timeout is never retried."""
        for attempt in range(self.retries + 1):
            try:
                response = self.client.generate(prompt, max_new_tokens=self.max_new_tokens, do_sample=False,
                                                 stop_sequences=STOP_SEQUENCES)
            except Exception as exc:  # text_generation raises its own errors, requests' and pydantic's
                if attempt < self.retries and transient(exc):
                    time.sleep(BACKOFF_S * 2 ** attempt)
                    continue
                raise described(exc, self.url) from exc
            return response.generated_text
        raise AssertionError("unreachable")

    def ping(self, timeout: float = 2.0) -> bool:
        """True when TGI's ``/health`` says ready."""
        try:
            with urllib.request.urlopen(self.url.rstrip("/") + "/health", timeout=timeout) as response:
                return bool(response.status == 200)
        except (urllib.error.URLError, OSError, ValueError):
            return False

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation:
        prompt = vicuna(few_shot(question, examples))
        return interpret(self.complete(prompt), self.name, prompt)

    def follow_up(self, first: Generation, ask: str) -> str:
        """Vicuna's conversation goes on: its reply closed with ``</s>``, then the next USER turn."""
        start = first.prompt if first.prompt.rstrip().endswith("ASSISTANT:") else vicuna(first.prompt)
        return f"{start} {first.raw.strip()}</s>USER: {ask} ASSISTANT:"


def transient(exc: BaseException) -> bool:
    """An overloaded server or a connection dropped mid-request: worth one more try. Timeouts and refusals are not."""
    name = type(exc).__name__
    if name == "OverloadedError":
        return True
    text = str(exc)
    return "Timeout" not in name and any(s in text for s in ("Connection aborted", "RemoteDisconnected",
                                                             "Connection reset"))


def described(exc: Exception, url: str) -> GeneratorError:
    """A client library's error as ours: GeneratorTimeout for a timeout, else GeneratorError, with a human message.
    (The libraries underneath raise many unrelated classes; their names are all they share.)"""
    name = type(exc).__name__
    text = str(exc).splitlines()[0][:200] if str(exc) else ""
    if isinstance(exc, TimeoutError) or "Timeout" in name or "timed out" in text.lower():
        return GeneratorTimeout(f"the language model at {url} did not answer in time")
    if "Connection" in name:
        return GeneratorError(f"the language model at {url} could not be reached")
    if "Validation" in name or "JSON" in name:
        return GeneratorError(f"the language model at {url} sent a reply that is not TGI's format")
    return GeneratorError(f"the language model at {url} failed: {name}" + (f": {text}" if text else ""))
