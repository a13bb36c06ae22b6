"""Every word of a question accounted for (a closed world): each is inside a name the graph has, one of the few filler
words kept here, or a word whose meaning the query to run also says. A query composed from an intent pair is run only
when the pair's own question says everything the user's does (in its words or others of the same meaning); any other
word makes the reading *partial*, and a partial reading is never answered as if whole: the reply names the words it
could not place. A metric where lower is better (an error rate) turns "best" and "worst" around."""
from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from functools import lru_cache

from pipeline.intent.idioms import idioms
from pipeline.matching.wording import STOPWORDS, stem, within_edits, word_sim
from pipeline.sparql.parsed import parse

# Words that say nothing a query must do: greetings, requests, the question's own scaffolding. One list, kept short:
# growing it is no fix for a word the reading does not understand.
_FILLER = """hey hi hello please pls plz thanks thx tell show list give name find know idea anyone someone anybody want
need like see check quick question ok so also too about currently ever yet graph orkg kg here one ones research distinct
different unique known available exist exists present stored s much such then again me us whats whos wheres hows thats
theres im among across actually really indicate provide identify specify mention display return anywhere diff anything
everything something people ppl folks everyone everybody btw yo ya em r u w lemme gimme morning afternoon sorry stuff
if obv obvs obviously ofc leaderboard leaderboards just actual"""
FILLER = STOPWORDS | frozenset(_FILLER.split())

# Meanings: words that say the same thing a query does. A word may carry several (a 'number' is a count or a score).
_MEANINGS: dict[str, str] = {
    "paper": "paper papers article articles publication publications study studies title titles work works",
    "model": "model models method methods system systems approach approaches architecture architectures",
    "dataset": "dataset datasets benchmark benchmarks corpus corpora data set sets",
    "metric": "metric metrics measure measures measured",
    "value": "score scores value values result results number numbers performance",
    "problem": "problem problems task tasks challenge challenges",
    "field": "field fields area areas domain domains discipline",
    "venue": "venue venues journal journals conference conferences proceedings",
    "code": "code codes public open opensource link links repository repositories repo repos github implementation "
            "implementations source url",
    "year": "year years when date dated",
    # the links between the kinds a question names: in an ORKG-shaped graph two kinds are linked one way, so these
    # words are read with the kinds (a paper 'introduces' and 'evaluates' its model along the same path)
    "link": "vs versus evaluated evaluate evaluates evaluation evaluations eval evals tested test tests benchmarked "
            "run ran runs "
            "used use uses using report reports reported reporting achieved achieve achieves obtained obtain obtains "
            "got get gets scored reach reaches reached trained applied apply addressed address tackle tackles tackled "
            "studied working cover covers covered appear appears appeared published publish released release "
            "introduced introduce introduces proposed propose presented describe described came come comes out belong "
            "belongs include includes including result results recorded record performed perform performs performing "
            "done measured fall falls part under sit sits addressing put look looks looked looking examine examines "
            "examined investigate investigates investigated focus focuses focused consider considers considered "
            "involve involves involved share shares shared sharing span spans spanned against deal deals dealt "
            "dealing try tried trying trial trials trialled trialed attached associated hit hits filed grown grow grew "
            "tracked track running doing managed manage manages behind lives live hosted overall",
    "count": "count counts number many total amount",
    "up": "highest maximum max largest greatest biggest",
    "down": "lowest minimum min smallest",
    "kth": "second third fourth fifth 2nd 3rd 4th 5th runner place placed rank ranked position",
    "compare": "after since before until till prior later earlier newer older more less fewer greater higher lower "
               "above below over under exceeding beyond than between thru through inclusive incl strictly exclusive "
               "exclusively",
    "most": "most fewest least common commonly frequent frequently popular often",
    "average": "average mean avg",
    "early": "earliest oldest first",
    "late": "latest newest recent last",
    "both": "both",
    "every": "every each per together along alongside",
    # both ends, the highest and the lowest ('the range of X'); one number between two values ('the gap between the
    # best and the worst', 'how much did A improve over B')
    "spread": "range span",
    "gap": "spread gap difference differ differs margin improve improved improvement",
    # above a named model's score
    "beat": "beat beats beating outperform outperforms outperformed outperforming surpass surpasses surpassed outdo "
            "outdoes better",
    "not": "not no without never except excluding dont doesnt didnt isnt arent wasnt werent havent hasnt hadnt "
           "lacking lack lacks missing but other none neither nor outside apart aside",
}
_KNOWN = frozenset(w for said in _MEANINGS.values() for w in said.split())
# what a pair's query reaches, by the predicates and classes it names: a kind word the query reaches is said by it
_OF_PAPERS = {"P30", "P29", "HAS_VENUE"}  # a paper's own: the query passes through papers
_REACHES = {"HAS_MODEL": "model", "HAS_DATASET": "dataset", "HAS_METRIC": "metric", "HAS_VALUE": "value",
            "P32": "problem", "P30": "field", "P31": "paper", "HAS_SOURCE_CODE": "code", "P29": "year",
            "Model": "model", "Dataset": "dataset", "Metric": "metric", "Problem": "problem", "ResearchField": "field",
            "Paper": "paper", "HAS_VENUE": "venue", "Venue": "venue"}
