"""Any OpenAI-compatible chat-completions server (TGI /v1, vLLM, Ollama, llama.cpp) via huggingface_hub."""
from __future__ import annotations

from collections.abc import Sequence

from pipeline.generators.reply import interpret
from pipeline.generators.tgi import described
from pipeline.generators.prompt import STOP_SEQUENCES, few_shot
from pipeline.records import Generation, Retrieved


class OpenAIGenerator:
    """The paper's prompt as one user message; the server applies the model's own chat template."""

    name = "openai"
    remote = True

    def __init__(self, url: str, model: str = "", api_key: str = "", timeout: float = 60.0,
                 max_new_tokens: int = 512, stream: bool = True) -> None:
        from huggingface_hub import InferenceClient

        self.url = url
        self.model = model
        self.client = InferenceClient(base_url=url, api_key=api_key or "-", timeout=timeout)
        self.max_new_tokens = max_new_tokens
        self.stream = stream

    def complete(self, prompt: str) -> str:
        messages = [{"role": "user", "content": prompt}]
        try:
            if not self.stream:
                out = self.client.chat_completion(messages, model=self.model or None, max_tokens=self.max_new_tokens,
                                                  temperature=0.0, stop=STOP_SEQUENCES)
                return out.choices[0].message.content or ""
            parts = []
            for chunk in self.client.chat_completion(messages, model=self.model or None, stream=True,
                                                     max_tokens=self.max_new_tokens, temperature=0.0,
                                                     stop=STOP_SEQUENCES):
                if chunk.choices and chunk.choices[0].delta.content:
                    parts.append(chunk.choices[0].delta.content)
            return "".join(parts)
        except Exception as exc:
            raise described(exc, self.url) from exc

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation:
        prompt = few_shot(question, examples)
        return interpret(self.complete(prompt), self.name, prompt)

    def follow_up(self, first: Generation, ask: str) -> str:
        """One user message again (the server applies the chat template): the first prompt, the reply, the ask."""
        return f"{first.prompt}\nYour answer was:\n{first.raw.strip()}\n{ask}"
