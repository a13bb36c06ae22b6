"""Repairing what a language model wrote: a chain of small pure steps (safe syntax fixes, a parse, the stored
vocabulary, label literals against the question) returning a record, and a Generator wrapper that re-asks the model
once with the parser's error and falls back to the offline adapter when the model fails or stays invalid twice."""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from rapidfuzz import fuzz, process

from pipeline.errors import GeneratorError, GeneratorTimeout, ModelUnavailable, PromptTooLong
from pipeline.matching.forms import Labels
from pipeline.generators.reply import interpret
from pipeline.parts import Generator, GeneratorWrapper, Reaskable
from pipeline.generators.prompt import NOTE
from pipeline.generators.stage import current
from pipeline.names.vocabulary import unknown, used_names
from pipeline.records import Ask, Attempt, Generation, Retrieved, Verdict
from pipeline.sparql.literal import quoted
from pipeline.sparql.scope import selected_but_unbound
from pipeline.sparql.text import string_literals, syntax_errors, tokenize

_TERMS = frozenset({"var", "pname", "iri", "string", "number"})
CLOSE_NAME = 80.0  # rapidfuzz ratio (0-100) from which a stored name is offered for an unknown one


@dataclass(frozen=True)
class Rejection:
    """Why a model's query was not taken (``str``), what the model is told when asked again, and the note then."""

    reason: str
    ask: str
    note: str
    verdict: Verdict = Verdict.SYNTAX

    @property
    def follow_up(self) -> Ask:
        """The follow-up the model is sent about it."""
        return _FOLLOW_UPS.get(self.verdict, Ask.SYNTAX)

    def __str__(self) -> str:
        return self.reason


@dataclass(frozen=True)
class Repair:
    """What checking a generated query found: the query to run, errors left, and notes on what was done."""

    original: str
    fixed: str
    errors: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.errors


_FOLLOW_UPS = {Verdict.VOCABULARY: Ask.VOCABULARY, Verdict.UNBOUND: Ask.UNBOUND}
_MODIFIER = re.compile(r"\b(?:GROUP\s+BY|ORDER\s+BY|HAVING|LIMIT|OFFSET)\b", re.IGNORECASE)


