"""What the bot can do, in words, with example questions: for help, the App Home, and replies to questions about
nothing the graph records."""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from pipeline.records import Example

EXAMPLES = (  # phrased as SciQA's templates are, which is what the bot answers best
    "Which model has achieved the highest Accuracy score on the Story Cloze Test benchmark dataset?",
    "What models are being evaluated on the CoQA dataset?",
    "What is the highest benchmark result achieved on the SST-2 Binary classification dataset, including the "
    "metric and its value?",
    "Provide a list of papers that have utilized the BertSumExt model and include the links to their code?",
    "What evaluation metrics are commonly used when benchmarking models on the WMT2014 English-German dataset?",
)
CAN_ANSWER = (
    "I answer questions about what the Open Research Knowledge Graph (ORKG) records on research papers: which "
    "models were evaluated on a benchmark dataset, the best scores and metrics, the papers and their code, "
    "research problems and fields. I write a SPARQL query from similar questions I know (the SciQA benchmark "
    "and pairs the team has approved), run it, and show you the query, the answer and where it came from."
)
OFF_TOPIC = "That does not look like a question about research the ORKG records, so I did not guess an answer."


def suggested_questions(examples: Sequence[Example], n: int = 4) -> list[str]:
    """Questions to offer as prompts: what the team taught (newest first, at most half), then one question of each of
    SciQA's most common question forms (templates), the shortest of its kind; the fixed examples fill any gap."""
    team = [e.question for e in reversed(examples) if e.source == "team"][: n // 2]
    forms = Counter(e.template_id for e in examples if e.source != "team" and e.template_id)
    common = [min((e.question for e in examples if e.template_id == t and e.source != "team"), key=len)
              for t, _ in forms.most_common(n)]
    picked = list(dict.fromkeys(team + common + list(EXAMPLES)))
    return picked[:n]
