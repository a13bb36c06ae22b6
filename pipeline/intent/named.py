"""The question's names as the graph has them: the runs of its words that may be names (``spans``), looked up by
their exact labels (any case), and, with the graph's label index, by other blanks, hyphens or version spacing, a slip
in a word, or their first words alone (``begun_by``): what the composer fills its pairs with."""
from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from pipeline.errors import KgqaError
from pipeline.intent.account import FILLER, meanings
from pipeline.intent.loose import with_shortened
from pipeline.intent.reading import YEAR
from pipeline.matching.wording import STOPWORDS, within_edits
from pipeline.names.index import KINDS, LabelIndex, squeeze, unmarked
from pipeline.parts import KnowledgeGraph, LowersLabels, native
from pipeline.records import REACHED_BY, Kind, Match
from pipeline.sparql.gate import gate
from pipeline.sparql.literal import label_literals, quoted

MAX_WORDS = 6  # longest name looked up
_KIND_OF = {f"class/{kind.orkg_class}": kind for kind in Kind} | {
    p.replace("orkgp:", "predicate/"): kind for p, kind in REACHED_BY.items()}
_EDGE = "?!.,;:\"'“”‘’()"
YEAR_WORD = re.compile(r"(?<![\w.-])(?:19|20)\d\d(?![\w-]|\.\d)")  # "in 2021." ends a sentence; "2021.5" is no year
_QUOTED = re.compile(r"[\"“]([^\"“”]{3,300})[\"”]")


@dataclass(frozen=True)
class Name:
    """A name of the question found in the graph: where it is, the graph's spelling, and the kinds it has there."""

    start: int
    end: int
    label: str
    kinds: frozenset[str]



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
            end = closed(text, run[0][0], run[-1][1], run[-1][2])
            out.append((run[0][0], end))
            if text[end - 2:end].lower() in ("'s", "’s") and end - 2 > run[0][0]:
                out.append((run[0][0], end - 2))  # a name's possessive: "eqtransformer's f1"
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
    graph = with_shortened(graph, keys, index, generic)
    names: list[Name] = []
    def key(span: tuple[int, int]) -> tuple[bool, int, int]:
        hit = graph.get(" ".join(text[span[0]:span[1]].lower().split()))
        return (hit is None or hit[0] not in prefer, span[0] - span[1], span[0])

    for a, b in sorted(found, key=key):
        hit = graph.get(" ".join(text[a:b].lower().split()))
        if hit and not any(n.start < b and a < n.end for n in names):
            names.append(Name(a, b, hit[0], frozenset(hit[1])))
    names = [_titled(n, text, index) for n in names]
    return [_trimmed(n, text) for n in
            _joined([_extended(n, text, names) for n in sorted(names, key=lambda n: n.start)], text)]


def _trimmed(name: Name, text: str) -> Name:
    """``name`` without a sign or a blank its label does not end with ('rouge-l + its score': the '+' joins)."""
    end = name.end
    while end > name.start + 1 and (text[end - 1].isspace() or text[end - 1] in "+&,;:/") and \
            not name.label.endswith(text[end - 1]):
        end -= 1
    return name if end == name.end else replace(name, end=end)


_PAPER_AFTER = re.compile(r"\s*(?:paper|article|publication)\b", re.I)


def _titled(name: Name, text: str, index: LabelIndex | None) -> Name:
    """'the CladoNet paper': the one paper whose title is the model's name and a subtitle ('CladoNet: Fine-Grained
    …'), not every paper using that model."""
    if index is None or Kind.MODEL not in name.kinds or not _PAPER_AFTER.match(text, name.end):
        return name
    titles = [t for t in index.completions(name.label) if index.has(t, Kind.PAPER) and
              re.match(re.escape(name.label) + r"\s*:", t)]
    return Name(name.start, name.end, titles[0], frozenset({Kind.PAPER})) if len(titles) == 1 else name


