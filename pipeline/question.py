"""A question as people type it, made fit for the pipeline: the one normaliser every entry point uses (the CLI, the
pipeline, Slack after its markup is gone, teaching, team import).

SPARQL text has its own (``pipeline.sparql.text.squash``); a question is not SPARQL, and ``#`` starts no comment in
it. ``tidy`` peels the chatter around a question (a Slack mention, a greeting, thanks) once, in the pipeline;
the stages after it read the tidied question."""
from __future__ import annotations

import re
import unicodedata

from pipeline.matching.wording import within_edits

_MENTION = re.compile(r"^\s*(?:<@[A-Z0-9]+(?:\|[^>]*)?>|@[\w.\-]+)[\s,:]*")
_GREETING = re.compile(r"^\s*(?:(?:hey|hi|hello|yo|ok|okay|so|hm+|um+)\b[\s,!]*)?(?:(?:quick|short|small)\s+"
                       r"(?:one|question|q)|question|q)?\s*[:,\-–—]\s+", re.IGNORECASE)
# why it is asked, said first: 'for the slides -', 'for my report:' (no name follows 'for the …' there)
_PURPOSE = re.compile(r"^\s*for\s+(?:the|my|our|a)\s+(?:slides?|report|deck|talk|paper\s+draft|draft|meeting|thesis|"
                      r"review|proposal|presentation|survey|lit\s+review)\s*[:,\-–—]+\s+", re.IGNORECASE)
_HELLO = re.compile(r"^\s*(?:hey|hi|hello|yo)(?:\s+(?:there|all|team|folks|bot))?\s*[,!:\-–—]\s*", re.IGNORECASE)
_FILLER = re.compile(r"^\s*(?:ok(?:ay)?\s+so|so|um+|hm+|ok(?:ay)?|well)[\s,]+(?=(?:what|which|who|where|when|how|can|"
                     r"could|would|list|give|provide|name|is|are|do|does|indicate|show|find|tell)\b)", re.IGNORECASE)
# a closing remark after the question that asks nothing more: why it is asked ('i think it's a tie' stays: it says
# who is asked for)
_ASIDE = re.compile(r"(?<=\?)\s*(?:(?:i\s+)?(?:need|needed)\s+(?:it|this|them)\s+for|(?:i'?m\s+|im\s+)?trying\s+to|"
                    r"(?:i\s+)?(?:want|wanna|need)\s+to\s+(?!know\b)|"
                    r"(?:it'?s|its|this\s+is)\s+for|asking\s+(?:because|since|for)|just\s+curious)\b[^?]*$",
                    re.IGNORECASE)
_THANKS = re.compile(r"[\s,;:.!\-–—]*(?:(?:many\s+)?thanks(?:\s+(?:a lot|in advance))?|thank\s+you|thx|ty|cheers|"
                     r"please|pls|plz)[\s.!:)]*$", re.IGNORECASE)


def printable(text: str) -> str:
    """NFC text without control, format (zero-width, bidi) or unpaired-surrogate characters; blanks collapsed."""
    text = text.encode("utf-8", "replace").decode("utf-8", "replace") if _has_surrogates(text) else text
    text = unicodedata.normalize("NFC", text)
    kept = (" " if ch.isspace() else ch for ch in text if ch.isspace() or unicodedata.category(ch)[0] != "C")
    return " ".join("".join(kept).split())


def clean(text: str, max_chars: int) -> str:
    """``printable``, cut at ``max_chars``."""
    return printable(text)[:max_chars]


def tidy(question: str) -> str:
    """The question without a Slack mention, a greeting or thanks around it, and doubled blanks."""
    text = " ".join(question.split())
    for _ in range(3):  # "<@U1> hey, quick one: ... thanks!" peels in a few passes
        before = text
        text = _MENTION.sub("", text)
        text = _HELLO.sub("", text)
        text = _PURPOSE.sub("", text)
        text = _FILLER.sub("", text)
        m = _GREETING.match(text)
        if m and len(text[:m.end()].split()) <= 4 and len(text[m.end():].split()) >= 3:
            text = text[m.end():]
        text = _ASIDE.sub("", _THANKS.sub("", text)).strip()
        if text == before:
            break
    return _kinds_spelled(_spelled_out(text)) or " ".join(question.split())


