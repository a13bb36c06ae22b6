"""TGI's wire shapes for the stand-in server in ``tgi.py``: request fields in, response and SSE payloads out.

Field names and layouts follow TGI 2.x and what the ``text_generation`` 0.7 pydantic models and
``huggingface_hub``'s chat-completion types require.
"""

from __future__ import annotations

import json
import time
from typing import Any

from standins._tgi_answers import Finished

MAX_STOP_SEQUENCES = 4  # TGI's default --max-stop-sequences
_EOS = {"id": 2, "text": "</s>", "logprob": -0.0102, "special": True}  # Llama's end-of-sequence token
_FINGERPRINT = "2.4.1-native"


def validate(prompt: str, stop: list[str]) -> str | None:
    """TGI's 422 messages for the checks a client can trip."""
    if not prompt:
        return "`inputs` cannot be empty"
    if len(stop) > MAX_STOP_SEQUENCES:
        return f"`stop` supports up to {MAX_STOP_SEQUENCES} stop sequences. Given: {len(stop)}"
    return None


def generate_request(body: dict[str, Any]) -> tuple[str, list[str], int | None]:
    params = body.get("parameters") or {}
    max_new = params.get("max_new_tokens")
    return str(body.get("inputs") or ""), list(params.get("stop") or []), 100 if max_new is None else int(max_new)


def chat_request(body: dict[str, Any]) -> tuple[str, list[str], int | None]:
    texts = []
    for message in body.get("messages") or []:
        content = message.get("content")
        if isinstance(content, list):  # OpenAI content parts
            content = "".join(part.get("text", "") for part in content if isinstance(part, dict))
        texts.append(content or "")
    stop = body.get("stop") or []
    max_tokens = body.get("max_tokens")
    return "\n".join(texts), [stop] if isinstance(stop, str) else list(stop), max_tokens


def _token(index: int, text: str) -> dict[str, Any]:
    return {"id": 1000 + index, "text": text, "logprob": -0.0513, "special": False}


def _tokens(out: Finished) -> list[dict[str, Any]]:
    tokens = [_token(i, text) for i, text in enumerate(out.tokens)]
    return tokens + [dict(_EOS)] if out.finish_reason == "eos_token" or not tokens else tokens


def response(out: Finished, params: dict[str, Any], prompt: str) -> dict[str, Any]:
    payload: dict[str, Any] = {"generated_text": out.text}
    if not params.get("details"):
        return payload
    tokens = _tokens(out)
    prefill = [{"id": 1, "text": "<s>", "logprob": None}]
    if params.get("decoder_input_details"):
        prefill += [{"id": 2000 + i, "text": w, "logprob": -1.5} for i, w in enumerate(prompt.split())]
    details: dict[str, Any] = {
        "finish_reason": out.finish_reason, "generated_tokens": len(tokens),
        "seed": params.get("seed") if params.get("do_sample") else None, "prefill": prefill, "tokens": tokens,
    }
    if (params.get("best_of") or 1) > 1:
        details["best_of_sequences"] = [
            {"generated_text": out.text, **details} for _ in range(int(params["best_of"]) - 1)
        ]
    payload["details"] = details
    return payload


def stream_events(out: Finished, params: dict[str, Any]) -> list[str]:
    tokens = _tokens(out)
    events = []
    for index, token in enumerate(tokens, start=1):
        event: dict[str, Any] = {"index": index, "token": token, "generated_text": None, "details": None}
        if index == len(tokens):
            event["generated_text"] = out.text
            if params.get("details"):
                seed = params.get("seed") if params.get("do_sample") else None
                event["details"] = {"finish_reason": out.finish_reason, "generated_tokens": len(tokens), "seed": seed}
        events.append(f"data:{json.dumps(event)}\n\n")
    return events


def _chat_reason(out: Finished) -> str:
    return "length" if out.finish_reason == "length" else "stop"


def _chat_head(model_id: str, obj: str) -> dict[str, Any]:
    return {"object": obj, "id": "", "created": int(time.time()), "model": model_id,
            "system_fingerprint": _FINGERPRINT}


def chat_completion(model_id: str, prompt: str, out: Finished) -> dict[str, Any]:
    message = {"role": "assistant", "content": out.text}
    prompt_tokens, completion_tokens = len(prompt.split()), len(_tokens(out))
    return {
        **_chat_head(model_id, "chat.completion"),
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": _chat_reason(out)}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }


def chat_events(model_id: str, out: Finished) -> list[str]:
    texts = list(out.tokens) or [""]
    events = []
    for i, text in enumerate(texts):
        reason = _chat_reason(out) if i == len(texts) - 1 else None
        delta = {"role": "assistant", "content": text, "tool_calls": None}
        choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": reason}
        chunk = {**_chat_head(model_id, "chat.completion.chunk"), "choices": [choice], "usage": None}
        events.append(f"data: {json.dumps(chunk)}\n\n")
    return events + ["data: [DONE]\n\n"]


def info(model_id: str) -> dict[str, Any]:
    return {
        "model_id": model_id, "model_sha": "c4f7c0c2c3a8b1d3e4f5a6b7c8d9e0f1a2b3c4d5", "model_dtype": "torch.float16",
        "model_device_type": "cuda", "model_pipeline_tag": "text-generation", "max_concurrent_requests": 128,
        "max_best_of": 2, "max_stop_sequences": MAX_STOP_SEQUENCES, "max_input_tokens": 4095,
        "max_total_tokens": 4096, "validation_workers": 2, "max_client_batch_size": 4,
        "router": "text-generation-router", "version": "2.4.1", "sha": None, "docker_label": None,
    }


def json_schema(body: dict[str, Any], chat: bool) -> dict[str, Any] | None:
    """The JSON schema a request holds the reply to: OpenAI's ``response_format`` (``json_schema``) on the chat
    route, TGI's ``parameters.grammar`` of type ``json`` on the others; None when unconstrained."""
    if chat:
        form = body.get("response_format") or {}
        found = (form.get("json_schema") or {}).get("schema") if form.get("type") == "json_schema" else None
    else:
        grammar = (body.get("parameters") or {}).get("grammar") or {}
        found = grammar.get("value") if grammar.get("type") == "json" else None
    return found if isinstance(found, dict) else None


def least_instance(schema: dict[str, Any]) -> str:
    """The JSON text of the schema's least instance: an object of its required properties, each its first allowed
    value (``enum``), 0, "" or false by type."""
    def value(part: dict[str, Any]) -> Any:
        if part.get("enum"):
            return part["enum"][0]
        if part.get("type") == "object":
            props = part.get("properties") or {}
            return {name: value(props.get(name) or {}) for name in part.get("required") or []}
        empty: dict[str, Any] = {"integer": 0, "number": 0, "string": "", "boolean": False, "array": []}
        return empty.get(str(part.get("type")))
    return json.dumps(value(schema))