# 'fastest' is the best on a time taken (lower is better), 'slowest' its worst
_RELATIVE = {"best": "best better top tops leading leads strongest winning wins sota fastest quickest",
             "worst": "worst worse weakest poorest bottom slowest"}
_EXACT = {"not"}  # a negation is never read into a look-alike word
_WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?|\d+(?:st|nd|rd|th)\b|\d+(?:\.\d+)?")
_NUMERAL = re.compile(r"\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten")
_THE_NAME_PAPER = re.compile(r"\s+(paper)\b", re.I)


def _phrased(text: str, names: Iterable[tuple[int, int]], lower_better: bool = False) -> list[tuple[int, int, str]]:
    """The phrases of ``text`` outside its ``names`` ('highest *Number of params*' holds no 'number of'), "best" read
    as the top, or the bottom on a metric where lower is better."""
    spans, best = list(names), "down" if lower_better else "up"
    # 'the FadeDiff paper': the paper that name stands for, no paper asked
    theirs = [(b + m.start(1), b + m.end(1), "link") for a, b in spans if text[max(a - 4, 0):a].lower() == "the "
              for m in [_THE_NAME_PAPER.match(text[b:])] if m]
    return theirs + [(s, e, best if m == "best" else m) for s, e, m in idioms(text)
                     if not any(s < b and a < e for a, b in spans)]


def words(text: str) -> list[tuple[int, int, str]]:
    """The question's words and numbers with their places, lower case, apostrophes dropped ("don't" is "dont"), 'w/'
    as 'with' ('w/o' as 'without'), and one of the reading's own long words typed with a slip read as that word
    ('comparsion')."""
    out: list[tuple[int, int, str]] = []
    for m in _WORD.finditer(text):
        if out and m.group().lower() == "o" and text[m.start() - 2:m.start()].lower() == "w/":
            out[-1] = (out[-1][0], m.end(), "without")  # 'w/o'
        else:
            out.append((m.start(), m.end(), "with" if m.group() in ("w", "W") and text[m.end():m.end() + 1] == "/"
                        else spelled(re.sub(r"['’]", "", m.group().lower()))))
    return out


# the long words the reading itself is built from (what is asked, what it is asked of): a slip in one is read as the
# word, as a slip in a name is; short words are not (one letter off, a short word is another word as often)
_SPELLING = """comparison comparisons contribution contributions publication publications conference conferences
journal journals discipline disciplines problem problems papers article articles studies research dataset datasets
benchmark benchmarks metric metrics models"""
_SPELLED = frozenset(_SPELLING.split())


_SHORT_FILLER = sorted(f for f in STOPWORDS if len(f) == 3 and f.isalpha())