def balance_braces(query: str) -> str:
    """Close braces left open — before the solution modifiers (GROUP BY, ORDER BY, HAVING, LIMIT, OFFSET) that end
    the query, where the group pattern ended, else at the end; drop closing braces that close nothing."""
    out: list[str] = []
    depth, last_brace = 0, -1
    for m in re.finditer(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|<[^<>\s]*>|#[^\n]*|[{}]|[^{}"\'<#]+|.', query):
        t = m.group()
        if t == "{":
            depth += 1
        elif t == "}":
            if depth == 0:
                continue
            depth -= 1
        if t in ("{", "}"):
            last_brace = len(out)
        out.append(t)
    head, tail = "".join(out[:last_brace + 1]), "".join(out[last_brace + 1:])
    modifiers = _MODIFIER.search(tail) if depth else None
    if modifiers:
        return f"{head}{tail[:modifiers.start()].rstrip()}{' }' * depth} {tail[modifiers.start():].strip()}"
    return "".join(out).rstrip() + " }" * depth


def add_missing_dots(query: str) -> str:
    """Insert the '.' a model forgot between two triple patterns (a fourth term where a triple already ended)."""
    toks = tokenize(query)
    out: list[str] = []
    run = 0  # terms since the last separator
    for tok in toks:
        if tok.kind in _TERMS or (tok.kind == "word" and tok.text == "a"):
            if run == 3:
                out.append(".")
                run = 0
            run += 1
        elif tok.text in (";",):
            run = 1
        elif tok.text in (",",):
            run = 2
        else:
            run = 0
        out.append(tok.text)
    return " ".join(out)


def unknown_names(query: str, vocabulary: set[str] | frozenset[str]) -> list[str]:
    """Prefixed names from the ORKG namespaces that no stored query uses, each with the closest known one."""
    notes = []
    for name in used_names(query):
        if name in vocabulary:
            continue
        # the last in order among equally close ones, as difflib.get_close_matches offered them before
        close = process.extractOne(name, sorted(vocabulary, reverse=True), scorer=fuzz.ratio, score_cutoff=CLOSE_NAME)
        notes.append(f"{name} is used by no stored query" + (f" (did you mean {close[0]}?)" if close else ""))
    return notes


def _squeeze(text: str) -> str:
    return re.sub(r"['’`]", "", " ".join(text.lower().split()))


def repair_labels(query: str, question: str, labels: Labels | None = None) -> tuple[str, list[str]]:
    """Label literals that differ from a span of the question only in blanks, case or an apostrophe take the
    question's spelling (its blanks collapsed); one the stored queries spell with other blanks (' Jacquard dataset')
    takes theirs."""
    notes = []
    for literal in dict.fromkeys(string_literals(query)):
        if len(literal.strip()) < 2:
            continue
        hit = literal if literal in question else _span_like(literal, question)
        if hit is None:
            continue
        stored = labels.spelling(hit) if labels is not None else None
        new = stored if stored is not None and " ".join(stored.split()) == " ".join(hit.split()) else hit
        if new != literal:
            query = query.replace(f'"{literal}"', quoted(new))
            notes.append(f"wrote the label '{new}' for '{literal}', as the question (or the store) spells it")
    return query, notes


def _span_like(literal: str, question: str) -> str | None:
    """The words of the question equal to ``literal`` up to blanks, case and apostrophes."""
    words = question.split()
    target = _squeeze(literal)
    size = len(literal.split())
    for n in (size, size + 1, size - 1):  # an apostrophe or blank may join or split words
        for i in range(max(0, len(words) - n + 1) if n > 0 else 0):
            span = " ".join(words[i:i + n]).strip("?!.,;:\"'")
            if _squeeze(span) == target:
                return span
    return None


def check(query: str, question: str, vocabulary: set[str] | frozenset[str] = frozenset(),
          labels: Labels | None = None) -> Repair:
    """The repair chain: parse; on a syntax error try the safe fixes; then vocabulary and label checks."""
    notes: list[str] = []
    fixed, errors = query, syntax_errors(query)
    for name, fix in (("balanced the braces", balance_braces), ("added a missing '.'", add_missing_dots)):
        if not errors:
            break
        candidate = fix(fixed)
        if candidate != fixed and len(syntax_errors(candidate)) == 0:
            fixed, errors = candidate, []
            notes.append(name)
    if errors:
        return Repair(query, fixed, tuple(errors), tuple(notes))
    fixed, label_notes = repair_labels(fixed, question, labels)
    if vocabulary:
        notes += [f"flagged: {n}" for n in unknown_names(fixed, vocabulary)]
    return Repair(query, fixed, (), tuple(notes + label_notes))


class RepairingGenerator(GeneratorWrapper):
    """Wraps an LLM generator: checks and repairs its query, and asks once more (with the parser's error when the
    query was invalid) after a failure (an error, a timeout, no query or an invalid one). After two failures it
    returns no query, with the reasons; ``pipeline.generators.fallback.FallbackGenerator`` then asks the adapter."""

    def __init__(self, inner: Generator, vocabulary: Callable[[], frozenset[str]] | None = None,
                 labels: Callable[[], Labels] | None = None, *, retry_timeouts: bool, name: str,
                 graph_names: Callable[[], frozenset[str] | None] | None = None) -> None:
        """``vocabulary``: the stored queries' names (unknown ones are noted); ``graph_names``: the KG's own
        predicates and classes (pipeline.names.vocabulary) — a query using others is asked again once, with them."""
        super().__init__(inner, name)
        self.graph_names = graph_names
        self.vocabulary = vocabulary
        self.labels = labels
        self.retry_timeouts = retry_timeouts

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation:
        log = _Log()
        first = self._attempt(Ask.PROMPT, lambda: self.inner.generate(question, examples), log)
        if first is not None:
            result = self._checked(first, question, log, Ask.PROMPT)
            if result is not None:
                return result
        timed_out = bool(log.failures) and isinstance(log.failures[-1], GeneratorTimeout)
        if not timed_out or self.retry_timeouts:
            failure = log.failures[-1]
            ask = failure.follow_up if isinstance(failure, Rejection) and first is not None else Ask.AGAIN
            second = self._attempt(ask, lambda: self._again(question, examples, first, failure), log)
            if second is not None:
                note = failure.note if isinstance(failure, Rejection) else "asked the model again"
                result = self._checked(second, question, log, ask, (note,))
                if result is not None:
                    return result
        why = "; ".join(dict.fromkeys(map(str, log.failures))) or "no usable query"
        stage = current()  # a model that failed still had a prompt: the reply shows it
        return Generation(self.name, None, first.raw if first else "",
                          first.prompt if first else (stage.prompt if stage else ""),
                          explanation=f"The model could not write a usable query in two tries: {why}", reason=why,
                          attempts=tuple(log.attempts))

    def after_empty(self, question: str, examples: Sequence[Retrieved], first: Generation) -> Generation | None:
        """One more query after ``first`` ran and found nothing, the model told so; None when it cannot be asked
        again. Its reply joins ``first``'s attempts, whether or not it holds a usable query."""
        model = self.inner
        if not isinstance(model, Reaskable) or not first.sparql:
            return None
        ask = (f"That query ran, but the knowledge graph returned no results for it. Check its names, predicates "
               f"and pattern against the examples, and write a corrected SPARQL query for the same question.\n{NOTE}")
        prompt = model.follow_up(first, ask)
        log = _Log(list(first.attempts))
        second = self._attempt(Ask.EMPTY, lambda: interpret(model.complete(prompt), self.name, prompt), log)
        checked = self._checked(second, question, log, Ask.EMPTY) if second is not None else None
        return checked or Generation(self.name, None, second.raw if second else "", prompt,
                                     explanation="; ".join(map(str, log.failures)), attempts=tuple(log.attempts))

    def _attempt(self, ask: Ask, call: Callable[[], Generation], log: _Log) -> Generation | None:
        try:
            return call()
        except (ModelUnavailable, PromptTooLong):
            raise  # asking again cannot help: the question fails (or falls back) with this reason
        except GeneratorError as exc:
            log.failures.append(exc)
            verdict = Verdict.TIMED_OUT if isinstance(exc, GeneratorTimeout) else Verdict.FAILED
            log.attempts.append(Attempt(ask, "", None, verdict, str(exc)))
            return None

    def _again(self, question: str, examples: Sequence[Retrieved], first: Generation | None,
               failure: str | GeneratorError | Rejection) -> Generation:
        """The second try: a follow-up about ``first``'s query when there is one, else the prompt again."""
        model = self.inner
        if first is None or not first.sparql or not isinstance(model, Reaskable):
            if first is not None and not isinstance(model, Reaskable):
                raise GeneratorError("the recorded generator cannot be asked again")
            return self.inner.generate(question, examples)
        said = failure.ask if isinstance(failure, Rejection) else f"That query does not parse ({failure})."
        ask = f"{said} Write the corrected SPARQL query for the same question.\n{NOTE}"
        prompt = model.follow_up(first, ask)
        return interpret(model.complete(prompt), self.name, prompt)

    def _checked(self, g: Generation, question: str, log: _Log, ask: Ask,
                 before: tuple[str, ...] = ()) -> Generation | None:
        if not g.sparql:
            why = g.reason or g.explanation or "the model wrote no query"
            log.failures.append(g.explanation or "the model wrote no query")
            log.attempts.append(Attempt(ask, g.raw, None, Verdict.NO_QUERY, why))
            return None
        vocabulary = self.vocabulary() if self.vocabulary else frozenset()
        result = check(g.sparql, question, vocabulary, self.labels() if self.labels else None)
        if not result.ok:
            log.reject(Rejection(result.errors[0], f"That query does not parse ({result.errors[0]}).",
                                 "re-asked the model with the parser's error", Verdict.SYNTAX), ask, g.raw, g.sparql)
            return None
        rejection = self._rejection(result.fixed)
        if rejection is not None:
            log.reject(rejection, ask, g.raw, result.fixed)
            return None
        log.attempts.append(Attempt(ask, g.raw, result.fixed, Verdict.TAKEN))
        return replace(g, generator=self.name, sparql=result.fixed, notes=g.notes + before + result.notes,
                       attempts=tuple(log.attempts))

    def _rejection(self, sparql: str) -> Rejection | None:
        """Why a query that parses is not taken: names the graph does not have, variables it selects that nothing in
        its WHERE clause binds (an answer of nothing bound); both told at once, as there is one re-prompt."""
        names = self.graph_names() if self.graph_names else None
        missing = "; ".join(unknown(sparql, names)) if names else ""
        unbound = selected_but_unbound(sparql)
        reasons, asks = [], []
        if missing:
            reasons.append(f"the query uses names the graph does not have: {missing}")
            asks.append(f"That query uses names the knowledge graph does not have: {missing}. Use only the graph's "
                        "own predicates and classes.")
        if unbound:
            reasons.append(unbound)
            asks.append(f"In that query {unbound}, so it answers with nothing. Bind every selected variable in a "
                        "triple pattern of the WHERE clause, or select only variables its patterns bind.")
        if not reasons:
            return None
        said = "; ".join(filter(None, (missing, unbound)))
        return Rejection("; ".join(reasons), " ".join(asks), f"re-asked the model: {said}",
                         Verdict.VOCABULARY if missing else Verdict.UNBOUND)


@dataclass
class _Log:
    """What the tries of one question found: why each failed (a reason, or the error raised), and every reply."""

    attempts: list[Attempt] = field(default_factory=list)
    failures: list[str | GeneratorError | Rejection] = field(default_factory=list)

    def reject(self, rejection: Rejection, ask: Ask, raw: str, sparql: str) -> None:
        self.failures.append(rejection)
        self.attempts.append(Attempt(ask, raw, sparql, rejection.verdict, rejection.reason))