_ENDS = "highest|lowest|largest|smallest|biggest|max|min|maximum|minimum"
_JUDGED = "(?:best|worst)"
_SAID_AGAIN = r"(?:i\.?e\.?|aka|a\.k\.a\.?|meaning|so)"
# shorthand people type, written out for every later reading: 'yr', 'contribs', '# of', 'pre-2018'
_SHORTHAND = [(re.compile(r"\byr\b"), "year"), (re.compile(r"\byrs\b"), "years"), (re.compile(r"\bwat\b"), "what"),
              (re.compile(r"\bcontribs\b", re.I), "contributions"), (re.compile(r"\bcontrib\b", re.I), "contribution"),
              (re.compile(r"\bhav\b", re.I), "have"),
              # a bound's '%' ('above 90%', '90% accuracy or more'): its number ('100% frequency' stays)
              (re.compile(r"(\b(?:above|over|under|below|least|most|than|exceeds?|exceeded|beats?|breaks?|hit|reach(?:ed)?)"
                          r"\s+\d+(?:\.\d+)?)\s*%", re.I), r"\1"),
              (re.compile(r"(\d+(?:\.\d+)?)\s*%(?=\s+[\w.-]+(?:\s+[\w.-]+)?\s+or\s+(?:more|higher|above|less|lower|below)\b)",
                          re.I), r"\1"),
              (re.compile(r"\bacc\b(?![-\w])", re.I), "accuracy"),  # 'top-5 acc' ('ACC-Net' stays)
              # 'the urban beekeeping comp': the comparison ('comp sci' stays)
              (re.compile(r"\bcomp\b(?![\s-]*(?:sci|science|bio|ling|vision)\b)", re.I), "comparison"),
              (re.compile(r"\bcomps\b", re.I), "comparisons"),
              # 'which model n what was the score': 'and' before a second ask; 'the diff between': the difference
              (re.compile(r"(?<=\w )n(?= (?:what|which|who|how|when|where|its|their)\b)", re.I), "and"),
              (re.compile(r"\bdiff(?=\s+between\b)", re.I), "difference"),
              (re.compile(r"\b(?:no\.|nr\.?)\s*(?=of\b)", re.I), "number "),  # 'no. of papers', 'nr of'
              # 'w/ code' ('w/o' is read as a negation; 'BiLSTM-Attn w/ ELMo' is a model's name)
              (re.compile(r"\bw/\s*(?=(?:(?:a|the|its|their|released|public|published|open)\s+)*(?:code|source|repo|"
                          r"github|implementation|links?)\b)", re.I), "with "),
              (re.compile(r"\b([a-z]+)[\s-]wise\b", re.I), r"by \1"),  # 'latency wise': by latency
              (re.compile(r"(?<![\w#])#\s*(?=of\b)"), "number "),
              # '2019-2021 (inclusive)', 'from 2019 to 2021': a range of years, its ends included
              (re.compile(r"(?<!between )\b(?:from\s+)?((?:19|20)\d\d)\s*(?:-|–|to|thru|through|until|till)\s*"
                          r"((?:19|20)\d\d)\b(?:\s*,?\s*\(?\s*(?:both\s+(?:years?\s+|ends?\s+)?)?(?:inclusive|incl\b\.?|"
                          r"included)(?:\s+(?:of\s+)?both(?:\s+(?:ends?|years?))?)?\s*\)?)?", re.I),
               r"between \1 and \2"),
              (re.compile(r"\bpre[-\s]?((?:19|20)\d\d)\b", re.I), r"before \1"),
              (re.compile(r"\bpost[-\s]?((?:19|20)\d\d)\b", re.I), r"after \1"),
              # 'more then two datasets': the slip of 'than' after a comparative; 'lower = better'
              (re.compile(r"\b(more|fewer|less|greater|higher|lower|better|worse|other|rather)\s+then\b", re.I),
               r"\1 than"),
              (re.compile(r"\b(lower|higher|smaller|bigger|larger)\s*=\s*(better|worse)\b", re.I), r"\1 is \2"),
              # a superlative said again in other words ('the highest i.e. worst MAPE'): the one that says which end
              (re.compile(rf"\b({_ENDS})\s*,?\s*{_SAID_AGAIN}\s*,?\s*(?:the\s+)?{_JUDGED}\b", re.I), r"\1"),
              (re.compile(rf"\b{_JUDGED}\s*,?\s*{_SAID_AGAIN}\s*,?\s*(?:the\s+)?({_ENDS})\b", re.I), r"\1"),
              # 'a paper count broken down by year': the number of papers per year
              (re.compile(r"\b(paper|model|dataset|metric|venue|contribution|problem)s?\s+counts?\b", re.I),
               r"number of \1s"),
              (re.compile(r"\b(?:broken\s+down|split(?:\s+up)?|grouped|bucketed)\s+by\b", re.I), "per")]
