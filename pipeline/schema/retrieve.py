"""The schema a question needs: the graph's terms scored by the question's words against what each term means (its
label or variable phrases, the questions asked of it), the best kept within a token budget and written as prompt
lines."""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from pipeline.records import Example
from pipeline.schema.graph import GraphFacts
from pipeline.schema.terms import Term, TermKind, content_words, read_pairs, spelled
from pipeline.schema.vocabulary import Vocabulary

QUESTION_WEIGHT = 0.35  # a word of a question asked of a term says less about it than a variable bound next to it
COMMENT_WEIGHT = 0.5  # a word of a vocabulary comment says less of a term than its label (some are notes, not glosses)
COMMENT_CHARS = 60  # of a comment shown on a prompt line
MAX_QUESTIONS = 40  # questions per term read for its words (P31 is in hundreds)
RELATIVE_FLOOR = 0.3  # an entry scoring under this share of the best one is noise beside it
MAX_ENTRIES = 8
CHARS_PER_TOKEN = 3.6  # an estimate for the budget; the benchmark reports the server's own count


def tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN)


@dataclass(frozen=True)
class Entry:
    """A term of the graph as the prompt shows it, with the words it is found by."""

    name: str
    kind: TermKind
    line: str
    words: Mapping[str, float]  # stem -> weight


class Schema:
    """The graph's classes, predicates and comparisons, each with what it means, searchable by a question."""

    def __init__(self, entries: Iterable[Entry]) -> None:
        self.entries = list(entries)
        df: Counter[str] = Counter(w for e in self.entries for w in e.words)
        n = max(1, len(self.entries))
        self.idf = {w: math.log(1 + n / c) for w, c in df.items()}

    def __len__(self) -> int:
        return len(self.entries)

    def scored(self, question: str) -> list[tuple[float, Entry]]:
        asked = set(content_words(question))
        out = [(sum(e.words[w] * self.idf[w] for w in asked if w in e.words), e) for e in self.entries]
        return sorted([(s, e) for s, e in out if s > 0], key=lambda se: (-se[0], se[1].name))

    def for_question(self, question: str, budget: int) -> list[Entry]:
        """The best-scoring entries whose lines fit in ``budget`` tokens, best first."""
        kept: list[Entry] = []
        used = 0
        found = self.scored(question)
        floor = found[0][0] * RELATIVE_FLOOR if found else 0.0
        for score, entry in found:
            cost = tokens(entry.line) + 1
            if score < floor or len(kept) >= MAX_ENTRIES:
                break
            if used + cost > budget:
                continue
            kept.append(entry)
            used += cost
        return kept


def _words(term: Term) -> dict[str, float]:
    words: dict[str, float] = {}
    for w in content_words(term.comment):
        words[w] = COMMENT_WEIGHT
    for text in [term.label, spelled(term.name), *term.phrases]:
        for w in content_words(text):
            words[w] = 1.0
    asked: Counter[str] = Counter(w for q in term.questions[:MAX_QUESTIONS] for w in set(content_words(q)))
    share = max(1, min(len(term.questions), MAX_QUESTIONS))
    for w, c in asked.items():
        words[w] = max(words.get(w, 0.0), QUESTION_WEIGHT * c / share)
    return words


def _line(term: Term, terms: Mapping[str, Term], facts: GraphFacts) -> str:
    if term.kind is TermKind.COMPARISON:
        parts = ", ".join(f"{p} ({terms[p].meaning(1)})" if p in terms and terms[p].meaning(1) else p
                          for p in facts.comparisons.get(term.name, ()))
        about = f'"{term.label}"' if term.label else (f'asked as "{term.questions[0]}"' if term.questions else "")
        return f"{term.name} a comparison ({about}); {term.name} orkgp:compareContribution ?c. ?c has: {parts}"
    meaning = term.meaning()
    return f"{term.name} {term.kind.value}" + (f": {meaning}" if meaning else "") + _gloss(term)


def _gloss(term: Term) -> str:
    """The vocabulary's comment, cut at a word, where it says more than the label."""
    comment = " ".join(term.comment.split())
    if not comment or comment.lower() == term.label.lower():
        return ""
    if len(comment) > COMMENT_CHARS:
        comment = comment[:COMMENT_CHARS].rsplit(" ", 1)[0] + " …"
    return f" ({comment})"


def build_schema(examples: Iterable[Example], vocabulary: frozenset[str], facts: GraphFacts,
                 orkg: Vocabulary | None = None) -> Schema:
    """The schema of what the graph holds (``vocabulary`` and its comparisons) as the stored pairs explain it; a term
    the pairs never use is still listed, by its graph label or spelled-out name. ``orkg``: the ORKG's own vocabulary,
    whose labels stand where the graph has none and whose comments say more of a term."""
    read = read_pairs(examples)
    held = set(vocabulary) | set(facts.comparisons)
    facts = facts.labelled(orkg)
    terms: dict[str, Term] = {}
    for name in sorted(held):
        kind = TermKind.COMPARISON if name.startswith("orkgr:") else \
            TermKind.CLASS if name.startswith("orkgc:") else TermKind.PREDICATE
        term = read.get(name) or Term(name, kind)
        term.label = facts.labels.get(name, term.label)
        said = (orkg.predicates.get(name) or orkg.classes.get(name)) if orkg is not None else None
        term.comment = said.comment if said is not None else ""
        terms[name] = term
    for name, term in terms.items():  # a comparison is found by what its contributions hold, too
        for part in facts.comparisons.get(name, ()):
            if part in terms:
                term.phrases.update(terms[part].phrases)
    return Schema(Entry(n, t.kind, _line(t, terms, facts), _words(t)) for n, t in terms.items())


def render(entries: list[Entry]) -> str:
    if not entries:
        return ""
    return "Graph schema (names this graph holds, with what they mean):\n" + "\n".join(e.line for e in entries) + "\n"