@lru_cache(maxsize=16384)
def spelled(word: str) -> str:
    """``word``, or the one word of ``_SPELLED`` it is a single slip from (a letter added, dropped, changed, or two
    swapped) when it is six letters or more and no word the reading knows itself; a word of three letters, the one
    stopword two of its letters side by side swapped make."""
    if len(word) == 3 and word not in FILLER and word not in _KNOWN:  # 'teh', 'hte': two letters of 'the' swapped
        swapped = [f for f in _SHORT_FILLER if sorted(f) == sorted(word) and sum(a != b for a, b in zip(f, word)) == 2
                   and (f[0] == word[0] or f[2] == word[2])]
        return swapped[0] if len(swapped) == 1 else word
    if len(word) < 6 or word in _SPELLED or word in FILLER or word in _KNOWN:
        return word
    close = [w for w in _SPELLED if abs(len(w) - len(word)) <= 1 and within_edits(word, w)]
    return close[0] if len(close) == 1 else word


def _near(word: str, target: str, exact: bool) -> bool:
    return word == target if exact else word_sim(word, target) >= 0.85 or _shortened(word, target)


def _shortened(word: str, target: str) -> bool:
    """``word`` is ``target`` cut short, as people type it ('contribs' for contributions, 'algos' for algorithms):
    a cut of five letters or more, or of four with a plural 's', and at least three letters left off."""
    cut = word[:-1] if word.endswith("s") else word
    return (len(cut) >= 5 or (len(cut) == 4 and cut != word)) and len(target) >= len(cut) + 3 and \
        target.startswith(cut)


@lru_cache(maxsize=4096)
def meanings(word: str, lower_better: bool = False) -> frozenset[str]:
    """What a word may mean among the meanings a query says ("best" is "up", or "down" on a metric where lower is
    better): the meanings it is a word of (or an ending away from), else those it is one typo away from (never a
    negation)."""
    if _NUMERAL.fullmatch(word):
        return frozenset({"numeral"})
    for exact in (True, False):
        out = {m for m, said in _MEANINGS.items()
               if any(_same(word, t) if exact else m not in _EXACT and _near(word, t, False) for t in said.split())}
        out |= {("up" if (m == "best") != lower_better else "down") for m, said in _RELATIVE.items()
                if any(_same(word, t) if exact else _near(word, t, False) for t in said.split())}
        if out:
            return frozenset(out)
    return frozenset()


def _same(word: str, target: str) -> bool:
    return word == target or (len(word) > 4 and stem(word) == stem(target))


KINDS = frozenset({"paper", "model", "dataset", "metric", "problem", "field", "code", "year", "value", "venue"})


def reached(sparql: str, implied: bool = True) -> frozenset[str]:
    """The meanings of the kinds a query reaches through its ORKG predicates and classes; ``implied``: with the
    models every result on a dataset is of (a model 'evaluated' there, never the kind it answers with)."""
    said = {m.group(1) for m in re.finditer(r"\borkg[pc]:(\w+)", sparql)}
    out = {_REACHES[p] for p in said if p in _REACHES} | ({"paper"} if said & _OF_PAPERS else set())
    if implied and out & {"value", "metric", "dataset"}:
        out.add("model")
    return frozenset(out)


@lru_cache(maxsize=4096)
def filler(word: str) -> bool:
    """A filler word, or one a typo or an ending away from one ('pleas', 'names'), that has no meaning of its own."""
    return word in FILLER or (not meanings(word) and any(word_sim(word, f) >= 0.85 for f in FILLER if len(f) > 3))


# what a query does to its answer: a pair whose question says one of these the user's does not, answers another ask
OPERATORS = frozenset({"not", "up", "down", "most", "average", "count", "early", "late", "kth", "compare", "both",
                       "spread", "gap", "beat"})
Pair = tuple[str, tuple[tuple[int, int], ...], str]  # a pair's question, where its own names stand in it, its query


@dataclass(frozen=True)
class Question:
    """A question's words read once, for every pair it is held against: each word outside its names and the spans
    the reading applies (place, word, what it may mean, the meaning of a phrase it stands in), and every meaning its
    words outside its names say."""

    words: tuple[tuple[int, str, frozenset[str], str | None], ...]
    says: frozenset[str]


