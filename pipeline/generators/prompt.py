"""The paper's few-shot prompt, inside Vicuna's conversation format."""
from __future__ import annotations

from collections.abc import Sequence

from pipeline.question import printable
from pipeline.records import Retrieved
from pipeline.sparql.text import squash

SYSTEM = ("A chat between a curious user and an artificial intelligence assistant. "
          "The assistant gives helpful, detailed, and polite answers to the user's questions.")
TASK = ("Task: Generate SPARQL queries to query the ORKG.\n"
        "Instruction: If you cannot generate a SPARQL query based on the provided examples, explain the reason.\n")
NOTE = "Note: Output only the SPARQL query."
GROUNDED = ("Instruction: Use only the graph's names listed below or in the examples; copy the question's names as "
            "listed.\n")
STOP_SEQUENCES = ["USER:", "\nQuestion:", "</s>"]
READING_TOKENS = 160  # a reading under a JSON schema: a question copied whole ({"same_as": "…"})


def few_shot(question: str, examples: Sequence[Retrieved], graph: str = "") -> str:
    """The paper's template: one `Question: ... \\n Sparql: ...` pair per example, then the question; newlines and
    extra blanks removed (questions by the question normaliser: a '#' in a question is text, not a comment).
    ``graph``: what the graph holds for this question (``pipeline.schema``), put beside the examples."""
    shots = "".join(f"Question: {printable(r.example.question)}\nSparql: {squash(r.example.sparql)}\n"
                    for r in examples)
    grounded = f"{GROUNDED}{graph}" if graph else ""
    return f"{TASK}{grounded}{shots}Question: {printable(question)}\nSparql:\n{NOTE}"


def vicuna(prompt: str) -> str:
    """Wrap a user prompt in the Vicuna v1.1/v1.5 conversation format."""
    return f"{SYSTEM} USER: {prompt} ASSISTANT:"
