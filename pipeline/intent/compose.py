"""Queries composed for common asks the stored pairs lack: the question's names are looked up in the graph (their
kinds and the graph's spelling), then the intent pair asking the same operators with slots of those kinds, best
aligned with the question's wording, is filled with them."""
from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace

from pipeline.intent.account import Question, read_question, unplaced, words
from pipeline.intent.asked import Asked, answers, asked_first, form_spans
from pipeline.intent.attempt import Attempt, Composition, scored
from pipeline.intent.conditions import (
    blanked,
    companions,
    compared_spans,
    comparisons,
    without_companions,
)
from pipeline.intent.named import YEAR_WORD, Name, resolve, years
from pipeline.intent.narrowed import narrowings
from pipeline.intent.negated import first_negation
from pipeline.intent.ranked import PER_GROUP, absolute, beats, better_said, directed, fits, relative
from pipeline.intent.reading import (
    YEAR,
    Intent,
    Span,
    asked_kinds,
    asks_a_value,
    asks_who,
    first_asked,
    read_intent,
)
from pipeline.matching.align import align_form
from pipeline.matching.forms import Form, form_of, slot_values
from pipeline.names.index import LabelIndex, squeeze
from pipeline.parts import KnowledgeGraph
from pipeline.records import Example, Kind
from pipeline.sparql.direction import direction_known, lower_is_better
from pipeline.sparql.whether import counted, whether

_HOLDER = re.compile(r"\b(?:it|its|they|their|whoever)\b", re.I)  # the one holding a place in a ranking


def assign(form: Form, names: Sequence[Name]) -> list[Name] | None:
    """Each slot's name, by kind and in question order; None unless every slot and every name is used."""
    free = list(names)
    out: list[Name] = []
    for kind in form.kinds:
        hit = next((n for n in free if kind in n.kinds), None)
        if hit is None:
            return None
        out.append(hit)
        free.remove(hit)
    # the same thing named twice ('(inference latency) and what's its latency'): one slot holds it
    free = [n for n in free if not any(n.label == o.label and n.kinds == o.kinds and (n.end <= o.start or
                                                                                      o.end <= n.start) for o in out)]
    return out if not free else None


