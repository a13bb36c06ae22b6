"""What a question asks, read once for every intent pair it is held against (``Asked``), and whether a pair filled
with its names does what the question does not ask or leaves out a condition it states (``Asked.refuses``)."""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from pipeline.intent.account import Question, meanings, unasked
from pipeline.intent.conditions import blanked, companions, comparisons, measures, shown_kinds, unaccounted
from pipeline.intent.filling import filled
from pipeline.intent.guard import answered_kinds
from pipeline.intent.meaning import listed_as_most
from pipeline.intent.named import Name
from pipeline.intent.narrowed import Narrowing
from pipeline.intent.reading import CODE, YEAR, Intent, asked_kinds, asks_one, first_asked, mentioned_kinds, read_intent
from pipeline.matching.forms import form_of, slot_values
from pipeline.records import Example, Kind
from pipeline.sparql.shape import read


def form_spans(pair: Example) -> list[tuple[int, int]]:
    """Where a pair's slot literals stand in its question."""
    out = []
    for literal, _ in slot_values(pair):
        at = pair.question.find(literal)
        if at >= 0:
            out.append((at, at + len(literal)))
    return out


_WH = re.compile(r"\b(?:which|what)\b", re.I)


def asked_first(stated: str) -> str | None:
    """The kind asked right after the question's 'which' / 'what' ('which paper introduced X and what field …': a
    paper; 'among X papers, which model …': a model), None when it asks none there."""
    wh = _WH.search(stated)
    return first_asked(stated[wh.end():]) if wh else None


_LACKING = re.compile(r"\b(?:no|without|lacking|lack)\s+(?:any\s+|a\s+|an\s+)?([a-z]+)", re.I)


def lacked_kinds(question: str) -> frozenset[str]:
    """The kinds of thing a question says things lack ('which papers have no models at all': models)."""
    return mentioned_kinds(" ".join(m.group(1) for m in _LACKING.finditer(question)), typos=False)


def _contributions_only(sparql: str) -> bool:
    """Whether the query lists contributions and no paper."""
    shown = read(sparql).projection
    return any(v.startswith("?cont") for v in shown) and not any(v.startswith("?paper") for v in shown)


_RESULTS_COUNTED = re.compile(r"\bhow\s+many\s+(?:X\s+)?(?:results|scores|values|evaluations|entries)\b", re.I)


@lru_cache(maxsize=4096)
def answers(sparql: str) -> frozenset[str]:
    """The kinds a pair's query gives (not those its question's words name: 'in what year did X first appear in a
    paper' gives no paper)."""
    return answered_kinds(read(sparql))


@dataclass(frozen=True)
class Asked:
    """What a question asks, read once for every pair it is held against: its ranking in the metric's direction,
    the kinds it asks for (``head`` first), its words with its names (years aside) blanked, and its words read."""

    text: str
    intent: Intent
    asked: frozenset[str]
    head: str | None
    stated: str
    reading: Question
    beside: bool = False  # a place in a ranking by a metric, no kind asked: who holds it and the score, both shown
    wh: str | None = None  # the kind asked right after 'which' / 'what' (``asked_first``)
    counted: bool = False  # held against the pairs that list the things, whose count the question asks
    narrow: Narrowing | None = None  # a name held as a condition on the pair's papers, not in a slot

    def fill(self, pair: Example, chosen: Sequence[Name]) -> str | None:
        """The pair's query filled with ``chosen`` (``filling.filled``), narrowed by ``narrow``; None when it
        cannot be."""
        sparql = filled(pair, chosen, self.intent, self.text)
        return sparql if self.narrow is None else self.narrow.applied(sparql)

    @property
    def adds(self) -> frozenset[str]:
        """The meanings the query is compiled with beside its pair's own: a count of its list, a condition."""
        return frozenset({"count"} if self.counted else ()) | (self.narrow.says if self.narrow else frozenset())

    def refuses(self, pair: Example, chosen: Sequence[Name], kinds: bool = True) -> bool:
        """Whether ``pair``, filled with ``chosen``, does what the question does not ask or leaves out a condition it
        states — whatever operators it asks (``fits`` holds those); ``kinds``: also when the rules read no kind asked
        (a model reading it reads kind words the rules do not: 'benchmarks' for datasets) or the first kind asked
        the other way round."""
        intent, asked, head, stated = self.intent, self.asked, self.head, self.stated
        spans = form_spans(pair)
        theirs = asked_kinds(pair.question, spans)
        their_head = first_asked(pair.question, spans)
        their_words = blanked(pair.question, spans)
        return bool(
            # it returns things the question does not ask for ('the best score on Pong': not its problems)
            (theirs and not theirs & asked and "yesno" not in intent.operators and (kinds or asked))
            # the same two kinds the other way round: 'the dataset with the most metrics' is no metric (a paper and
            # its year or venue, asked in either order, are both asked)
            or (kinds and head and their_head and head != their_head and head in theirs and their_head in asked
                and YEAR not in (head, their_head) and {head, their_head} != {Kind.PAPER, Kind.VENUE})
            # the first kind asked not answered: 'which paper introduced X and what field is it in' (a pair's query
            # passing through papers gives no paper)
            or (kinds and len(asked & (set(Kind) | {YEAR})) > 1 and self.wh in set(Kind)
                and self.wh not in answers(pair.sparql) and self.wh not in form_of(pair).kinds)
            # a count of things not asked ('how many papers and models': no count of datasets), or of things where
            # results are counted ('how many AUROC results (all datasets)')
            or ("count" in intent.operators and (bool(answers(pair.sparql) & set(Kind)) if _RESULTS_COUNTED.search(
                stated) else bool(asked & set(Kind)) and not answers(pair.sparql) & asked))
            # the things to show listed last ('… ? dataset + model'): each given
            or bool(shown_kinds(stated) - answers(pair.sparql))
            # 'where did X papers appear, other than V': venues asked, not the papers
            or (kinds and not self.wh and head == Kind.VENUE and Kind.VENUE not in answers(pair.sparql))
            or (CODE in asked - theirs and "yesno" not in intent.operators)  # code links asked of papers: no papers
            # a restriction to code nobody asked for: 'how many papers tackle X' counts them all
            or CODE in theirs - asked - mentioned_kinds(stated, typos=False)
            # papers asked first, contributions given ('which papers didnt release code for any of their contributions')
            or (head == Kind.PAPER and _contributions_only(pair.sparql))
            # a kind the pair says things lack that the question never names ('papers with no models at all' for
            # 'papers not published at X')
            or bool(lacked_kinds(pair.question) - mentioned_kinds(stated))
            # "the top model on X": one, not every model with its score
            or ("every" in read_intent(pair.question).operators - intent.operators and asks_one(stated))
            # 'the most commonly used datasets for X': SciQA's list of every one, no top one
            or ("most" in measures(pair.question) and listed_as_most(stated))
            or (comparisons(pair.question) and not comparisons(stated))  # a bound nobody stated
            # an average nobody asked for (in any words: 'first to last') is no list of the values
            or any(not meanings(m.split()[-1]) & self.reading.says
                   for m in measures(their_words) - measures(stated))
            # a score nobody asked for beside the answer ('… and what is its score?')
            or (set(companions(their_words)) - set(companions(stated)) and not self.beside)
            # a condition of the question the pair's query does not hold ('the most common metric')
            or (sparql := self.fill(pair, chosen)) is None or unaccounted(stated, sparql, measures=True)
            # the pair does what the question does not ask ('without code', 'the lowest')
            or unasked(self.reading, (pair.question, tuple(spans), pair.sparql)))