# numbers people write as words (the one table: ``pipeline.intent.reading`` reads 'the top three' with it too)
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                "ten": 10}
_NUMBER = "|".join(NUMBER_WORDS)
# a count bound in words before the things counted, written as a number: 'more than one dataset', 'two or more
# problems', 'at least three models'
# ('at least one' stays: it says "any"; 'could be more than one' too: no thing counted follows)
_COUNT_BOUND = [re.compile(rf"\b((?:more|fewer|less)\s+than|over|under)\s+({_NUMBER})\b(?=\s+[a-z])", re.I),
                re.compile(rf"\b()({_NUMBER})(?=\s+or\s+(?:more|fewer|less)\s+[a-z])", re.I),
                re.compile(rf"\b(at\s+(?:least|most))\s+({'|'.join(w for w in NUMBER_WORDS if w != 'one')})\b"
                           r"(?=\s+[a-z])", re.I)]


def _count_bound(m: re.Match[str]) -> str:
    return f"{m.group(1)} {NUMBER_WORDS[m.group(2).lower()]}".lstrip()


def _spelled_out(text: str) -> str:
    for shorthand, words in _SHORTHAND:
        text = shorthand.sub(words, text)
    for bound in _COUNT_BOUND:
        text = bound.sub(_count_bound, text)
    return text


# the words that say what kind of thing is asked for: typed with a slip, every later reading misses what is asked
_KIND_WORDS = ("dataset", "datasets", "paper", "papers", "model", "models", "metric", "metrics", "benchmark",
               "benchmarks", "problem", "problems", "leaderboard", "leaderboards", "contribution", "contributions")
_TOKEN = re.compile(r"[A-Za-z]{5,}")


def _slip_of(typed: str) -> str | None:
    """The kind word ``typed`` (lower case) is one slip from: two neighbouring letters swapped ('modle', 'papres'),
    or, in a word of six letters or more, one letter left out ('datsets'); None for any other word."""
    if typed in _KIND_WORDS:
        return None
    for word in _KIND_WORDS:
        swapped = len(typed) == len(word) and sorted(typed) == sorted(word)  # one edit, the same letters: a swap
        dropped = len(typed) >= 6 and len(word) == len(typed) + 1
        if (swapped or dropped) and within_edits(typed, word):
            return word
    return None


def _kinds_spelled(text: str) -> str:
    """``text`` with a kind word typed with a slip written as the word (only lower-case words: a name keeps its
    spelling)."""
    return _TOKEN.sub(lambda m: _slip_of(m.group()) or m.group() if m.group().islower() else m.group(), text)


def _has_surrogates(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False
