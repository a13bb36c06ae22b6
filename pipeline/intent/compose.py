"""Queries composed for common asks the stored pairs lack: the question's names are looked up in the graph (their
kinds and the graph's spelling), then the intent pair asking the same operators with slots of those kinds, best
aligned with the question's wording, is filled with them."""
from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from pipeline.errors import KgqaError
from pipeline.intent.account import (
    FILLER,
    direction_known,
    lower_is_better,
    meanings,
    read_question,
    unasked,
    unplaced,
)
from pipeline.intent.conditions import blanked, compared_spans, comparisons, measures, unaccounted
from pipeline.intent.meaning import listed_as_most, picks
from pipeline.intent.reading import CODE, YEAR, Intent, Span, asked_kinds, asks_one, asks_who, first_asked, read_intent
from pipeline.matching.align import align_form
from pipeline.matching.forms import Form, form_of, slot_values
from pipeline.matching.wording import STOPWORDS, within_edits
from pipeline.names.index import KINDS, LabelIndex, squeeze, unmarked
from pipeline.parts import KnowledgeGraph, LowersLabels, native
from pipeline.records import Example, Kind, Match
from pipeline.sparql.gate import gate
from pipeline.sparql.literal import label_literals, quoted
from pipeline.sparql.shape import read, replace_literals

MAX_WORDS = 6  # longest name looked up
_KIND_OF = {f"class/{kind.orkg_class}": kind for kind in Kind} | {
    "predicate/HAS_DATASET": Kind.DATASET, "predicate/HAS_MODEL": Kind.MODEL, "predicate/HAS_METRIC": Kind.METRIC,
    "predicate/P32": Kind.PROBLEM, "predicate/P30": Kind.RESEARCHFIELD}
_EDGE = "?!.,;:\"'“”‘’()"
_YEAR = re.compile(r"(?<![\w.-])(?:19|20)\d\d(?![\w-]|\.\d)")  # "in 2021." ends a sentence; "2021.5" is no year
_QUOTED = re.compile(r"[\"“]([^\"“”]{3,300})[\"”]")


@dataclass(frozen=True)
class Name:
    """A name of the question found in the graph: where it is, the graph's spelling, and the kinds it has there."""

    start: int
    end: int
    label: str
    kinds: frozenset[str]


@dataclass(frozen=True)
class Composition:
    sparql: str
    pair: Example
    names: tuple[Name, ...]
    read: tuple[tuple[str, str], ...] = ()  # (as typed, the graph's label) for each name typed with a slip


@dataclass(frozen=True)
class Attempt:
    """What composing found: the query (None when no pair fits), and the question's words the best pair that fits
    otherwise does not say (its reading would be partial: the reply names them)."""

    composition: Composition | None
    unplaced: tuple[str, ...] = ()
    unmeasured: str = ""  # a ranking asked on this dataset with no metric named: the answer depends on which
    nearest: Composition | None = None  # the best pair that fits but for the words in ``unplaced``, filled


def metrics_of(kg: KnowledgeGraph, dataset: str) -> list[str]:
    """The metrics the graph has scores of on ``dataset`` (its label), sorted; none when it cannot say."""
    query = ("SELECT DISTINCT ?metric_lbl WHERE { ?dataset rdfs:label ?dataset_lbl. FILTER(str(?dataset_lbl) = "
             f"{quoted(dataset)}) ?benchmark orkgp:HAS_DATASET ?dataset; orkgp:HAS_EVALUATION ?eval. "
             "?eval orkgp:HAS_METRIC ?metric. ?metric rdfs:label ?metric_lbl. }")
    check = gate(query, 200)
    try:
        rows = kg.select(check.fixed) if check.ok else None
    except KgqaError:
        return []
    return sorted({row["metric_lbl"]["value"] for row in rows.rows if "metric_lbl" in row}) if rows else []