class Composer:
    """Writes a query for a question from the intent pairs (and any other pairs given) asking its operators."""

    def __init__(self, pairs: Callable[[], Sequence[Example]],
                 labels: Callable[[], LabelIndex | None] | None = None, taught: bool = False) -> None:
        """``labels``: the graph's label index, to ask the graph for a question's names by exact labels; ``taught``:
        the team's pairs, each of one kind of question ('who beats X on Y' asks for its models, operator or none)."""
        self.pairs = pairs
        self.labels = labels
        self.taught = taught

    def admits(self, text: str, intent: Intent, kg: KnowledgeGraph, generic: frozenset[str],
               names: Sequence[Name]) -> Callable[[Example, Sequence[Name]], bool]:
        """Whether a pair filled with names does nothing the question does not ask (the composer's refusals; the
        operators and the kinds asked the rules read aside): what a model reading the question, its ``names``
        already found, may choose among."""
        read = self._asked(text, intent, kg, generic, frozenset(), None, (), True, names)
        if isinstance(read, Attempt):  # which end of the ranking is best is not said: no pair guesses it
            return lambda pair, chosen: False
        asked = read[1]
        return lambda pair, chosen: not asked.refuses(pair, chosen, kinds=False)

    def _asked(self, text: str, intent: Intent, kg: KnowledgeGraph, generic: frozenset[str], asked: frozenset[str],
               index: LabelIndex | None, prefer: Collection[str], by_metric: bool,
               found: Sequence[Name] | None = None) -> tuple[list[Name], Asked] | Attempt:
        """The question's names (``found`` when already read: its years among them) and what it asks
        (``attempt``'s arguments); an Attempt when "best" is asked by a metric whose better end is not known: which
        end is best is not guessed."""
        if found is None:
            found = resolve(text, kg, generic, index, prefer, self.labels() if self.labels else None)
            found = found + years(text, found)
        names = sorted(found, key=lambda n: n.start)  # none: only a pair of the whole graph
        spans = [(n.start, n.end) for n in names]
        # which end is better: as the question says it ('lower = better'), else as the metric's label says
        stated_lower = better_said(text)
        lower = stated_lower if stated_lower is not None else \
            by_metric and any(Kind.METRIC in n.kinds and lower_is_better(n.label) for n in names)
        said = relative(blanked(text, spans)) or ("beat" if beats(blanked(text, spans)) else "")
        unknown = [n.label for n in names if Kind.METRIC in n.kinds and not direction_known(n.label)]
        if by_metric and stated_lower is None and said and unknown and not absolute(text):
            return Attempt(None, (f"'{said}' by '{unknown[0]}' (is a lower or a higher one better?)",))
        # every word read once; 'after 2020' is applied by ``filled`` to whichever pair holds the year
        reading = read_question(text, spans, compared_spans(text), lower)
        if by_metric or stated_lower is not None:
            intent = directed(intent, blanked(text, spans), lower)  # 'Top-1': a name
        typed: list[Span] = [(n.start, n.end, next(iter(n.kinds))) if len(n.kinds) == 1 else (n.start, n.end)
                             for n in names]
        # 'Computational Semantics papers': a field's, papers asked; 'the cladonia field set': no field asked (a
        # word of a name typed loosely, read as a kind before the name was found)
        outside = asked_kinds(blanked(text, spans))
        asked = frozenset(k for k in asked if k in outside) | asked_kinds(text, typed)
        # a year stays in the words its conditions are read from: 'after 2020' is a comparison the pair must hold
        stated = blanked(text, [(n.start, n.end) for n in names if YEAR not in n.kinds])
        bound = any(not YEAR_WORD.fullmatch(n) for n in comparisons(stated))  # 'who got under 0.2 MAE on X'
        if not asked and ((asks_who(stated) and (intent.operators or intent.highest or self.taught or bound)) or (
                intent.operators & {"top", "kth"} and not asks_a_value(without_companions(stated)))):
            # "who is second on X", "top 3 on X by F1", "who got under 0.2 on X": of the things a leaderboard pair
            # answers, a model (a bare "who leads X" is no operator read: nothing is composed for it, rather than a
            # list of every model)
            asked = frozenset({Kind.MODEL})
        elif not asked and _PUBLISHED_ANYTHING.search(stated):
            asked = frozenset({Kind.PAPER})  # 'has the X conference published anything before 2020?': papers
        elif asked and Kind.MODEL not in asked and asks_who(stated) and "every" in intent.operators:

            asked |= {Kind.MODEL}  # 'for every dataset that reports X, who's best': each dataset's model
        # 'the third best rmse on X': the score there, or who holds it? both are shown
        # 'the best f1 on X + what score did it get': a holder ('it', 'its') of the best score, and the score
        beside = not asked and any(Kind.METRIC in n.kinds for n in names) and (
            bool(intent.operators & {"kth"}) or ((intent.highest or "lowest" in intent.operators) and
                                                  _HOLDER.search(stated) is not None))
        if not asked and not intent.operators and not intent.highest and asks_a_value(stated) and \
                {Kind.MODEL, Kind.DATASET} <= {k for n in names for k in n.kinds} and \
                not any(Kind.METRIC in n.kinds for n in names):
            # 'what did X get on D', no metric named: its score by each metric, each with the metric's name
            asked = frozenset({Kind.METRIC})
        return names, Asked(text, intent, frozenset({Kind.MODEL}) if beside else asked, first_asked(text, typed),
                             stated, reading, beside, asked_first(stated))

    def compose(self, text: str, intent: Intent, kg: KnowledgeGraph, generic: frozenset[str],
                asked: frozenset[str] = frozenset(), index: LabelIndex | None = None,
                prefer: Collection[str] = (), by_metric: bool = True) -> Composition | None:
        """The best-fitting intent pair filled with the question's names (``attempt``'s composition)."""
        return self.attempt(text, intent, kg, generic, asked, index, prefer, by_metric).composition

    def attempt(self, text: str, intent: Intent, kg: KnowledgeGraph, generic: frozenset[str],
                asked: frozenset[str] = frozenset(), index: LabelIndex | None = None,
                prefer: Collection[str] = (), by_metric: bool = True) -> Attempt:
        """The best-fitting intent pair whose question says every word of the user's, filled with the question's
        names; ``asked``: the kinds it asks for; ``index``: the graph's labels, for names typed loosely; ``prefer``:
        names to read the question with first; ``by_metric``: "best" read by the metric's direction (always by the
        question's own 'lower is better' where it says one; else as
        ``intent`` reads it: the way a written query ranks, SciQA's templates' "best" always the highest). A yes or
        no no pair asks is the pair listing those things asked whether any exist ('is there any paper on X before
        2016?'), where that pair is a plain list."""
        read = self._asked(text, intent, kg, generic, asked, index, prefer, by_metric)
        if isinstance(read, Attempt):
            return read
        names, q = read
        got = self._answered(names, q, generic, kg)
        if got.composition is not None:
            return got
        # no pair holds every name: one of them (a year, a field, a venue, a problem) held as a condition on the
        # papers of a pair that holds the others
        negated_at = next((w[0] for w in q.reading.words if "not" in w[2]), None)
        for narrowing in narrowings(names, comparisons(q.stated), negated_at) if not self.taught else ():
            rest = [n for n in names if n is not narrowing.name]
            # a name said after a negation is the narrowing's to leave out: no pair's 'but not' besides
            left = Intent(q.intent.operators - {"except"}, q.intent.rank, q.intent.highest) if narrowing.negated \
                else q.intent
            tried = self._answered(rest, replace(q, narrow=narrowing, intent=left), generic, kg)
            # the kind asked first is what the narrowed query gives ('where did X papers appear': venues, not papers)
            if tried.composition is not None and (q.head in (None, YEAR) or q.head in answers(
                    tried.composition.sparql)):
                return tried
        return got

    def _answered(self, names: list[Name], q: Asked, generic: frozenset[str], kg: KnowledgeGraph) -> Attempt:
        """``attempt`` for a question whose names and asks are read: the best pair, or, for a yes or no or a count
        no pair asks, the pair listing those things."""
        got = scored(self._composed(names, q, generic), kg)
        # a team's pair answers as taught: asked yes or no, never counted (its own count is another pair)
        asked_of_list = q.intent.operators & ({"yesno"} if self.taught else {"yesno", "count"})
        if got.composition is not None or len(asked_of_list) != 1:
            return got
        # a yes or no, or a count, no pair asks: the pair listing those things, asked whether any exist or how many
        listing = Intent(q.intent.operators - asked_of_list, q.intent.rank, q.intent.highest)  # its names read once
        listed = self._composed(names, replace(q, intent=listing, counted="count" in asked_of_list),
                                generic).composition
        shape = whether if "yesno" in asked_of_list else counted
        asks = shape(listed.sparql) if listed is not None else None
        return Attempt(replace(listed, sparql=asks)) if listed is not None and asks is not None else got

    def _composed(self, names: list[Name], q: Asked, generic: frozenset[str]) -> Attempt:
        """``attempt`` for a question whose names and asks are read."""
        text, intent, asked, head, stated, reading = q.text, q.intent, q.asked, q.head, q.stated, q.reading
        best: tuple[float, Example, list[Name]] | None = None
        partial: tuple[float, tuple[str, ...], Composition] | None = None  # the best pair that leaves words out
        stated_years = {n for n in comparisons(stated) if YEAR_WORD.fullmatch(n)}  # years a bound states
        for pair in self.pairs():
            if not fits(read_intent(pair.question), intent, pair.sparql, PER_GROUP.search(text) is not None):
                continue
            form = form_of(pair)
            chosen = assign(form, names)
            if chosen is None and comparisons(pair.question) and stated_years:  # 'after 2016' as its 'after 2020'
                chosen = assign(form, [n for n in names if not (YEAR in n.kinds and n.label in stated_years)])
            if chosen is None or q.refuses(pair, chosen) or not _excluded_as_said(pair, chosen, text):
                continue
            theirs = asked_kinds(pair.question, form_spans(pair))
            score = align_form(form.pieces, text, generic).score + (theirs == asked) + bool(theirs & asked) + \
                (head in theirs and head in asked) + \
                (q.beside and bool(companions(blanked(pair.question, form_spans(pair)))))
            # 'the metrics used to evaluate models': metrics, not models
            left = unplaced(reading, (pair.question, tuple(form_spans(pair)), pair.sparql),
                            things="yesno" not in intent.operators, adds=q.adds)
            if left:  # the pair's query would not do what these words ask: a partial reading, never answered
                if partial is None or score > partial[0]:
                    partial = (score, tuple(left), Composition(q.fill(pair, chosen) or "", pair,
                                                               tuple(chosen)))
                continue
            if best is None or score > best[0]:
                best = (score, pair, chosen)
        if best is None:
            ranked = bool(intent.operators & {"lowest", "top", "kth"}) or intent.highest
            datasets = [n.label for n in names if Kind.DATASET in n.kinds]
            unmeasured = datasets[0] if ranked and len(datasets) == 1 and not any(
                Kind.METRIC in n.kinds for n in names) else ""
            return Attempt(None, partial[1] if partial else (), unmeasured, partial[2] if partial else None)
        _, pair, chosen = best
        slips = tuple((text[n.start:n.end], n.label) for n in chosen
                      if squeeze(text[n.start:n.end]) != squeeze(n.label) and YEAR not in n.kinds)
        return Attempt(Composition(q.fill(pair, chosen) or "", pair, tuple(chosen), slips))


