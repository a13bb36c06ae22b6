"""Prompt tokens of the model as a reader against the paper's SPARQL prompt, per question of a set, counted by the
local model's own tokenizer (its llama.cpp server's /tokenize). Starts the local model (one slot); run it alone.

    KGQA_HOME=H SCIQA_DIR=S python scripts/reader_tokens.py KG SET     # e.g. sciqa final
"""
from __future__ import annotations

import json
import statistics
import sys
import urllib.request

from pipeline.eval.questions import load_questions
from pipeline.factory import build_pipeline
from pipeline.generators.prompt import few_shot
from pipeline.intent import reader
from pipeline.sciqa import sciqa_for
from pipeline.settings import Settings


def main(kg: str, path: str) -> dict[str, object]:
    settings = Settings.from_env(generator="local", local_model="qwen2.5-coder-1.5b", llm_reader=True,
                                 llm_fallback="none", kg=kg, local_slots=1)
    pipe = build_pipeline(settings)
    read = pipe.writers[0].generator
    assert isinstance(read, reader.ReaderGenerator), "the reader is the first writer when KGQA_LLM_READER is on"
    url = pipe.generator.server.url()  # type: ignore[attr-defined]

    def tokens(text: str) -> int:
        asked = urllib.request.Request(url + "/tokenize", data=json.dumps({"content": text}).encode(),
                                       headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(asked) as reply:
            return len(json.load(reply)["tokens"])

    asked = load_questions(path, sciqa_for(settings))
    written, reading = [], []
    try:
        for q in asked:
            examples = pipe.lookup(q.question, settings.shots)
            written.append(tokens(few_shot(q.question, examples)))
            shown, _ = read.shown(q.question, examples)  # exactly what the reader would show the model
            if shown:
                reading.append(tokens(reader.prompt(q.question, shown)))
    finally:
        pipe.generator.server.stop()  # type: ignore[attr-defined]
    return {"set": path, "n": len(asked), "sparql_prompt_p50": statistics.median(written),
            "reader_asked": len(reading), "reader_prompt_p50": statistics.median(reading) if reading else 0,
            "reader_prompt_max": max(reading, default=0)}


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], sys.argv[2])))