def read_question(question: str, names: Iterable[tuple[int, int]], consumed: Iterable[tuple[int, int]] = (),
                  lower_better: bool = False) -> Question:
    """``question`` read for ``unasked`` and ``unplaced`` (``consumed``: the comparisons the reading applies)."""
    named, applied = list(names), list(consumed)
    found = words(question)
    phrased = _phrased(question, named, lower_better)
    says = {m for a, _, w in found if not any(s <= a < e for s, e in named) for m in meanings(w, lower_better)}
    says |= {meaning for _, _, meaning in phrased}
    if applied:
        says.add("compare")
    if says & {"kth", "numeral"} and not says & {"up", "down"}:
        says.add("down" if lower_better else "up")  # 'second on X', 'top 3': counted from the best
    kept = tuple((a, w, meanings(w, lower_better), next((m for s, e, m in phrased if s <= a < e), None))
                 for a, _, w in found if not any(s <= a < e for s, e in named + applied))
    return Question(kept, frozenset(says))


@lru_cache(maxsize=1024)
def _pair(pair: Pair) -> tuple[frozenset[str], frozenset[str], frozenset[str], tuple[tuple[str, str], ...]]:
    """What a pair says, read once: its own words (outside its names), the meanings its words and its query's own
    kinds say, those with the kinds its query implies, and its words that say one operator (word, operator)."""
    text, slots, sparql = pair
    placed = [(a, w) for a, _, w in words(text) if not any(s <= a < e for s, e in slots)]
    theirs = frozenset(w for _, w in placed)
    # a phrase says its one meaning, not its words' ('at least one' is any, not the least; 'most recent' the latest)
    phrased = _phrased(text, slots)
    alone = [(a, w) for a, w in placed if w not in FILLER and not any(s <= a < e for s, e, _ in phrased)]
    grouped = {"every"} if "GROUP" in parse(sparql).words else set()  # an answer per group: 'per', 'each'
    ties = set() if re.search(r"\bLIMIT\s+1\b", sparql) else {"ties"}  # every thing sharing its place given
    own = frozenset({"link"}).union(reached(sparql, implied=False), *(meanings(w) for _, w in alone),
                                    (m for _, _, m in phrased), grouped, ties)
    operators = tuple((w, next(iter(meanings(w)))) for _, w in alone
                      if len(meanings(w)) == 1 and meanings(w) <= OPERATORS)
    operators += tuple((text[s:e].lower(), m) for s, e, m in phrased if m in OPERATORS)
    return theirs, own, own | reached(sparql), operators


def unasked(question: Question, pair: Pair) -> list[str]:
    """The words of the ``pair``'s question that say an operator (one meaning, unambiguously) the user's question
    does not: a pair for 'models *without* code' never answers 'models with code'."""
    return [word for word, operator in _pair(pair)[3] if operator not in question.says]


def unplaced(question: Question, pair: Pair, things: bool = True, adds: Collection[str] = ()) -> list[str]:
    """The words of the question that are in none of its names nor the spans the reading applied, not filler and not
    said by the ``pair`` in the same words or in others of the same meaning: what a query composed from it would
    leave out. ``things``: the question asks for things (not yes or no), so the first kind it names must be the
    pair's own; ``adds``: meanings the pair's query is compiled with beside its own (its list counted)."""
    theirs, own, said, _ = _pair(pair)
    said = said | frozenset(adds)
    out = []
    head = things  # the first kind the question names is what it asks for: the pair must say it, not imply it
    for _, word, mine, phrase in question.words:
        if phrase is not None:
            if phrase not in said:
                out.append(word)
            continue
        if word in FILLER or (not mine and filler(word)):
            continue
        if head and mine & KINDS:
            head = False
            if not mine & own and not any(_near(word, t, False) for t in theirs):
                out.append(word)
            continue
        if any(_near(word, t, bool(mine & _EXACT)) for t in theirs) or mine & said:
            continue
        out.append(word)
    return list(dict.fromkeys(out))