def _extended(name: Name, text: str, names: Sequence[Name]) -> Name:
    """The name over the words right after it that are its label's next words ('cladonia *field*' for
    'Cladonia-Field (2012)': a kind word inside the name typed, read as the name's, not as a kind asked)."""
    theirs = re.findall(r"[^\W_]+", unmarked(name.label).lower())
    typed = re.findall(r"[^\W_]+", unmarked(text[name.start:name.end]).lower())
    at = len(typed) if theirs[:len(typed)] == typed else 0
    end = name.end
    for word in re.finditer(r"[^\W_]+", text[end:]):
        start = end + word.start()
        if not at or at >= len(theirs) or word.group().lower() != theirs[at] or text[end:start].strip(" -") or \
                any(n.start <= start < n.end for n in names):
            break
        end, at = end + word.end(), at + 1
    return Name(name.start, end, name.label, name.kinds) if end != name.end else name


def _joined(names: Sequence[Name], text: str) -> list[Name]:
    """The names, one linked by two runs of its words a few words apart ('*bat species* id from *echolocation*
    calls') taken as one name over both runs and the words between them."""
    out: list[Name] = []
    for n in names:
        if out and out[-1].label == n.label and len(text[out[-1].end:n.start].split()) <= 3:
            out[-1] = Name(out[-1].start, n.end, n.label, out[-1].kinds | n.kinds)
        else:
            out.append(n)
    return out


def years(text: str, names: Sequence[Name]) -> list[Name]:
    """The years the question states outside its names ('published in 2019'), as names of the kind "year" (a paper's
    orkgp:P29): a pair with a year slot takes them, and no pair without one can use every name."""
    return [Name(m.start(), m.end(), m.group(), frozenset({YEAR})) for m in YEAR_WORD.finditer(text)
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
    glued = re.fullmatch(r"[^\W\d_]+-?\d+", key.strip()) is not None  # 'top-1', 'top1': one word of a name
    if not any(c.isalpha() for c in "".join(typed)) or any(  # 'top1' is a name's word, 'top' an operator's
            w in FILLER or (w.isalpha() and not glued and meanings(w) - {"numeral"}) for w in typed):
        return []
    # the labels begun by its letters, or, its last word typed with a slip ('random forrest'), by the words before it
    found = index.completions(squeeze(key)) or (index.completions(" ".join(typed[:-1])) if len(typed) > 1 else
                                                 # one long word with a slip past its first letters ('thalusnet';
                                                 # a short one is asked about: 'squadd')
                                                 index.completions(typed[0][:4]) if len(typed[0]) >= 8 else [])
    begun = [label for label in found if _begins(typed, re.findall(r"[^\W_]+", unmarked(label).lower()))]
    if len("".join(typed)) < 4 and not any(re.findall(r"[^\W_]+", unmarked(label).lower())[:len(typed)] == typed
                                           for label in begun):
        return []
    things = [label for label in begun if any(index.has(label, k) for k in KINDS if k != Kind.PAPER)]
    return things or begun  # 'geobind' is the model, not the title of the paper that begins with its name


def _begins(typed: Sequence[str], theirs: Sequence[str]) -> bool:
    """Whether ``typed`` are the first of ``theirs``, fewer of them, the last one whole or cut before digits; or
    their letters are those of the first of ``theirs`` run together or split otherwise."""
    if typed and any("".join(typed) == "".join(theirs[:k]) for k in range(1, len(theirs))):
        return True  # the first words run together or split otherwise ('yolo v5': 'YOLOv5-s', 'noaa rogue buoy')
    if len(typed) > 1 and len(typed[-1]) >= 3 and any(
            "".join(typed[:-1]) == "".join(theirs[:k]) and theirs[k].startswith(typed[-1]) != (theirs[k] == typed[-1])
            for k in range(1, len(theirs))):
        return True  # so, and the last word cut short ('top1 acc': 'Top-1 Accuracy')
    if not 0 < len(typed) < len(theirs) + 1 or typed == list(theirs):
        return False
    *whole, last = typed
    mine = theirs[len(whole)]
    return list(theirs[:len(whole)]) == whole and (
        (last == mine and len(typed) < len(theirs)) or
        (mine.startswith(last) and (mine[len(last):].isdigit() or len(last) >= 3)) or
        (len(typed) < len(theirs) and min(len(last), len(mine)) >= 5 and within_edits(last, mine)))  # 'forrest'
