"""The one table of what a reading does to its answer: each operator's phrasings (the words that ask for it), the
shape of the SPARQL it compiles to (an aggregate, an order and a limit, a count of how often, a yes/no), and the
sentence that says it. Adding an operator is one entry here, its phrasings and its tests: the reader finds it by its
phrasings and the compiler (``pipeline.intent.compile``) builds its query from its shape."""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Operator:
    """``aggregate``: applied to the values (numbers) of what is asked; ``order``: the answer ranked by its values
    (or by the property ``by``) and cut at ``k``; ``often``: ranked by how many contributions carry each value;
    ``ask``: answered yes or no; ``numeric``: needs numbers; ``by_year``: ranks papers by their year; ``place``: the
    ranking's k-th only, k said by an ordinal ('the 2nd highest cost'), not its first k; ``expression``: the one number
    it answers, of aggregates of the values ``{by}``."""

    name: str
    phrasings: str  # a regular expression over the question, lower case
    says: str  # "{what}" is what is asked, "{by}" what it is ranked or aggregated by
    aggregate: str = ""
    order: str = ""
    often: bool = False
    ask: bool = False
    numeric: bool = False
    by_year: bool = False
    place: bool = False
    expression: str = ""

    def found(self, text: str) -> list[tuple[int, int]]:
        """Where the question asks for this operator."""
        return [m.span() for m in re.finditer(self.phrasings, text.lower())] if self.phrasings else []


def yes_or_no(things: str = "which|list|show|name") -> str:
    """The opening of a question asked yes or no: 'is X …', 'did any …', and 'is there a / any …' unless it asks for
    the things as well (a word of ``things`` after it: '… which ones?', '…? which'); 'are there any papers from 2020'
    asks for them. One pattern for the rules' reading of leaderboards and of comparisons."""
    return (r"(?:(?:is|are|was|were|does|do|did|has|have|had)\b(?!\s+there\b)"
            r"(?!.*\b(?:which|what)\s+ones?\b)(?!.*[?.!,]\s*(?:which|what|list\s+them)\s*[?.!]*\s*$)|"
            rf"(?:is|was)\s+there\s+(?:a|an|any)\b(?!.*\b(?:{things})\b))")


# and the superlatives of a measure's own adjectives ('the deepest sampling depth', 'the coolest SST'); not
# 'fastest', 'strongest': the highest speed but the lowest time
_MORE = r"(?:most|highest|largest|biggest|greatest|maximum|max|top|best|longest|hottest|warmest|deepest|heaviest|" \
    r"tallest|widest|thickest)"
_LESS = r"(?:least|lowest|smallest|minimum|min|fewest|shortest|coolest|coldest|shallowest|cheapest|lightest|" \
    r"thinnest|narrowest|worst)"
_ENDS_UP = "highest|largest|biggest|heaviest|longest|max|maximum|most"
_ENDS_DOWN = "lowest|smallest|lightest|shortest|min|minimum|least"
# the places people say by ordinals ('the 2nd highest', 'runner-up'): the one table of them
ORDINALS = {"second": 2, "2nd": 2, "runner-up": 2, "runner up": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
            "fifth": 5, "5th": 5}
_PLACES = "|".join(w for w in ORDINALS if "runner" not in w)


