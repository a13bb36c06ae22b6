"""What a question asks beyond its names: the operators its words call for (how many, k-th, lowest, both, yes/no,
every one of a list, the top k, those of one but not another)."""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.intent.idioms import BOUND_ENDS, THINGS
from pipeline.intent.operators import ORDINALS, ordinal, yes_or_no
from pipeline.matching.wording import within_edits
from pipeline.question import NUMBER_WORDS
from pipeline.records import Kind

# ('papers per venue?': things of a kind per another, a count of them for each)
_COUNT = re.compile(rf"\b(how many|number of|count the|count of)\b|{THINGS}per\s+\w", re.I)
_ORDINAL_WORDS = "|".join(ORDINALS).replace("runner-up", r"runners?-up").replace("runner up", r"runners?\s+up")
_KTH = re.compile(r"\b(" + _ORDINAL_WORDS + r")\b", re.I)
# 'better'/'worse' not comparing with something named ('better than X' beats X): the better or worse of those named
NOT_THAN = r"(?!(?:\s+[\w@%-]+){0,3}\s+than\b)"
# "at least 2": a floor, not the lowest
_LOWEST = re.compile(r"\b(lowest|worst|worse" + NOT_THAN + r"|minimum|min|(?<!at )least|smallest|poorest|"
                     r"weakest|slowest)\b", re.I)
# not "best", "top": a metric's sense
_HIGHEST = re.compile(r"\b(highest|maximum|max|largest|greatest|biggest)\b", re.I)
# no bound's ends ('both years included', 'incl both')
_BOTH = re.compile(rf"(?<!incl )(?<!incl\. )(?<!including )(?<!inclusive )\bboth\b(?!\s+{BOUND_ENDS}\b)"
                   r"(?!\s+(?:of\s+)?(?:their\s+|the\s+)?(?:scores?|values?|numbers?|results?)\b)|"
                   r"\ball of\b(?!\s+them\b)(?!\s+\S+['’]s\b)", re.I)
# "X but not Y"; not "including but not limited to", "and not only"
_EXCEPT = re.compile(r"\b(?:but|and)\s+(?:not|never)\b(?!\s+(?:only|just|limited|necessarily|least))|\bexcept\b|"
                     r"\bexcluding\b|\bother than\b|\b(?:apart|aside)\s+from\b|\b(?:not|without)\s+counting\b|"
                     # 'were never run on Y'; 'have never had any code' says a thing lacking, no second name
                     r"\b(?:were|was|have|has|had)\s+never\b(?!\s+(?:had|have|has|released|published|shared)\b)|"
                     r"\b(?:were|was|have|has|had|are|is)\s+not\b|\b(?:weren|wasn|haven|hasn|hadn|aren|isn)['’]?t\b|"
                     # 'models that dont report X' ('dont have code', 'dont have any X' say a thing lacking)
                     # ('dont link any source code': a thing lacking too)
                     r"\b(?:don|doesn|didn)['’]?t\s+(?!(?:have|has|had|share|matter|need|know)\b)(?!\w+\s+(?:any|a|the|"
                     r"their|its)?\s*(?:source\s+)?(?:code|repo|repository|github|implementation)\b)", re.I)
# "Do you know which …", "Can you tell me what …": a question asked politely, not a yes/no one
_POLITE = re.compile(r"^\s*(?:do|does|did|can|could|would)\s+(?:you|anyone|someone|we)\s+"
                     r"(?:know|tell\s+me|say|remember|list|name|show)\b", re.I)
# "are there any X": a list; "is there a / any X" yes or no, unless the things are asked too ("…, which ones?") or it
# asks for code (its links answer it)
_YESNO = re.compile(r"^\s*" + yes_or_no("which|list|show|name|code|repo|repository|repositories|implementation|"
                                         "github|links?"), re.I)