_PUBLISHED_ANYTHING = re.compile(r"\b(?:publish(?:ed)?|put\s+out|print(?:ed)?)\s+any(?:thing|\s+work)\b", re.I)


def _excluded_as_said(pair: Example, chosen: Sequence[Name], text: str) -> bool:
    """Whether the names a pair's query excludes ('FILTER NOT EXISTS') are those the question says after its
    negation, and the others before it ('origami models never run on X': X excluded, not the origami field)."""
    cut = pair.sparql.find("NOT EXISTS")
    negation = first_negation(words(text)) if cut >= 0 else None
    if negation is None:
        return True
    for (literal, _), name in zip(slot_values(pair), chosen):
        at = pair.sparql.find(f'"{literal}"')
        if at >= 0 and (at > cut) != (name.start >= negation):
            return False
    return True


def heard(text: str, names: Sequence[tuple[int, int]]) -> Question:
    """The question ``text`` read once (``names``: where its names stand), to hold pairs against (``unsaid_by``)."""
    return read_question(text, names, compared_spans(text))


def unsaid_by(pair: Example, question: Question, yesno: bool = False) -> list[str]:
    """The words of the ``question`` (``heard``) that the stored ``pair`` a query was adapted from does not say, in
    its words or others of the same meaning: what the adapted query leaves out ('that were not evaluated on X' beside
    a pair listing the models of one dataset)."""
    return unplaced(question, (pair.question, tuple(form_spans(pair)), pair.sparql), things=not yesno)