def spans(text: str, generic: frozenset[str]) -> list[tuple[int, int]]:
    """Word runs of up to MAX_WORDS words that could be names: not starting or ending with a stopword, not only
    form words (unless written with capitals or digits)."""
    words = []
    for m in re.finditer(r"\S+", text):
        a, b = m.start(), m.end()
        while a < b and text[a] in _EDGE:
            a += 1
        while b > a and text[b - 1] in _EDGE and not (text[b - 1] == ")" and "(" in text[a:b]):
            b -= 1
        if a < b:
            words.append((a, b, m.end(), text[a:b].lower()))
    out = []
    for i in range(len(words)):
        for j in range(i, min(i + MAX_WORDS, len(words))):
            run = words[i:j + 1]
            if run[0][3] in STOPWORDS or run[-1][3] in STOPWORDS:
                continue
            plain = all(w in STOPWORDS or w in generic for _, _, _, w in run)
            if plain and text[run[0][0]:run[-1][1]] == text[run[0][0]:run[-1][1]].lower():
                continue
            out.append((run[0][0], closed(text, run[0][0], run[-1][1], run[-1][2])))
    return out + [m.span(1) for m in _QUOTED.finditer(text)]  # a quoted title, however long


_CLOSING = {")": "(", "]": "[", "”": "“", "’": "‘"}


def closed(text: str, start: int, end: int, limit: int) -> int:
    """The end of a name's span taken on over the closing brackets and quotes (up to ``limit``) that close what it
    opens: 'NarrativeNet ("large", 2×)', 'Penn Treebank (Word Level)' keep their last ')' before a '?' or ','."""
    while end < limit:
        char, held = text[end], text[start:end]
        opener = _CLOSING.get(char)
        if (opener and held.count(opener) > held.count(char)) or (char in "\"'" and held.count(char) % 2):
            end += 1
        else:
            break
    return end




def graph_kinds(keys: Sequence[str], kg: KnowledgeGraph, loose: bool = False,
                spelled: Mapping[str, str] | None = None,
                known: LabelIndex | None = None) -> dict[str, tuple[str, set[str]]] | None:
    """key -> (the graph's label, its kinds) for labels equal to a key (``loose``: case-insensitively, keys given in
    lowercase; of several labels, the one ``spelled`` as the user typed it, else the first). One read-only query;
    None when the graph cannot answer it (e.g. the recorded snapshot). With ``known``, the graph's label index, a
    graph that cannot answer a case-insensitive test from an index of its own (an endpoint, which scans every label
    for it) is asked for the labels the index holds with a key's lowercase instead: things of the classes the index
    lists."""
    if not keys:
        return {}
    if loose and (known is None or native(kg, LowersLabels) is not None):  # type: ignore[type-abstract]
        match = ("VALUES ?key { " + " ".join(map(quoted, keys)) + " } "
                 "?x rdfs:label ?label. FILTER(LCASE(STR(?label)) = ?key)")
    else:
        texts = {key: known.cased(key) if loose and known is not None else [key] for key in keys}
        if not any(texts.values()):  # still asked: a graph that cannot answer (the snapshot) says so
            texts = {keys[0]: [keys[0]]}
        match = " UNION ".join(  # constant patterns, each found by the endpoint's index (its VALUES joins are slow)
            f"{{ ?x rdfs:label {form}. BIND({quoted(key)} AS ?key) BIND({quoted(label)} AS ?label) }}"
            for key, labels in texts.items() for label in labels for form in label_literals(label, ("en",)))
    query = ("SELECT DISTINCT ?key ?label ?kind WHERE { " + match
             + " { ?x a ?kind } UNION { ?s ?kind ?x. FILTER(?kind IN (orkgp:HAS_DATASET, orkgp:HAS_MODEL, "
             "orkgp:HAS_METRIC, orkgp:P32, orkgp:P30)) } }")
    check = gate(query, 2000)
    try:
        rows = kg.select(check.fixed) if check.ok else None
    except KgqaError:
        return None
    if rows is None:
        return None
    graph: dict[str, tuple[str, set[str]]] = {}
    for row in rows.rows:
        kind = _KIND_OF.get("/".join(row.get("kind", {}).get("value", "").rsplit("/", 2)[-2:]))
        if kind and "key" in row and "label" in row:
            key, label = row["key"]["value"], row["label"]["value"]
            kept = graph.setdefault(key, (label, set()))
            if label != kept[0] and spelled and spelled.get(key) == label:
                graph[key] = kept = (label, kept[1])  # 'Relation Extraction' as typed, not 'relation extraction'
            kept[1].add(kind)
    return graph


