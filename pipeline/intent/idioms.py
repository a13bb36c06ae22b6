"""Idioms: runs of a question's words read as one meaning each, with the places they stand ('the largest number of'
asks for the most, 'other than' leaves a thing out, 'titles only' says what to show); the meanings are those of
``pipeline.intent.account``, which reads every other word one by one."""
from __future__ import annotations

import re

from pipeline.intent.operators import COUNTED

_KIND_WORD = r"(?:papers?|models?|methods?|datasets?|benchmarks?|metrics?|problems?|tasks?|fields?|venues?|" \
    r"contributions?)"
BOUND_ENDS = r"(?:years?|yrs?|ends?|dates?)"  # 'both years': the ends of a bound, not two things
# things of a kind said before 'per' ('papers per venue?'): how many of them for each
THINGS = rf"\b(?:{'|'.join(COUNTED)})\s+"
# runs of words read as one meaning ('the largest number of' asks for the most, not the largest value)
_IDIOMS = [  # 'how many X are there and how many Y …', 'how many papers and models': a second count, which no one
    # query here gives (before 'how many', whose words it holds)
            (re.compile(r"\bhow\s+many\b.*?\b(?:and|&|\+)\s+(?P<at>how\s+many|the\s+number\s+of)\b", re.I),
             "second"),
            (re.compile(rf"\bhow\s+many\s+{_KIND_WORD}\s+(?P<at>and|&|\+)\s+(?:the\s+)?{_KIND_WORD}\b", re.I),
             "second"),
            (re.compile(r"\b(?:largest|greatest|biggest|highest)\s+number\s+of\b", re.I), "most"),
            (re.compile(r"\brunners?[\s-]+up\b", re.I), "kth"), (re.compile(r"\bhow\s+many\b", re.I), "count"),
            (re.compile(r"\b(?:came|come|comes|coming)\s+out\b", re.I), "link"),
            (re.compile(r"\bat\s+least\s+(?:one|1)\b", re.I), "link"),  # 'with at least one paper': any
            (re.compile(r"\bi\s+mean\b", re.I), "link"),  # 'venues i mean': not an average
            # 'papers per venue?': how many for each (``reading._COUNT``); 'per' itself still says each (no span)
            (re.compile(rf"{THINGS}(?P<at>)per\s+\w", re.I), "count"),
            # a hedge ('lower is better i think'), 'take place' (were done), 'at all' (any)
            (re.compile(r"\bi\s+(?:think|guess|believe|suppose|assume|reckon)\b(?=\s*(?:[)?.!,]|$))|\b(?:take|took|taken|takes)\s+place\b|"
                        r"\bat\s+all\b", re.I), "link"),
            (re.compile(r"\b(?:show|shows|showed|shown|turn|turns|turned|come|comes|came|pop|pops|popped)\s+up\b",
                        re.I), "link"),
            (re.compile(r"\bmost\s+recent(?:ly)?\b", re.I), "late"),
            # two things' values apart: 'the difference between A and B', 'how much higher is A than B'
            (re.compile(r"\b(?:difference|gap|margin)\s+between\b|\bhow\s+much\s+(?:higher|lower|better|worse|"
                        r"more|less|bigger|smaller|larger)\b", re.I), "gap"),
            (re.compile(r"\bhow\s+much\s+(?:higher|lower|better|worse|more|less|bigger|smaller|larger)\s+"
                        r"(?:[\w@%'’.-]+\s+){1,6}?(?P<at>than)\b", re.I), "gap"),  # … the 'than' of it
            # 'between 2018 and 2020, both years included': a bound's ends, not two things
            (re.compile(rf"\bboth\s+{BOUND_ENDS}\s+(?:inclusive|included|includes|counted|in)\b", re.I), "compare"),
            (re.compile(rf"\b(?:incl|including|included|inclusive)\.?\s+both\b(?:\s+{BOUND_ENDS})?|"
                        r"\bboth\s+(?:incl|inclusive|included)\b\.?", re.I), "compare"),
            (re.compile(r"\bstate[\s-]+of[\s-]+the[\s-]+art\b", re.I), "best"),  # the top, or the bottom of an error
            (re.compile(r"\bin\s+terms\s+of\b|\baccording\s+to\b", re.I), "link"),
            (re.compile(r"\bw/o\b|\bother\s+than\b", re.I), "not"),  # 'other than X': X left out
            # 'strictly above 95': what 'above' says already ('strictly between' is read by the bound)
            (re.compile(r"\bstrictly\s+(?=(?:above|below|over|under|more|less|greater|fewer|after|before|later|"
                        r"earlier)\b)", re.I), "link"),
            # '…, and on what': a second thing asked with no kind word, which no query here says
            (re.compile(r"\band\s+(?:on|in|at|for|by|with|from|of)\s+(?:what|which)\s*[?.!]*$", re.I), "second"),
            # 'sorry if this is obvious but …': an apology, no negation
            (re.compile(r"\b(?:sorry|apologies)\b[^?.!]*?\bbut\b", re.I), "link"),
            # 'after 2020 but before 2023': the second end of a bound, no negation
            (re.compile(r"\bbut\s+(?=(?:before|after|until|till|since|earlier|later|prior)\b)", re.I), "link"),
            (re.compile(r"\bbetter\s+than\b", re.I), "beat"),  # 'did better than X': beat X
            # 'a better RMSE than X': 'than' is the beating's ('better' is a word of it), the metric between its own
            (re.compile(r"\bbetter\s+(?:[\w@%-]+\s+){1,3}?(?P<at>than)\b", re.I), "beat"),
            # 'the least accurate': the lowest; 'the least common', 'the least studied': the fewest
            (re.compile(r"\b(?<!at\s)least\b(?!\s+(?:common|commonly|frequent|frequently|popular|often|used|studied|"
                        r"cited|number|amount|one|once)\b)", re.I), "down"),
            (re.compile(r"\bwith\s+respect\s+to\b|\b(?:lower|higher|smaller|larger)\s+is\s+bett?er\b", re.I), "link"),
            # 'i think theres a tie', 'could be more than one', 'if its a tie give me all': said by a query that keeps
            # ties (no 'LIMIT 1')
            (re.compile(r"\b(?:(?:if\s+)?(?:i\s+think\s+)?(?:there\s*i?s|its|it\s+is)\s+an?\s+tie|(?:could|can|might|may)"
                        r"\s+be\s+(?:more\s+than\s+one|several|a\s+tie)|give\s+me\s+(?:all|both|each)(?:\s+of\s+them)?)\b(?!\s+(?:scores?|values?|numbers?|results?)\b)",
                        re.I), "ties"),
            # 'just the list', 'not just one comparison': how much to show, and every one asked over
            # ('venues only', 'y/n', '(papers, not contributions)': what to show, said again)
            (re.compile(r"\bjust\s+the\s+(?:list|names?|numbers?|titles?)\b|\b(?:titles?|names?|venues?|years?|"
                        r"countries|values?|numbers?)\s+only\b|\by\s*/\s*n\b|"
                        rf"\b{_KIND_WORD}\s*,\s*not\s+{_KIND_WORD}\b|"
                        r"\bnot\s+just\s+(?:one|a|the)\b|\b(?:in\s+)?the\s+whole\s+(?:thing|lot)\b", re.I), "link"),
            # 'top 3 by MRR, best first': the ranking's own order; 'only need the value': what to show, no restriction
            (re.compile(r"\b(?:best|highest|top|lowest|worst)\s+(?P<at>first)\b(?!\s+(?:paper|publication|study|"
                        r"article)s?\b)", re.I), "link"),
            (re.compile(r"\bonly\s+(?:need|want|care\s+about)\b", re.I), "link"),
            # 'top 3 … in order w/ scores': the ranking's own order; 'papers with at least one contribution w/ code':
            # papers with code
            (re.compile(r"\bin\s+order\b(?!\s+(?:to|of)\b)", re.I), "link"),
            # 'after 2019 (2019 itself doesnt count)': the bound said exclusive again
            (re.compile(r"\b(?:19|20)\d\d\s+itself\s+(?:doesn'?t|does\s+not|wont|won'?t)\s+count\b", re.I), "link"),
            (re.compile(r"\b(?:at\s+least\s+one|one\s+or\s+more|any)\s+(?:of\s+(?:their|its)\s+)?contributions?\s+"
                        r"(?=with\b|w/|that\s+(?:has|have)\b|having\b)", re.I), "link"),
            # 'across all 4 comparisons', 'in any of the 4': every one, their number said again (no bound, no k)
            (re.compile(r"\b(?:all|any)\s+(?:the\s+|of\s+the\s+)?(?:[1-9]\d?|two|three|four|five|six|seven|eight|nine|ten)\s+"
                        r"(?:comparisons|papers|studies|datasets|models|contributions|venues|fields)\b|"
                        # '… in each comparison? all 4 pls': the same, said after
                        r"[?,.!]\s*all\s+(?:[1-9]\d?|two|three|four|five|six|seven|eight|nine|ten)\b(?=\s*(?:pls|please|"
                        r"of\s+them)?\s*[?.!]*\s*$)", re.I), "link"),
            # 'A vs B on X, give me both scores': each one's score, no 'both' of two datasets
            (re.compile(r"\bboth\s+(?:of\s+)?(?:their\s+|the\s+)?(?:scores?|values?|numbers?|results?)\b", re.I),
             "link"),
            # 'is there code for X or not': the yes or no itself, no negation
            (re.compile(r"\bor\s+not\b(?=\s*[?.!]*\s*$)", re.I), "link"),
            # 'i.e.', 'e.g.': what follows says the same again
            (re.compile(r"(?<!\w)(?:i\.?e|e\.?g)\.?(?!\w)", re.I), "link")]


def idioms(text: str) -> list[tuple[int, int, str]]:
    """The idioms of ``text``, each with its place and its meaning."""
    return [(*m.span("at" if "at" in rx.groupindex else 0), meaning) for rx, meaning in _IDIOMS
            for m in rx.finditer(text)]
