"""Cheap reachability probes of a pipeline's parts, side by side, each cut off after a timeout: the store counts its
pairs; the generator and the KG answer their ``ping``; ``remote`` says whether there is a server behind it."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from pipeline.parts import ExampleStore, Generator, KnowledgeGraph, is_remote

Probe = Callable[[Any, float], dict[str, Any]]
Found = dict[str, tuple[dict[str, Any] | BaseException, float]]


def counted(store: Any, timeout: float) -> dict[str, Any]:
    """The store's probe: it answers with its number of pairs (none stored is not ready)."""
    pairs = int(store.count())
    return {"ok": bool(pairs), "pairs": pairs}


def pinged(part: Any, timeout: float) -> dict[str, Any]:
    """A generator's or a KG's probe: its ``ping``, and whether there is a server behind it."""
    return {"ok": bool(part.ping(timeout)), "remote": is_remote(part)}


def _probe(part: str, obj: Any, check: Probe, timeout: float, found: Found) -> None:
    """One health probe; what it reports or the exception it raised, and how long it took."""
    started = time.monotonic()
    try:
        value: dict[str, Any] | BaseException = check(obj, timeout)
    except Exception as exc:  # a probe reports, it does not raise
        value = exc
    found[part] = (value, (time.monotonic() - started) * 1000)


def health(store: ExampleStore, generator: Generator, kg: KnowledgeGraph,
           timeout: float = 2.0) -> dict[str, dict[str, Any]]:
    """Each part's report (``name``, ``ms``, ``ok`` and what its probe says, or ``error``), under "store",
    "generator" and "kg"; a probe stuck past its timeout is reported as such and left behind, never waited for."""
    parts: dict[str, tuple[Any, Probe]] = {"store": (store, counted), "generator": (generator, pinged),
                                           "kg": (kg, pinged)}
    found: Found = {}
    threads = [threading.Thread(target=_probe, args=(part, obj, check, timeout, found), daemon=True,
                                name=f"kgqa-probe-{part}") for part, (obj, check) in parts.items()]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:  # daemon threads: a probe stuck past its timeout is left behind, never waited for
        thread.join(max(0.0, timeout + 0.5 - (time.monotonic() - started)))
    out: dict[str, dict[str, Any]] = {}
    for part, (obj, _) in parts.items():
        value, ms = found.get(part, (TimeoutError(f"no answer in {timeout:g} s"), timeout * 1000))
        report: dict[str, Any] = {"name": getattr(obj, "name", type(obj).__name__), "ms": round(ms, 1)}
        if isinstance(value, BaseException):
            report.update(ok=False, error=str(value) or type(value).__name__)
        else:
            report.update(value)
        out[part] = report
    return out