def resolve(text: str, kg: KnowledgeGraph, generic: frozenset[str], index: LabelIndex | None = None,
            prefer: Collection[str] = (), known: LabelIndex | None = None) -> list[Name]:
    """The question's names as the graph has them (case-insensitive exact labels, asked as the labels ``known``
    holds when given; with the graph's label ``index``, also names typed with other blanks, hyphens or version
    spacing: 'squad 1.1'), not overlapping: the labels in ``prefer`` (a written query's own names) first, then the
    longest."""
    found = spans(text, generic)
    spelled = {" ".join(text[a:b].lower().split()): " ".join(text[a:b].split()) for a, b in found}
    keys = set(spelled)
    graph = graph_kinds(sorted(keys), kg, loose=True, spelled=spelled, known=known if known is not None else index)
    if graph is None:  # a graph that cannot say what its names are (the recorded snapshot): nothing to compose with
        return []
    graph = with_completions(with_slips(with_normalised(graph, keys, index), keys, index), keys, index)
    names: list[Name] = []
    def key(span: tuple[int, int]) -> tuple[bool, int, int]:
        hit = graph.get(" ".join(text[span[0]:span[1]].lower().split()))
        return (hit is None or hit[0] not in prefer, span[0] - span[1], span[0])

    for a, b in sorted(found, key=key):
        hit = graph.get(" ".join(text[a:b].lower().split()))
        if hit and not any(n.start < b and a < n.end for n in names):
            names.append(Name(a, b, hit[0], frozenset(hit[1])))
    return sorted(names, key=lambda n: n.start)


def years(text: str, names: Sequence[Name]) -> list[Name]:
    """The years the question states outside its names ('published in 2019'), as names of the kind "year" (a paper's
    orkgp:P29): a pair with a year slot takes them, and no pair without one can use every name."""
    return [Name(m.start(), m.end(), m.group(), frozenset({YEAR})) for m in _YEAR.finditer(text)
            if not any(n.start < m.end() and m.start() < n.end for n in names)]


def normalised(index: LabelIndex, typed: str) -> tuple[str, set[str]] | None:
    """The graph's label for a name typed with other case, blanks, hyphens or version spacing, and its kinds; None
    when there is no such label, or several (a close spelling is not enough to compose a query with)."""
    found = index.spelled(typed)  # every span of the question is asked: no search for close spellings
    if found is None or found.match is not Match.NORMALISED or found.chosen is None:
        return None
    kinds: set[str] = {kind for kind in KINDS if index.has(found.chosen, kind)}
    return (found.chosen, kinds) if kinds else None


def with_normalised(graph: dict[str, tuple[str, set[str]]], keys: Iterable[str],
                    index: LabelIndex | None) -> dict[str, tuple[str, set[str]]]:
    """``graph`` (key -> label, kinds) with the keys it lacks that the label ``index`` reads as one of its labels."""
    out = dict(graph)
    if index is None:
        return out
    for key in sorted(set(keys) - out.keys()):
        hit = normalised(index, key)
        if hit is not None:
            out[key] = hit
    return out