def ordinal(k: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(k, f"{k}th")


def place_of(said: str) -> int:
    """The place an ordinal in ``said`` names ('2nd highest': 2); 1 when none."""
    return next((k for w, k in ORDINALS.items() if re.search(rf"\b{w}\b", said.lower())), 1)


# things counted when said right before 'per' ('papers per venue?': how many for each venue)
COUNTED = ("papers", "models", "datasets", "metrics", "problems", "venues", "fields", "contributions", "studies")
# ('which papers per country': a list for each, no count)
_PER = "|".join(rf"(?<=\b{w}\s)(?<!which\s{w}\s)(?<!what\s{w}\s)" for w in COUNTED)
# the order matters: the first entry whose phrasing a word stands in takes it ('most common' before 'most')
TABLE: dict[str, Operator] = {op.name: op for op in (
    Operator("list", "", "the {what}"),
    Operator("count", r"\bhow\s+many\b|\bnumber\s+of\b|\bcount(?:\s+of)?\b|\bhow\s+much\s+different\b|"
             rf"(?:{_PER})per\b",
             "how many different {what} there are", aggregate="COUNT"),
    Operator("kth", rf"\b(?:{_PLACES})[\s-]+(?:highest|largest|biggest|greatest|longest|most)\b",
             "the {place} highest {by}", order="DESC", numeric=True, place=True),
    Operator("kth_lowest", rf"\b(?:{_PLACES})[\s-]+(?:lowest|smallest|least|shortest|fewest|cheapest)\b",
             "the {place} lowest {by}", order="ASC", numeric=True, place=True),
    Operator("most", r"\b(?:the\s+)?most\s+(?:common(?:ly)?|frequent(?:ly)?|often|popular|used|widely\s+used|"
             r"studied|investigated|reported|considered)\b|\bmost\s+of\s+the\b|\b(?:common|frequent|popular)est\b|"
             r"\bappears?\s+most(?:\s+often)?\b|\bused\s+(?:the\s+)?most(?:\s+(?:often|frequently|commonly))?\b",
             "the {what} the most contributions have", order="DESC", often=True),
    Operator("rarest", r"\bleast\s+(?:common(?:ly)?|frequent(?:ly)?|often|popular|used)\b|\brarest\b",
             "the {what} the fewest contributions have", order="ASC", often=True),
    Operator("latest", r"\b(?:latest|newest|most\s+recent(?:ly)?|last|youngest)\b",
             "the most recent {what}", order="DESC", by_year=True),
    Operator("earliest", r"\b(?:earliest|oldest|first)\b", "the earliest {what}", order="ASC", by_year=True),
    Operator("average", r"\b(?:average|mean|avg)\b", "the average {by}", aggregate="AVG", numeric=True),
    Operator("sum", r"\b(?:sum|summed|total|combined|altogether)\b(?<!\bin\stotal)|\badd(?:ed|ing)?\s+(?:\w+\s+)?up\b",
             "the sum of the {by}", aggregate="SUM",
             numeric=True),
    # 'the difference between the heaviest and the lightest weight': how far apart the ends are (before 'range')
    Operator("spread", rf"\b(?:difference|gap|spread)\s+between\s+(?:the\s+)?(?:{_ENDS_UP})\s+(?:and|&)\s+(?:the\s+)?"
             rf"(?:{_ENDS_DOWN})\b|\b(?:difference|gap|spread)\s+between\s+(?:the\s+)?(?:{_ENDS_DOWN})\s+(?:and|&)\s+"
             rf"(?:the\s+)?(?:{_ENDS_UP})\b|\bspread\s+(?:of|in)\b|\b(?:max|maximum|highest)\s+minus\s+(?:the\s+)?"
             r"(?:min|minimum|lowest)\b",
             "the difference between the highest and the lowest {by}", aggregate="MAX", numeric=True,
             expression="(MAX({by}) - MIN({by}))"),
    # 'the min and max follow-up': both ends at once (before 'max' and 'min', whose words it holds)
    Operator("range", r"\b(?:min|minimum|lowest|smallest)\s+(?:and|&|/)\s+(?:the\s+)?(?:max|maximum|highest|largest)\b|"
             r"\b(?:max|maximum|highest|largest)\s+(?:and|&|/)\s+(?:the\s+)?(?:min|minimum|lowest|smallest)\b",
             "the lowest and the highest {by}", aggregate="MIN", numeric=True),
    Operator("max", rf"\b{_MORE}\b", "the highest {by}", aggregate="MAX", order="DESC", numeric=True),
    Operator("min", rf"\b{_LESS}\b", "the lowest {by}", aggregate="MIN", order="ASC", numeric=True),
    Operator("yesno", r"^\s*(?:(?:so|hey|hi|quick\s+q(?:uestion)?)[\s,:!-]+)*" + yes_or_no(),
             "whether any {what} exist", ask=True),
)}


def operators_in(text: str) -> list[tuple[Operator, tuple[int, int]]]:
    """The operators the question's words ask for, each with its words, in table order, none overlapping another."""
    taken: list[tuple[Operator, tuple[int, int]]] = []
    for op in TABLE.values():
        for span in op.found(text):
            if not any(span[0] < b and a < span[1] for _, (a, b) in taken):
                taken.append((op, span))
    return taken