# 'is A or B better': which of the two, not yes or no ('does A beat B or not' and 'better than B' stay yes or no)
# '… or not' at the end asks yes or no in so many words, code too ('is there code for X or not')
_OR_NOT = re.compile(r"^\s*(?:is|are|was|were|does|do|did|has|have|had)\b.*\bor\s+not\s*[?.!]*\s*$", re.I)
# ('did any model get 0.6 MRR or higher': a bound's own 'or', no choice)
_EITHER = re.compile(r"\bor\b(?!\s+not\b)(?!\s+(?:better|worse|higher|lower|more|less|above|below)\b)"
                     r".*\b(?:better|worse|higher|lower)\b" + NOT_THAN + "|"
                     r"\b(?:better|worse|higher|lower)\b" + NOT_THAN + r".*\bor\b(?!\s+not\b)", re.I)
_EVERY = re.compile(r"\b(every|each|all)\b(?!\s+of\b)", re.I)  # "all of": both; "list every model": not its first
_TOP = re.compile(r"\b(?:top|first|best)\s+(\d+|two|three|four|five|ten)\b(?!\s*(?:accuracy|error|%))"
                  r"|(?:\bthe\s+|^\s*)(\d+|two|three|four|five|ten)\s+(?:best|top|highest|leading|strongest|lowest|smallest|worst)\b",
                  re.I)
_MOST_NUMBER = re.compile(r"\b(?:largest|greatest|biggest)\s+(?:number|count)\s+of\b", re.I)
_PLACE = re.compile(r"\b(second|third|fourth|fifth|2nd|3rd|4th|5th)\s+(dataset|benchmark|paper|one)\b", re.I)

OPERATORS = ("count", "kth", "lowest", "both", "yesno", "every", "top", "except")
CODE = "code"  # a thing a question may ask for that is no Kind of named thing: a paper's code links
YEAR = "year"  # a value a question may ask for ("when was X published?") or restrict to ("in 2019")
# a year asked for: "when was X published", "in which year ..." (not "over the years")
_WHEN = re.compile(r"\bwhen\s+(?:was|were|did|is|are|has|had)\b|\b(?:which|what)\s+years?\b|"
                   r"\bpublication\s+years\b", re.I)
# where a thing was published: its venue ('where was X published', 'where did the Y paper appear')
_WHERE_PUBLISHED = re.compile(r"\bwhere\s+(?:was|were|did|is|are|has|had|does|do)\b(?:\s+\S+){0,8}?\s+"
                              r"(?:published|publish|appeared|appear|presented|present|come\s+out|came\s+out)\b", re.I)
# what was published, no kind named: papers ('what came out in 2020', 'what got publshed after 2023')
# ('was anything on X published before 2020': whether there are such papers)
_WHAT_CAME_OUT = re.compile(r"^\W*(?:so\s+|hey\s+|ok\s+)?(?:(?:was|were|has|have|is)\s+)?"
                            r"(?:what|whats|what's|anything|something)\s+(?:[\w-]+\s+){0,4}?"
                            r"(?:came\s+out|come\s+out|pub\w*ed|appeared)\b", re.I)
# the words that ask for a kind of thing, each with its plural: "the publication year of X", not "years" ("over the
# years" asks for none); a score or a result asks for a value, not for a metric; "publication" (its year),
# "benchmark" (a verb too), "system" and "corpus" (words of names), "study" (a comparison's contributions) say no kind
_ASKING = {Kind.PAPER: "paper article", Kind.MODEL: "model method approach architecture",
           Kind.DATASET: "dataset", Kind.METRIC: "metric", Kind.PROBLEM: "problem task",
           Kind.RESEARCHFIELD: "field area domain", CODE: "code github repository repo", YEAR: "year",
           Kind.VENUE: "venue journal conference"}
_PLURALS = {"repository": "repositories", "approach": "approaches", "code": "", "github": "", "year": ""}
_ASKED = {w: kind for kind, words in _ASKING.items() for word in words.split()
          for w in (word, _PLURALS.get(word, word + "s")) if w}


