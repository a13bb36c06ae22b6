"""A paper of the comparison named by words of its title ('the phagoburn trial', 'the jamaica home visiting paper'):
a run of the question's words left over, each a word of one paper's title, one of them a word no other paper's title
of the comparison has. Read as the value of the paper link (``orkgp:P31``): the question is asked of that paper."""
from __future__ import annotations

from collections.abc import Collection, Sequence

from pipeline.intent.account import FILLER, words
from pipeline.intent.comparisons import Value, select_rows
from pipeline.intent.linking import Word, near
from pipeline.intent.record import Reading
from pipeline.parts import KnowledgeGraph
from pipeline.schema.graph import short_name

_TITLES = ("SELECT DISTINCT ?paper ?title WHERE {{ {scope} orkgp:compareContribution ?c . ?paper orkgp:P31 ?c ; "
           "rdfs:label ?title . }} LIMIT 1000")
PAPER = "orkgp:P31"


def papers_of(kg: KnowledgeGraph, scope: str) -> list[tuple[str, str]]:
    """The papers of ``scope``'s contributions: their IRIs and titles."""
    return [(short_name(r.get("paper", {}).get("value", "")), r.get("title", {}).get("value", ""))
            for r in select_rows(kg, _TITLES.format(scope=scope)) or []]


_PAPER_WORDS = {"paper", "study", "trial", "article", "experiment", "survey", "report"}
_THE = {"the", "that", "this"}


def _marked(w: Word, every: Sequence[Word], step: int, marks: Collection[str], title: Collection[str] = ()) -> bool:
    """Whether a word of ``marks`` stands next to ``w`` (before it: ``step`` -1, after it: 1), or next to the words of
    the title beside it ('the *phagoburn* trial', 'the linden *mortality* paper' with 'linden' read as a value, 'the
    nanoconfined *libh4* paper')."""
    i = every.index(w) + step
    while 0 <= i < len(every) and every[i][2] not in marks and any(near(every[i][2], t) for t in title):
        i += step
    return 0 <= i < len(every) and every[i][2] in marks


_COMPARING = {"comparison", "comparisons"}  # 'the feline epilepsy comparison': its name, no paper's


def may_name_a_paper(text: str) -> bool:
    """Whether the question has 'the' and a word for a paper at all: only then are the papers' titles read."""
    said = {w for _, _, w in words(text)}
    return bool(said & _THE) and bool(said & _PAPER_WORDS)


def titled(text: str, read: Reading, papers: Sequence[tuple[str, str]], comparing: Collection[str] = ()) -> list[Value]:
    """The paper ``read``'s left-over words name by its title (``module doc``), as a value; none when no run of them
    names one paper alone. ``comparing``: the words of the comparisons' labels, which name no paper ('the feline
    epilepsy comparison')."""
    # every word, those a name took too ('the *linden* mortality paper', 'the nanoconfined *libh4* paper': the values
    # are words of the title; the comparison's: 'the cool *roofs* for schools paper in the green roof comparison')
    every = words(text)
    titles = {iri: {t for _, _, t in words(title)} for iri, title in papers}
    found: list[tuple[int, str, tuple[int, int]]] = []
    for iri, mine in titles.items():
        others = set().union(*(t for o, t in titles.items() if o != iri)) if len(titles) > 1 else set()
        runs: list[list[tuple[int, int, str]]] = [[]]
        for w in every:
            if any(near(w[2], t) for t in mine) and (w[2] not in FILLER or runs[-1]):
                runs[-1].append(w)
            elif runs[-1]:
                runs.append([])
        for run in runs:
            while run and run[-1][2] in FILLER:
                run.pop()
            own = [w for w in run if len(w[2]) >= 4 and not any(near(w[2], t) for t in others)
                   and not any(near(w[2], t) for t in comparing)]
            said = [w for w in run if w[2] not in FILLER]
            # a paper's name: after 'the' and before 'paper', 'trial', … ('the phagoburn trial', 'the jamaica home
            # visiting paper'; not 'which *drugs* did …', 'never had a *randomised trial*', 'how many diff *noise
            # prediction models* …')
            named = bool(said) and (_marked(run[-1], every, 1, _PAPER_WORDS, mine) or run[-1][2] in _PAPER_WORDS) \
                and _marked(run[0], every, -1, _THE, mine)
            # one of its words left over, or (the reading whole) a word of its title alone
            if own and named and (any(w[2] in read.unplaced for w in run) or (read.whole and any(
                    w[2] not in comparing and len(w[2]) >= 5 for w in own))) and \
                    not _marked(run[-1], every, 1, _COMPARING):
                found.append((len(run), iri, (run[0][0], run[-1][1])))
    found.sort(reverse=True)
    if not found or (len(found) > 1 and found[1][0] == found[0][0] and found[1][1] != found[0][1]):
        return []
    _, iri, span = found[0]
    return [Value(span, iri, dict(papers)[iri], frozenset({PAPER}))]