def with_slips(graph: dict[str, tuple[str, set[str]]], keys: Iterable[str],
               index: LabelIndex | None) -> dict[str, tuple[str, set[str]]]:
    """``graph`` with the keys it lacks that are one label of the graph typed with a slip in its words ('land cover
    segmentaion'): the same words, each the label's or one typo from it, and no other label as close."""
    if index is None:
        return graph
    out = dict(graph)
    for key in sorted(set(keys) - out.keys()):
        typed = re.findall(r"[^\W_]+", key)
        if len("".join(typed)) < 5 or all(w in FILLER or meanings(w) for w in typed):
            continue  # a slip is in a name: no run of the question's own words ('scored' is no 'Score')
        found = index.find(key)
        if found.match is not Match.CLOSE or found.chosen is None:
            continue
        theirs = re.findall(r"[^\W_]+", found.chosen.lower())
        if len(theirs) == len(typed) and all(a == b or (min(len(a), len(b)) >= 4 and within_edits(a, b))
                                             for a, b in zip(typed, theirs)):
            kinds: set[str] = {kind for kind in KINDS if index.has(found.chosen, kind)}
            if kinds:
                out[key] = (found.chosen, kinds)
    return out


def with_completions(graph: dict[str, tuple[str, set[str]]], keys: Iterable[str],
                     index: LabelIndex | None) -> dict[str, tuple[str, set[str]]]:
    """``graph`` with the keys it lacks that are the first words of exactly one label of the graph (``begun_by``);
    none when two labels begin so (the step asks back which one)."""
    if index is None:
        return graph
    out = dict(graph)
    for key in sorted(set(keys) - out.keys()):
        begun = begun_by(key, index)
        if len(begun) == 1:
            kinds: set[str] = {kind for kind in KINDS if index.has(begun[0], kind)}
            if kinds:
                out[key] = (begun[0], kinds)
    return out


def begun_by(key: str, index: LabelIndex) -> list[str]:
    """The labels of the graph whose first words ``key`` is, their last words left out ('orcaphone' for
    'OrcaPhone-2.1', 'lsf gestes' for 'LSF-Gestes (Réunion)'; the last word typed may be cut short: 'signbank iso' for
    'SignBank-Iso1000', 'top-1 acc' for 'Top-1 Accuracy'); a name of fewer than four letters only as a label's first
    words whole ('f1' for 'F1-score'); none for filler or a word with a meaning of its own; a paper's title only when
    nothing else is begun so."""
    typed = re.findall(r"[^\W_]+", unmarked(key).lower())
    if not any(c.isalpha() for c in "".join(typed)) or any(w in FILLER or meanings(w) - {"numeral"} for w in typed):
        return []
    begun = [label for label in index.completions(squeeze(key))
             if _begins(typed, re.findall(r"[^\W_]+", unmarked(label).lower()))]
    if len("".join(typed)) < 4 and not any(re.findall(r"[^\W_]+", unmarked(label).lower())[:len(typed)] == typed
                                           for label in begun):
        return []
    things = [label for label in begun if any(index.has(label, k) for k in KINDS if k != Kind.PAPER)]
    return things or begun  # 'geobind' is the model, not the title of the paper that begins with its name


def _begins(typed: Sequence[str], theirs: Sequence[str]) -> bool:
    """Whether ``typed`` are the first of ``theirs``, fewer of them, the last one whole or cut before digits."""
    if not 0 < len(typed) < len(theirs) + 1 or typed == list(theirs):
        return False
    *whole, last = typed
    mine = theirs[len(whole)]
    return list(theirs[:len(whole)]) == whole and (
        (last == mine and len(typed) < len(theirs)) or
        (mine.startswith(last) and (mine[len(last):].isdigit() or len(last) >= 3)))


def form_spans(pair: Example) -> list[tuple[int, int]]:
    """Where a pair's slot literals stand in its question."""
    out = []
    for literal, _ in slot_values(pair):
        at = pair.question.find(literal)
        if at >= 0:
            out.append((at, at + len(literal)))
    return out


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
    return out if not free else None


