"""How result terms read in words: an IRI's short name, and which variables hold the labels of which."""
from __future__ import annotations

LABEL_SUFFIXES = ("_lbl", "_label", "Label", "_name", "_title")


def short_name(iri: str) -> str:
    """The last path or fragment segment of an IRI, for a link's label."""
    tail = iri.rstrip("/#").rsplit("#", 1)[-1].rsplit("/", 1)[-1]
    return tail or iri


def label_columns(vars_: list[str]) -> dict[str, str]:
    """Variable -> the variable holding its label (``?model`` -> ``?model_lbl``), as SciQA's queries name them."""
    out: dict[str, str] = {}
    for v in vars_:
        for suffix in LABEL_SUFFIXES:
            if v + suffix in vars_ and v + suffix not in out.values():
                out[v] = v + suffix
                break
    return out
