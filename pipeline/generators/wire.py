"""A model server's client errors mapped to ours by type where they enter, one table per client (as httpx maps its
transport's exceptions): the first row whose types match the error, or an error it was raised from, gives the
reason; the reason gives the message. Nothing here reads an error's class name or text to decide."""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from pipeline.errors import GeneratorError, GeneratorTimeout, Reason

Table = Sequence[tuple[tuple[type[BaseException], ...], Reason]]
_SYSTEM = ("builtins", "socket", "ssl", "http.client")  # the system's own words on a connection (not a wrapper's)


def chain(exc: BaseException, limit: int = 12) -> list[BaseException]:
    """``exc`` and what it was raised from or wraps (``__cause__``, ``__context__``, a ``reason``, its arguments)."""
    seen: list[BaseException] = []
    todo: list[BaseException | None] = [exc]
    while todo and len(seen) < limit:
        e = todo.pop(0)
        if e is None or any(e is s for s in seen):
            continue
        seen.append(e)
        reason = getattr(e, "reason", None)
        todo += [e.__cause__, e.__context__, reason if isinstance(reason, BaseException) else None,
                 *(a for a in e.args if isinstance(a, BaseException))]
    return seen


def classify(exc: BaseException, table: Table) -> Reason | None:
    """The reason of the first row that matches ``exc`` or an error in its chain; None when no row does."""
    errors = chain(exc)
    return next((reason for types, reason in table if any(isinstance(e, types) for e in errors)), None)


def generator_error(exc: BaseException, reason: Reason, url: str, protocol: str) -> GeneratorError:
    """Our error for ``exc``, with a message a person can read (no secrets: the URL is the configured one)."""
    where = f"the language model at {url}"
    if reason is Reason.TIMEOUT:
        return GeneratorTimeout(f"{where} did not answer in time")
    if reason in (Reason.UNREACHABLE, Reason.DROPPED):
        system = next((e for e in chain(exc) if isinstance(e, OSError) and type(e).__module__ in _SYSTEM), None)
        return GeneratorError(f"{where} could not be reached" + (f" ({system})" if system else ""), reason)
    if reason is Reason.BAD_REPLY:
        return GeneratorError(f"{where} sent a reply that is not {protocol}", reason)
    text = str(exc).splitlines()[0][:200] if str(exc) else ""
    return GeneratorError(f"{where} failed: {type(exc).__name__}" + (f": {text}" if text else ""), reason)


@contextmanager
def mapped(table: Table, url: str, protocol: str) -> Iterator[None]:
    """Errors raised inside, mapped by ``table`` (ours pass through; one no row matches is a bug: it propagates)."""
    try:
        yield
    except GeneratorError:
        raise
    except Exception as exc:
        reason = classify(exc, table)
        if reason is None:
            raise
        raise generator_error(exc, reason, url, protocol) from exc