class Composer:
    """Writes a query for a question from the intent pairs (and any other pairs given) asking its operators."""

    def __init__(self, pairs: Callable[[], Sequence[Example]],
                 labels: Callable[[], LabelIndex | None] | None = None) -> None:
        """``labels``: the graph's label index, to ask the graph for a question's names by exact labels."""
        self.pairs = pairs
        self.labels = labels

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
        names to read the question with first; ``by_metric``: "best" read by the metric's direction (else as
        ``intent`` reads it: the way a written query ranks, SciQA's templates' "best" always the highest)."""
        names = resolve(text, kg, generic, index, prefer, self.labels() if self.labels else None)
        names = sorted(names + years(text, names), key=lambda n: n.start)  # none: only a pair of the whole graph
        lower = by_metric and any(Kind.METRIC in n.kinds and lower_is_better(n.label) for n in names)
        relative = _BEST.search(blanked(text, [(n.start, n.end) for n in names])) or \
            _WORST.search(blanked(text, [(n.start, n.end) for n in names]))
        unknown = [n.label for n in names if Kind.METRIC in n.kinds and not direction_known(n.label)]
        if by_metric and relative and unknown and not _ABSOLUTE.search(text):  # which end is best is not guessed
            return Attempt(None, (f"'{relative.group()}' by '{unknown[0]}' (is a lower or a higher one better?)",))
        # every word read once; 'after 2020' is applied by ``filled`` to whichever pair holds the year
        reading = read_question(text, [(n.start, n.end) for n in names], compared_spans(text), lower)
        if by_metric:
            intent = directed(intent, blanked(text, [(n.start, n.end) for n in names]), lower)  # 'Top-1': a name
        best: tuple[float, Example, list[Name]] | None = None
        partial: tuple[float, tuple[str, ...], Composition] | None = None  # the best pair that leaves words out
        typed: list[Span] = [(n.start, n.end, next(iter(n.kinds))) if len(n.kinds) == 1 else (n.start, n.end)
                             for n in names]
        asked = asked | asked_kinds(text, typed)  # 'Computational Semantics papers': a field's, papers asked
        head = first_asked(text, typed)
        # a year stays in the words its conditions are read from: 'after 2020' is a comparison the pair must hold
        stated = blanked(text, [(n.start, n.end) for n in names if YEAR not in n.kinds])
        stated_years = {n for n in comparisons(stated) if _YEAR.fullmatch(n)}  # years a bound states
        if asks_who(stated) and not asked and (intent.operators or intent.highest):
            # "who is second on X": of the things a leaderboard pair answers, a model (a bare "who leads X" is no
            # operator read: nothing is composed for it, rather than a list of every model)
            asked = frozenset({Kind.MODEL})
        for pair in self.pairs():
            if not fits(read_intent(pair.question), intent, pair.sparql):
                continue
            form = form_of(pair)
            chosen = assign(form, names)
            if chosen is None and comparisons(pair.question) and stated_years:  # 'after 2016' as its 'after 2020'
                chosen = assign(form, [n for n in names if not (YEAR in n.kinds and n.label in stated_years)])
            if chosen is None:
                continue
            theirs = asked_kinds(pair.question, form_spans(pair))
            if theirs and not theirs & asked and "yesno" not in intent.operators:
                continue  # it returns things the question does not ask for ('the best score on Pong': not its problems)
            their_head = first_asked(pair.question, form_spans(pair))
            if head and their_head and head != their_head and head in theirs and their_head in asked:
                continue  # the same two kinds the other way round: 'the dataset with the most metrics' is no metric
            if CODE in asked - theirs and "yesno" not in intent.operators:
                continue  # code links asked of papers are not the papers

            if "every" in read_intent(pair.question).operators - intent.operators and asks_one(stated):
                continue  # "the top model on X": one, not every model with its score
            if "most" in measures(pair.question) and listed_as_most(stated):
                continue  # 'the most commonly used datasets for X': SciQA's list of every one, no top one
            if comparisons(pair.question) and not comparisons(stated):
                continue  # a bound nobody stated is no list of them all
            if measures(blanked(pair.question, form_spans(pair))) - measures(stated):
                continue  # an average nobody asked for is no list of the values
            if unaccounted(stated, filled(pair, chosen, intent, text), measures=True):
                continue  # a condition of the question the pair's query does not hold ('the most common metric')
            score = align_form(form.pieces, text, generic).score + (theirs == asked) + bool(theirs & asked) + \
                (head in theirs and head in asked)  # 'the metrics used to evaluate models': metrics, not models
            said = (pair.question, tuple(form_spans(pair)), pair.sparql)
            if unasked(reading, said):
                continue  # the pair does what the question does not ask ('without code', 'the lowest')
            left = unplaced(reading, said, things="yesno" not in intent.operators)
            if left:  # the pair's query would not do what these words ask: a partial reading, never answered
                if partial is None or score > partial[0]:
                    partial = (score, tuple(left), Composition(filled(pair, chosen, intent, text), pair,
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
        return Attempt(Composition(filled(pair, chosen, intent, text), pair, tuple(chosen), slips))


def filled(pair: Example, chosen: Sequence[Name], intent: Intent, text: str = "") -> str:
    """The pair's query with the question's names in its slots, and its place or count in the ranking; a year the
    question ``text`` compares with ('after 2021') compared so, not matched."""
    values = {literal: name.label for (literal, _), name in zip(slot_values(pair), chosen)}
    sparql = replace_literals(pair.sparql, values)
    stated = comparisons(text)
    for year, op in stated.items():
        if any(YEAR in n.kinds and n.label == year for n in chosen):
            sparql = re.sub(rf'FILTER\s*\(\s*str\(\?(\w+)\)\s*=\s*"{year}"\s*\)',
                            rf"FILTER(xsd:integer(?\1) {op} {year})", sparql)
    bounds = [(n, op) for n, op in stated.items() if not any(YEAR in c.kinds and c.label == n for c in chosen)]
    if len(bounds) == 1 and len(theirs := comparisons(pair.question)) == 1:  # 'above 60': the pair's bound, as said
        sparql = re.sub(rf"(\?\w+|\))\s*(?:>=|<=|>|<)\s*{re.escape(next(iter(theirs)))}\b",
                        rf"\1 {bounds[0][1]} {bounds[0][0]}", sparql)  # '?score > 60', 'xsd:integer(?year) > 2020'
    if "kth" in intent.operators:
        sparql = re.sub(r"\bOFFSET\s+\d+", f"OFFSET {intent.rank - 1}", sparql)
    if "top" in intent.operators:
        sparql = re.sub(r"\bLIMIT\s+\d+", f"LIMIT {intent.rank}", sparql)
    return sparql


_BEST = re.compile(r"\b(?:best|top|leading|strongest|winning)\b", re.I)
_WORST = re.compile(r"\b(?:worst|weakest|poorest|bottom)\b", re.I)
_ABSOLUTE = re.compile(r"\b(?:highest|lowest|maximum|minimum|largest|smallest|greatest)\b", re.I)


def directed(intent: Intent, text: str, lower_better: bool) -> Intent:
    """The direction of the question's ranking: "best" is the highest value, or the lowest on a metric where lower is
    better (an error rate), where "worst" is the highest; "highest" and "lowest" mean what they say."""
    if _ABSOLUTE.search(text):
        return intent
    if _WORST.search(text) and lower_better:
        return Intent(intent.operators - {"lowest"}, intent.rank, True)
    if _BEST.search(text):  # 'the three best by WER': the three lowest; 'the best by F1': the highest
        return Intent(intent.operators | {"lowest"}, intent.rank, False) if lower_better else \
            Intent(intent.operators, intent.rank, True)
    return intent


def fits(theirs: Intent, ours: Intent, sparql: str) -> bool:
    """Whether a pair asking ``theirs`` answers a question asking ``ours``: the same operators ("every" aside: a list
    of every one is any list that keeps all its rows), and, with none, both asking for the highest or neither."""
    if theirs.operators - {"every"} != ours.operators - {"every"}:
        return False
    if "every" in ours.operators and picks(read(sparql)):
        return False
    return bool(ours.operators - {"every"}) or theirs.highest == ours.highest
