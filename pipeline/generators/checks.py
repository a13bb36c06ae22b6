"""Repairing what a language model wrote: a chain of small pure steps (safe syntax fixes, a parse, the stored
vocabulary, label literals against the question) returning a record, ``Repair``; the check loop's reply check
(``pipeline.loop.checks.ReplyCheck``) runs it on a model's reply and asks the model again."""
from __future__ import annotations

import re
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from pipeline.matching.forms import Labels
from pipeline.names.vocabulary import used_names
from pipeline.sparql.brackets import unmatched
from pipeline.sparql.lexer import Token
from pipeline.sparql.literal import quoted
from pipeline.sparql.parsed import parse
from pipeline.sparql.text import string_literals, syntax_errors

_TERMS = frozenset({"var", "pname", "iri", "string", "number"})
CLOSE_NAME = 80.0  # rapidfuzz ratio (0-100) from which a stored name is offered for an unknown one


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


_MODIFIER = re.compile(r"\b(?:GROUP\s+BY|ORDER\s+BY|HAVING|LIMIT|OFFSET)\b", re.IGNORECASE)
_PIECE = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|<[^<>\s]*>|#[^\n]*|[{}]|[^{}"\'<#]+|.')


def balance_braces(query: str) -> str:
    """Close braces left open — before the solution modifiers (GROUP BY, ORDER BY, HAVING, LIMIT, OFFSET) that end
    the query, where the group pattern ended, else at the end; drop closing braces that close nothing."""
    pieces = [Token("text", m.group()) for m in _PIECE.finditer(query)]  # strings, IRIs and comments whole
    stray, depth = unmatched(pieces)
    dropped = set(stray)
    out = [p.text for k, p in enumerate(pieces) if k not in dropped]
    last_brace = max((k for k, t in enumerate(out) if t in ("{", "}")), default=-1)
    head, tail = "".join(out[:last_brace + 1]), "".join(out[last_brace + 1:])
    modifiers = _MODIFIER.search(tail) if depth else None
    if modifiers:
        return f"{head}{tail[:modifiers.start()].rstrip()}{' }' * depth} {tail[modifiers.start():].strip()}"
    return "".join(out).rstrip() + " }" * depth


def add_missing_dots(query: str) -> str:
    """Insert the '.' a model forgot between two triple patterns (a fourth term where a triple already ended)."""
    toks = parse(query).tokens
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
