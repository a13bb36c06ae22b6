"""The intent step between generation and the knowledge graph: a query that does not do what the question asks is
never run; a query composed for the ask takes its place when one can be, else the reply declines and offers the
closest question that can be answered."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from pipeline.intent.account import OPERATORS, meanings
from pipeline.intent.adapted import adapted_question, unsaid
from pipeline.intent.attempt import Attempt, Composition, metrics_of
from pipeline.intent.comparisons import ComparisonFacts
from pipeline.intent.compose import Composer
from pipeline.intent.conditions import blanked
from pipeline.intent.guard import (
    VALUE_ASKED,
    answered_kinds,
    check,
    labelled,
    loosely_other_kinds,
    searched_kinds,
    slot_kinds,
    wrong_kinds,
)
from pipeline.intent.loose import pointed
from pipeline.intent.named import Name as GraphName
from pipeline.intent.named import graph_kinds, with_normalised
from pipeline.intent.own import compares_things, ignored, miscounted, own, uncast
from pipeline.intent.pairs import intent_pairs
from pipeline.intent.ranked import directed_by
from pipeline.intent.reading import Intent, asked_kinds, asks_a_value, mentioned_kinds, names_things, read_intent
from pipeline.intent.replies import asked_back, closest, composed_review, left_words, listed, named_few, with_unplaced
from pipeline.intent.which import MAX_CHOICES, which_name
from pipeline.intent.writer import comparison_reading, compiled
from pipeline.intent.written import a_fragment, a_metric, as_ranked, copied_terms, masked, read_by_names_step
from pipeline.matching.fill import Name, names_in
from pipeline.matching.forms import Labels
from pipeline.names.check import respelled
from pipeline.names.index import LabelIndex, squeeze
from pipeline.names.vocabulary import prefixed
from pipeline.parts import KnowledgeGraph
from pipeline.records import Choice, Example, Generation, Kind, Retrieved, Review
from pipeline.sparql.explain import explain
from pipeline.sparql.shape import read
from pipeline.sparql.text import string_literals
from pipeline.store.knowledge import Knowledge
from pipeline.store.retrieval import mask

_LEADERBOARD = frozenset({Kind.DATASET, Kind.MODEL})
TAUGHT_MEANT = 0.8  # the least cosine of a question to a taught pair's, names masked, to read one by the other


class IntentStep:
    """Checks a generated query against the question's intent; composes or declines on a mismatch."""

    def __init__(self, knowledge: Callable[[], Knowledge] | None = None,
                 pairs: Callable[[], Sequence[Example]] = intent_pairs,
                 labels: Callable[[], LabelIndex | None] | None = None,
                 comparisons: ComparisonFacts | None = None, far: float | None = None) -> None:
        """``labels``: the graph's label index (pipeline.names), to compose with names typed loosely;
        ``comparisons``: what the graph holds of its comparisons (shared with the rules' writer); ``far``: the
        similarity of the closest stored question below which a model's own query must have every word placed."""
        self.knowledge = knowledge
        self.far = far
        self.labels = labels
        self.composer = Composer(pairs, labels)
        self.taught = Composer(self._taught_pairs, labels, taught=True)  # the team's pairs, read before any rule
        self.comparisons = comparisons or ComparisonFacts()

    def read_ahead(self, kg: KnowledgeGraph) -> None:
        """What ``kg`` holds of its comparisons and the ORKG vocabulary's labels, read before the first question
        about them (with a vocabulary 100x the ORKG's, seconds)."""
        self.comparisons.get(kg)

    def _taught_pairs(self) -> Sequence[Example]:
        return self.knowledge().taught() if self.knowledge is not None else ()

    def _read(self, text: str) -> tuple[list[Name], frozenset[str]]:
        """The question's names (as retrieval read them) and the stored forms' own words."""
        know = self.knowledge() if self.knowledge is not None else None
        found = know.names(text) if know is not None else names_in(text, Labels(), frozenset())
        # a negation in capitals ('NOT evaluated') is no name of an unknown kind, nor words beginning with an
        # operator's ('how *many 2018* papers': a count)
        return [n for n in found if n[2] or not (
            "not" in meanings(text[n[0]:n[1]].lower()) or meanings(text[n[0]:n[1]].split()[0].lower()) & OPERATORS)
        ], know.generic if know is not None else frozenset()

    def review(self, question: str, generation: Generation, examples: Sequence[Retrieved],
               kg: KnowledgeGraph) -> Review:
        """``question`` tidied (``pipeline.question.tidy``); a query that stands answers with the names of the things
        it gives (``guard.labelled``)."""
        reviewed = self._review(question, generation, examples, kg)
        return replace(reviewed, generation=labelled(reviewed.generation, question))

    def _review(self, question: str, generation: Generation, examples: Sequence[Retrieved],
                kg: KnowledgeGraph) -> Review:
        text = question
        compared = self._compared(text, generation, examples, kg)
        if compared is not None:
            return compared
        found, generic = self._read(text)
        index = self.labels() if self.labels else None
        taught = self._by_taught(text, found, generic, kg, index)
        if taught is not None:  # a pair the team taught that says every word of the question: never overridden
            return composed_review(taught, generation, "" if generation.sparql == taught.sparql else
                             "a pair the team taught reads the question whole")
        if generation.sparql and index is not None:  # judged with the names as the question writes them
            sparql, respellings = respelled(generation.sparql, index, text)
            if respellings:
                generation = replace(generation, sparql=sparql, notes=generation.notes + respellings)
        words = masked(text, found)
        intent = read_intent(words)  # 'Number of params' is a metric, not a count
        if own(generation) and index is not None:  # 'the worst on RMSE': its highest, as the query's metric says
            # (a model's own query; SciQA's templates, which the adapter's follow, read 'best' as the highest)
            intent = directed_by(intent, words, generation.sparql or "", lambda label: a_metric(label, index))
        names = [text[a:b] for a, b, _ in found]
        asked = asked_kinds(text, found)
        missing: tuple[str, ...] = ()
        taken: dict[str, str] = {}  # the fitting query's names and the kinds it takes them for
        standing = generation
        if generation.sparql:
            plain = blanked(text, [(a, b) for a, b, _ in found])
            verdict = check(intent, names, generation.sparql, asked, generic, mentioned_kinds(text),
                            copied_terms(generation.sparql, names, generic, examples), words, plain,
                            value=asks_a_value(plain) and not names_things(plain))
            missing = verdict.missing or unsaid(text, found, generation.sparql, examples, "yesno" in intent.operators) \
                or ignored(text, generation, kg, generic, index) or miscounted(generation) \
                or compares_things(generation) or uncast(generation)
            notes = verdict.notes + tuple(f"'{lit}' narrows nothing: the answer does not depend on the part of the "
                                          "query that names it" for lit in verdict.unjoined)
            if notes:  # what the guard could not tell goes with the answer
                standing = replace(generation, notes=generation.notes + tuple(f"intent guard: {n}" for n in notes))
            ranked = as_ranked(intent, generation.sparql)
            if not missing and verdict.unjoined and (ranked.operators or ranked.highest):
                # a query composed for the ask, every name joined to its answer, does better than one ignoring a name
                # what the question does not say it asks for ('who tops …'), the written query's answer says —
                # unless it asks for a score ('the top F1 score achieved on X'): then no thing, the value
                answer = asked or (frozenset() if asks_a_value(plain) else answered_kinds(read(generation.sparql)))
                tried = self.composer.attempt(text, ranked, kg, generic, answer, index,
                                              string_literals(generation.sparql), by_metric=False)
                better = tried.composition
                if better is None and tried.unscored is not None:  # the metric named has no scores there: asked
                    back = self._which_metric(text, tried.unmeasured, kg, generation, lambda q: None, tried.unscored,
                                              tried.measured)
                    if back is not None:
                        return back
                if better is not None:
                    return composed_review(better, generation, f"the query {generation.generator} wrote used "
                                     f"{listed(verdict.unjoined)} only where its answer does not depend on it")
            if not missing:
                taken, searched = slot_kinds(generation.sparql), searched_kinds(generation.sparql, text)
                exact = graph_kinds(sorted(taken.keys() | searched.keys()), kg)
                if exact is None:  # a graph that cannot say what its names are: the query stands
                    return Review(standing)
                graph = with_normalised(exact, taken, index)  # 'squad 1.1' is the dataset SQuAD1.1
                missing = tuple(wrong_kinds(taken, graph) + wrong_kinds(searched, exact)
                                + loosely_other_kinds(taken, graph, asked, index))
                if not missing and all(lit in exact or read_by_names_step(lit, kind, index)
                                       for lit, kind in taken.items()):
                    unread = self._unread(generation, examples, lambda: self.composer.attempt(
                        text, intent, kg, generic, asked, index))
                    return Review(standing) if not unread else self._declined(generation, intent, unread, examples)
        # names typed loosely are composed with only to replace a query that does not fit (or none): a fitting query
        # stands, and the names step reads its names
        loose = index if missing or not generation.sparql else None
        attempt = self.composer.attempt(text, intent, kg, generic, asked, loose)
        composed = attempt.composition
        if composed is None and attempt.unmeasured and (missing or not generation.sparql):
            back = self._which_metric(text, attempt.unmeasured, kg, generation, lambda q: self.composer.compose(
                q, intent, kg, generic, asked, loose), attempt.unscored, attempt.measured)
            if back is not None:
                return back
        if composed is None and missing == (VALUE_ASKED,) and generation.sparql:
            # the value of the ranking the query wrote ('the top F1 score on X': "top" read the way it ranks)
            composed = self.composer.compose(text, as_ranked(intent, generation.sparql), kg, generic, asked, loose)
        if composed is not None and not missing and a_fragment(composed.names, taken):
            composed = None  # a fitting query about 'Long Short Transformer' is not one about 'Transformer'
        if composed is not None:
            return composed_review(composed, generation, f"the query {generation.generator} wrote lacked {missing[0]}"
                             if missing else "")
        if not generation.sparql and index is not None:
            back = self._which_name(text, generic, index, generation, lambda q: self.composer.compose(
                q, read_intent(q), kg, generic, asked, index))
            if back is not None:
                return back
        if not generation.sparql:
            return Review(with_unplaced(generation, attempt.unplaced),
                          "" if generation.off_topic else closest(examples))  # no unrelated offer
        if not missing:  # names the graph does not have as written: the query runs and says nothing matched
            return Review(standing)
        # the words the adapted pair leaves unsaid are named too ('zorblax'), beside an operator it lacks
        words_left = tuple(u for u in unsaid(text, found, generation.sparql, examples, "yesno" in intent.operators)
                           if u not in missing)
        return self._declined(generation, intent, missing + words_left + left_words(attempt.unplaced), examples)

    def _unread(self, generation: Generation, examples: Sequence[Retrieved],
                attempt: Callable[[], Attempt]) -> tuple[str, ...]:
        """The words the rules' best reading of a question no stored question is close to (below ``far``) leaves
        out, when the model's own query (``own.own``) answers it: what that query leaves out. None otherwise."""
        if not own(generation) or self.far is None or (examples and examples[0].score >= self.far):
            return ()
        tried = attempt()  # the rules' best reading of it
        return left_words(tried.unplaced) if tried.composition is None else ()

    def _by_taught(self, text: str, found: Sequence[Name], generic: frozenset[str], kg: KnowledgeGraph,
                   index: LabelIndex | None) -> Composition | None:
        """A pair the team taught, of the question's kind, filled with its names: the names by kind and in order,
        its numbers and bounds as the question states them, and every other word said by the pair's question (in
        its words or others of the same meaning) — else None, and the rules read it."""
        if not self._taught_pairs():
            return None
        intent = read_intent(masked(text, found))
        attempt = self.taught.attempt(text, intent, kg, generic, asked_kinds(text, found), index)
        near = attempt.nearest
        encoder = self.comparisons.encoder
        if attempt.composition is not None or near is None or encoder is None or \
                any(meanings(w) & OPERATORS for w in attempt.unplaced):
            return attempt.composition
        # words the pair's question says otherwise ('spread' for its 'gap'): the same question when, its names
        # masked, it means what the pair's question means — its masked form as the store's knowledge embedded it
        # (the store's encoder), every operator word agreeing
        import numpy as np

        know = self.knowledge() if self.knowledge is not None else None
        if know is None or near.pair.id not in know.form_of:
            return None
        mine = np.asarray(encoder.encode([mask(text, [(n.start, n.end) for n in near.names])])[0], dtype=np.float32)
        theirs = know.vectors[know.form_of[near.pair.id]]
        cosine = float(mine @ theirs / (np.linalg.norm(mine) * np.linalg.norm(theirs)))
        return near if cosine >= TAUGHT_MEANT else None

    def _compared(self, text: str, generation: Generation, examples: Sequence[Retrieved],
                  kg: KnowledgeGraph) -> Review | None:
        """A question about the graph's comparisons read whole: its compiled query in place of the one written (a
        stored pair asked in the same words stands); read in part: declined, naming the words it could not place
        (a query written for it, a model's too, would answer a question nobody read whole). None: not about the
        comparisons as far as the graph's labels tell."""
        if generation.sparql and generation.reading_record is not None:
            return None  # the rules' own reading, written before (pipeline.intent.writer)
        index = self.labels() if self.labels else None
        # the stored questions' names of kinds the graph has none of ('Accuracy', a graph of comparisons alone) are
        # no leaderboard's
        known = {kind for _, _, kind in self._read(text)[0] if index is None or index.knows(kind)}
        if known & _LEADERBOARD:
            return None  # it names a dataset or a model the stored pairs know: a leaderboard's question
        reading = comparison_reading(text, self.comparisons, kg)
        if reading is None or (examples and squeeze(examples[0].example.question) == squeeze(text)):
            return None
        if reading.scope is None and (not reading.whole or Kind.METRIC in known):
            # no comparison named, and a word read in part or a leaderboard's metric: too little to compile; a
            # query written for it stands only if it uses every property the question names
            if not generation.sparql or Kind.METRIC in known:
                return None
            used = {prefixed(p.strip("<>")) or p for _, p, _ in read(generation.sparql).triples}
            unused = [n.label for n in reading.names if n.kind == "property" and n.iri not in used]
            if not unused:
                return None
            declined = replace(generation, sparql=None, reading_record=reading, explanation="")
            return Review(with_unplaced(declined, (*reading.unplaced, *unused)), closest(examples), "a partial reading")
        if reading.whole:
            return Review(compiled(reading, generation))
        declined = replace(generation, sparql=None, reading_record=reading, explanation="")
        return Review(with_unplaced(declined, reading.unplaced), closest(examples), "a partial reading")

    def _which_metric(self, text: str, dataset: str, kg: KnowledgeGraph, generation: Generation,
                      compose: Callable[[str], Composition | None], unscored: GraphName | None = None,
                      measured: Sequence[str] = ()) -> Review | None:
        """A ranking asked on a dataset with no metric named: with one metric, composed by it (and said); with
        several, asked back, each a choice that asks the question by that metric. With a metric named that the
        dataset has no scores by (``unscored``), asked back however many it has, each in place of the one named.
        ``measured``: the dataset's metrics, when already read."""
        metrics = list(measured) or metrics_of(kg, dataset)
        if unscored is not None and metrics:
            return asked_back(generation, f"'{dataset}' has no scores by '{unscored.label}'; it is measured by "
                              f"{named_few(metrics, MAX_CHOICES)}: which one do you mean?", "metric",
                              "a metric the dataset has no scores by",
                              [Choice(m, text[:unscored.start] + m + text[unscored.end:])
                               for m in metrics[:MAX_CHOICES]])
        meant = pointed(text, metrics, dataset)  # 'the least accurate', 'the slowest': the one metric it says
        if meant is not None:
            composed = compose(meant[1])
            return None if composed is None else composed_review(composed, generation, f"read as by {meant[0]}")
        choices = tuple(Choice(m, f"{text.rstrip(' ?.!')} by {m}?") for m in metrics[:MAX_CHOICES])
        if len(metrics) == 1:
            composed = compose(choices[0].question)
            return None if composed is None else composed_review(composed, generation, f"'{dataset}' has scores by "
                                                           f"{metrics[0]} alone")
        if not choices:
            return None
        return asked_back(generation, f"'{dataset}' is measured by {len(metrics)} metrics "
                          f"({named_few(metrics, MAX_CHOICES)}), and which is best depends on the metric: which one do "
                          "you mean?", "metric", "no metric named", choices)

    @staticmethod
    def _which_name(text: str, generic: frozenset[str], index: LabelIndex, generation: Generation,
                    compose: Callable[[str], Composition | None]) -> Review | None:
        """A name several labels begin ('agrovit'), asked back: which one, a choice per label."""
        asked = which_name(text, generic, index, compose)
        if asked is None:
            return None
        typed, choices = asked
        said = (f"'{typed}' could be {', '.join(repr(c.label) for c in choices[:-1])} or '{choices[-1].label}': "
                "which one do you mean?")
        return asked_back(generation, said, "name", "a name several things begin", choices)

    def _declined(self, generation: Generation, intent: Intent, missing: Sequence[str],
                  examples: Sequence[Retrieved]) -> Review:
        sparql = generation.sparql or ""
        reading = explain(sparql)
        offer = adapted_question(sparql, examples) or closest(examples)
        asks = f" ({intent.says()})" if intent.operators else ""
        text = (f"I can't answer this as asked{asks}: the closest query I could write does not use "
                + "; nor ".join(missing) + "." + (f" {reading.replace('It asks', 'That query asks', 1)}"
                                                   if reading else ""))
        if offer:
            text += f" The closest question I can answer: '{offer}'"
        return Review(Generation(generation.generator, None, raw=generation.raw, prompt=generation.prompt,
                                 explanation=text, notes=generation.notes + ("declined by the intent guard: "
                                                                             + "; ".join(missing),),
                                 attempts=generation.attempts), offer, "; nor ".join(missing))