_SAID = {Kind.PAPER: "paper article publication study studies title work", Kind.MODEL: "model method system approach",
         Kind.DATASET: "dataset benchmark corpus corpora", Kind.METRIC: "metric measure score result value",
         Kind.PROBLEM: "problem task challenge", Kind.RESEARCHFIELD: "field area domain realm",
         CODE: "code link repository repo github implementation", YEAR: "year",
         Kind.VENUE: "venue journal conference proceedings"}


def said(kind: str) -> str:
    """The plain word for a kind asked for ('field' for a research field)."""
    return _SAID[kind].split()[0] if kind in _SAID else kind


def _near(word: str, target: str) -> bool:
    """Equal, or one typo apart (a letter missing, extra, wrong or two swapped) for words of three letters or more."""
    return word == target or (min(len(word), len(target)) >= 3 and within_edits(word, target))


def mentioned_kinds(question: str, typos: bool = True) -> frozenset[str]:
    """Every kind of thing the question mentions anywhere, in any of its usual words, typos forgiven (unless not)."""
    words = {w.lower().rstrip("s") or w.lower() for w in re.findall(r"[A-Za-z]+", question)}
    return frozenset(kind for kind, said in _SAID.items()
                     if any(_near(w, t) if typos else w == t for w in words for t in said.split()))


_CLASS_WORD = re.compile(r"\bX\s+(?:benchmark\s+)?(?:dataset|benchmark|corpus|model|metric|task|problem|field)s?\b",
                         re.I)


def names_things(question: str) -> bool:
    """Whether a question (names blanked as 'X') names a kind of thing it is about beside its names, in any of the
    usual words ('which approach', 'which benchmarks'); a name's own class word ('the X benchmark') and the words of
    a score aside."""
    return bool(mentioned_kinds(_CLASS_WORD.sub("X", question), typos=False) - {Kind.METRIC})  # 'tiles' is no title


_VALUE = re.compile(r"\b(score|value|result)s?\b|"  # or "which X did the X model get on X?", names blanked
                    r"\b(?:did|does|do)\s+(?:\w+\s+){1,3}(?:get|obtain|achieve|reach|score)\b|"
                    r"\bhow\s+(?:well\s+)?(?:did|does|do)\s+(?:\w+\s+){1,3}(?:do|perform|fare)\b", re.I)
_EXTREME_OF = re.compile(r"\b(?:highest|maximum|max|largest|greatest|best|top|lowest|minimum|smallest|worst)\s+X\b",
                         re.I)  # "the highest X reported on X", names blanked: the metric's value
# 'whos 2nd on X', 'whose score', 'by whom'; 'anything under 0.2 on X' (a thing, opening the question)
_WHO = re.compile(r"\bwho(?:['’]?s|se|m)?\b|^\s*(?:(?:did|has|have|does|do|is|was)\s+)?any(?:thing|one|body)\b",
                  re.I)  # ('anyone under 0.2 MAE on X', 'did anything reach 0.6 MRR on X')


def asks_a_value(question: str) -> bool:
    """Whether a question that names no kind of thing it asks for asks for a score ('the top F1 score achieved on
    X', 'the highest X reported on X', with its names blanked) rather than for who holds it ('who tops X')."""
    return bool(_VALUE.search(question) or _EXTREME_OF.search(question)) and not _WHO.search(question)


_ONE = re.compile(r"\bthe\s+(?:top|best|leading|winning|strongest)(?:[\s-]+performing)?\s+(?:model|system|method|"
                  r"approach|one)\b(?!s)", re.I)


def asks_one(question: str) -> bool:
    """Whether the question asks for the one at the top ('the top model on X in terms of M'): no list of every one."""
    return bool(_ONE.search(question))


def asks_who(question: str) -> bool:
    """Whether the question asks who ('who is in second place on X'): a thing answers it, never a bare value."""
    return bool(_WHO.search(question))


Span = tuple[int, int] | tuple[int, int, str]  # a name's place, and its kind where known


def asked_kinds(question: str, names: Sequence[Span] = ()) -> frozenset[str]:
    """The kinds of thing the question asks for: its words naming one (papers, models, datasets, metrics, problems,
    fields, code, a year — "when was …" too), except a name's own class word right after it ('the CoQA dataset',
    'X benchmark dataset': not after a name of another kind, 'count (a metric) of papers') and the words inside a
    name ('XLNet (single model)')."""
    return frozenset(_asked_in_order(question, names))


def first_asked(question: str, names: Sequence[Span] = ()) -> str | None:
    """The kind the question asks for first, the head of its ask ('list the metrics used to evaluate models':
    metrics); None when it names none."""
    return next(iter(_asked_in_order(question, names)), None)


def _asked_in_order(question: str, names: Sequence[Span]) -> list[str]:
    """The kinds asked, in the order the question says them ('what paper … and when was it published': the paper
    first)."""
    found: list[tuple[int, str]] = []
    # 'when was …'; 'what came out after 2023': the papers; 'where was X published': its venue
    for pattern, kind in ((_WHEN, YEAR), (_WHAT_CAME_OUT, Kind.PAPER), (_WHERE_PUBLISHED, Kind.VENUE)):
        m = pattern.search(question)
        if m:
            found.append((m.start(), kind))
    for m in re.finditer(r"[A-Za-z]+", question):
        said = _ASKED.get(m.group().lower())
        if said and not any(_inside_or_after(m.start(), said, question, name) for name in names):
            found.append((m.start(), said))
    return list(dict.fromkeys(kind for _, kind in sorted(found, key=lambda f: f[0])))


def _inside_or_after(at: int, kind: str, question: str, name: Span) -> bool:
    """Whether the word at ``at`` is inside the name or its class word right after it (a name of another known
    kind has none: 'count' a metric's name, 'count of papers' asks for papers)."""
    a, b = name[0], name[1]
    if a <= at < b:
        return True
    other = len(name) > 2 and bool(name[-1]) and name[-1] != kind
    return at - b >= 0 and len(question[b:at].split()) <= 1 and not other


@dataclass(frozen=True)
class Intent:
    """The operators a question calls for; ``rank`` is k for "k-th best" or "the top k" (1 otherwise); ``highest``:
    it asks for the highest or largest value in words ("best" is not read: which end is best depends on the metric)."""

    operators: frozenset[str]
    rank: int = 1
    highest: bool = False

    def says(self) -> str:
        """The operators in words, for a reply that declines."""
        words = {"count": "how many", "kth": f"the {ordinal(self.rank)} one", "lowest": "the lowest",
                 "both": "those on both", "yesno": "yes or no", "every": "every one, not the first",
                 "top": f"the top {self.rank}", "except": "those of one but not of the other"}
        return ", ".join(words[o] for o in OPERATORS if o in self.operators)


def read_intent(question: str) -> Intent:
    """The operators ``question`` asks for, read from its words alone."""
    question = _MOST_NUMBER.sub("most", question)  # 'on the largest number of datasets': a ranking, no count
    ops: set[str] = set()
    if _COUNT.search(question):
        ops.add("count")
    rank = 1
    kth = _KTH.search(_PLACE.sub("", question))
    if kth:
        ops.add("kth")
        rank = ORDINALS[" ".join(kth.group(1).lower().split()).replace("runners", "runner")]
    if _LOWEST.search(question):
        ops.add("lowest")
    if _BOTH.search(question):
        ops.add("both")
    if _EXCEPT.search(question):
        ops.add("except")
    if (_YESNO.search(question) or _OR_NOT.search(question)) and not _POLITE.search(question) and \
            not _EITHER.search(question):
        ops.add("yesno")
    if _EVERY.search(question) and "both" not in ops:
        ops.add("every")
    top = _TOP.search(question)
    said = top and (top.group(1) or top.group(2)).lower()
    if said and "kth" not in ops and (k := NUMBER_WORDS.get(said) or int(said)) > 1:
        ops.add("top")
        rank = k
    return Intent(frozenset(ops), rank, bool(_HIGHEST.search(question)))
