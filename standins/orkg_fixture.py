"""A small ORKG-shaped graph, written by the project itself, for integration tests of the knowledge-graph parts.

The shape follows the gold SPARQL of SciQA's templates T01-T08 (real ORKG class and predicate IRIs):

    paper  a orkgc:Paper; rdfs:label TITLE; orkgp:P30 FIELD; orkgp:P29 YEAR; orkgp:P31 CONTRIBUTION.
    cont   a orkgc:Contribution; orkgp:P32 PROBLEM; orkgp:HAS_MODEL MODEL; orkgp:HAS_SOURCE_CODE "url";
           orkgp:HAS_BENCHMARK BENCHMARK.
    bench  orkgp:HAS_DATASET DATASET; orkgp:HAS_EVALUATION EVAL.
    eval   orkgp:HAS_METRIC METRIC; orkgp:HAS_VALUE "89.46".
    FIELD a orkgc:ResearchField, PROBLEM a orkgc:Problem, DATASET a orkgc:Dataset, METRIC a orkgc:Metric,
    MODEL a orkgc:Model -- each with an rdfs:label.

As in ORKG (see the recorded answers in SciQA), every node is an orkgr:R<n> IRI and every label, score and code link
is a plain string literal. Labels, titles and values are invented. Scores within one dataset and metric have the
same number of integer digits, so SPARQL's string ordering (what ORKG's plain literals get) agrees with numeric order
-- except on NOISY, which holds scores as ORKG also stores them ("9.5" beside "10.2", "71.46%", "1,204.5", "N/A",
"—", "12 M"), where string order and numeric order disagree.

``ADDED_PAPERS`` (appended later, in a research field of their own, with problems, datasets, metrics and models of
their own, so that no earlier answer changes) hold names as ORKG has them: parentheses, punctuation, non-ASCII
letters and an en dash. Their entities get IRIs from orkgr:R1500 on, so every earlier IRI stays what it was.
"""
from __future__ import annotations

import gzip
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

ORKGC = "http://orkg.org/orkg/class/"
ORKGP = "http://orkg.org/orkg/predicate/"
ORKGR = "http://orkg.org/orkg/resource/"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
GRAPH = "http://orkg.org/orkg/fixture"  # the named graph the Virtuoso stand-in loads it into

Triple = tuple[str, str, str]  # (subject IRI, predicate IRI, object IRI or literal in N-Triples syntax)


@dataclass(frozen=True)
class Result:
    metric: str
    value: str


@dataclass(frozen=True)
class Benchmark:
    dataset: str
    results: tuple[Result, ...] = ()


@dataclass(frozen=True)
class Contribution:
    problem: str
    model: str | None = None
    benchmarks: tuple[Benchmark, ...] = ()
    code: tuple[str, ...] = ()


@dataclass(frozen=True)
class Paper:
    title: str
    field: str
    year: str
    contributions: tuple[Contribution, ...]


NLP, CV, DB = "Natural Language Processing", "Computer Vision", "Databases/Information Systems"
STORY_CLOZE, READING, PARAPHRASE = "Story Cloze Test", "LoreQA Reading Set", "ParaPhrase Pairs v2"
IMAGES, TABLES, UNUSED_DATASET = "Tiny Objects 20", "TableQuest", "Empty Shelf Corpus"
NOISY, LONE = "Mixed Notation Bench", "Lone Score Set"
ACC, EM, F1, TOP1, SCORE = "Accuracy", "Exact Match", "F1", "Top-1 Accuracy", "Score"
COMMONSENSE, QA, PARA, IMG = ("Common Sense Reasoning", "Question Answering", "Paraphrase Identification",
                              "Image Classification")
QUOTED_MODEL = 'NarrativeNet ("large", 2×)'  # quotes and a non-ASCII sign, as ORKG labels have


def _c(problem: str, model: str | None, benchmarks: tuple[Benchmark, ...] = (), code: tuple[str, ...] = ()
       ) -> Contribution:
    return Contribution(problem, model, benchmarks, code)


PAPERS: tuple[Paper, ...] = (
    Paper("Coherent endings: scoring story continuations with a narrative model", NLP, "2019", (
        _c(COMMONSENSE, "CoherenceNet", (Benchmark(STORY_CLOZE, (Result(ACC, "86.12"),)),),
           ("https://github.com/example-lab/coherencenet",)),
    )),
    Paper("Pretraining narratives at scale", NLP, "2020", (
        _c(COMMONSENSE, "StoryLM-base", (Benchmark(STORY_CLOZE, (Result(ACC, "82.40"),)),)),
        _c(COMMONSENSE, "StoryLM-large", (Benchmark(STORY_CLOZE, (Result(ACC, "89.46"),)),),
           ("https://github.com/example-lab/storylm", "https://gitlab.com/mirror/storylm")),
        _c(QA, "StoryLM-large", (Benchmark(READING, (Result(EM, "71.3"), Result(F1, "79.85"))),),
           ("https://github.com/example-lab/storylm-qa",)),
    )),
    Paper("A plain recurrent baseline for story completion", NLP, "2018", (
        _c(COMMONSENSE, "Plain LSTM", (Benchmark(STORY_CLOZE, (Result(ACC, "77.08"),)),)),
    )),
    Paper("Reading with quotes: NarrativeNet", NLP, "2021", (
        _c(QA, QUOTED_MODEL, (Benchmark(READING, (Result(EM, "74.90"), Result(F1, "82.17"))),),
           ("https://github.com/example-lab/narrativenet",)),
        _c(PARA, QUOTED_MODEL, (Benchmark(PARAPHRASE, (Result(ACC, "91.02"),)),)),
    )),
    Paper("Question answering with retrieval-free readers", NLP, "2022", (
        _c(QA, "QuickReader", (Benchmark(READING, (Result(EM, "76.04"), Result(F1, "77.61"))),)),
    )),
    Paper("A survey of reading comprehension", NLP, "2022", (
        _c(QA, None),  # no benchmark: must not show up where benchmarks are asked for
    )),
    Paper("Small images, small models", CV, "2021", (
        _c(IMG, "TinyConv", (Benchmark(IMAGES, (Result(TOP1, "93.5"),)),), ("https://github.com/example-cv/tinyconv",)),
        _c(IMG, "CoherenceNet", (Benchmark(IMAGES, (Result(TOP1, "88.9"),)),)),
    )),
    Paper("Indexing tables for question answering", DB, "2020", (
        _c(QA, "TableReader", (Benchmark(TABLES, (Result(ACC, "64.2"),)),)),
        _c(QA, "TableReader", (Benchmark(LONE, (Result(ACC, "55.0"),)),)),
    )),
    Paper("Scores in every notation", NLP, "2023", tuple(
        _c(QA, model, (Benchmark(NOISY, tuple(Result(m, v) for m, v in results)),)) for model, results in (
            ("Tiny-9", ((ACC, "9.5"), (SCORE, "987"))), ("Mid-10", ((ACC, "10.2"), (SCORE, "12,050"))),
            ("Big-71", ((ACC, "71.46%"),)), ("Wide-1204", ((SCORE, "1,204.5"),)), ("Missing-NA", ((ACC, "N/A"),)),
            ("Dash-Model", ((ACC, "—"),)), ("Units-12M", ((ACC, "12 M"),)), ("Low-3", ((ACC, "3"),)))
    )),
)

IR = "Information Retrieval (IR)"
RANKING, ASR = "Passage Ranking", "Speech Recognition (ASR)"
WIKI_EN, CAFE, QA_PAIRS, LIBRI = "WikiPassages (English)", "Café Reviews – FR", "Q&A Pairs: Set 3", "LibriVoice (clean)"
MRR, NDCG, WER = "MRR@10", "nDCG@10", "Word Error Rate (WER)"
DENSE, BM25, SENOR = "DenseRetriever (single model)", "BM25+ (tuned)", "Señor-Ranker v2"

ADDED_PAPERS: tuple[Paper, ...] = (
    Paper("Dense passages for open retrieval", IR, "2021", (
        _c(RANKING, DENSE, (Benchmark(WIKI_EN, (Result(MRR, "38.2"), Result(NDCG, "45.1"))),),
           ("https://github.com/example-ir/denseretriever",)),
        _c(RANKING, DENSE, (Benchmark(QA_PAIRS, (Result(MRR, "31.7"),)),)),
    )),
    Paper("Lexical matching, revisited (again)", IR, "2019", (
        _c(RANKING, BM25, (Benchmark(WIKI_EN, (Result(MRR, "18.7"), Result(NDCG, "29.4"))),)),
        _c(RANKING, BM25, (Benchmark(CAFE, (Result(NDCG, "22.0"),)),)),
    )),
    Paper("Ranking café reviews across languages", IR, "2022", (
        _c(RANKING, SENOR, (Benchmark(CAFE, (Result(NDCG, "41.3"),)),),
           ("https://gitlab.com/example-ir/senor-ranker",)),
        _c(RANKING, SENOR, (Benchmark(WIKI_EN, (Result(MRR, "35.0"), Result(NDCG, "47.9"))),)),
    )),
    Paper("Listening with transformers: speech at scale", IR, "2023", (
        _c(ASR, "WaveTrans (ensemble)", (Benchmark(LIBRI, (Result(WER, "4.1"),)),),
           ("https://github.com/example-speech/wavetrans",)),
        _c(ASR, "Écoute-Small", (Benchmark(LIBRI, (Result(WER, "6.8"),)),)),
    )),
)
_EARLIER_PAPERS = PAPERS
PAPERS = PAPERS + ADDED_PAPERS

# Resource ids are allocated in this order, so a label always gets the same orkgr:R<n>.
FIELDS = (NLP, CV, DB, IR)
PROBLEMS = (COMMONSENSE, QA, PARA, IMG, RANKING, ASR)
DATASETS = (STORY_CLOZE, READING, PARAPHRASE, IMAGES, TABLES, UNUSED_DATASET, NOISY, LONE, WIKI_EN, CAFE, QA_PAIRS,
            LIBRI)
METRICS = (ACC, EM, F1, TOP1, SCORE, MRR, NDCG, WER)


def _models(papers: tuple[Paper, ...]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for paper in papers:
        for cont in paper.contributions:
            if cont.model:
                seen.setdefault(cont.model)
    return tuple(seen)


MODELS = _models(PAPERS)
KINDS = {"ResearchField": FIELDS, "Problem": PROBLEMS, "Dataset": DATASETS, "Metric": METRICS, "Model": MODELS}
_ADDED_MODELS = tuple(m for m in _models(ADDED_PAPERS) if m not in _models(_EARLIER_PAPERS))
_ADDED = {(kind, label) for kind, labels in (("ResearchField", (IR,)), ("Problem", (RANKING, ASR)),
                                             ("Dataset", (WIKI_EN, CAFE, QA_PAIRS, LIBRI)),
                                             ("Metric", (MRR, NDCG, WER)), ("Model", _ADDED_MODELS))
          for label in labels}


def entity_iris() -> dict[tuple[str, str], str]:
    """(class name, label) -> IRI for the shared entities: fields, problems, datasets, metrics, models (the added
    ones from R1500, so that the earlier ones keep their IRIs)."""
    out: dict[tuple[str, str], str] = {}
    n, added = 1000, 1500
    for kind, labels in KINDS.items():
        for label in labels:
            if (kind, label) in _ADDED:
                out[(kind, label)], added = f"{ORKGR}R{added}", added + 1
            else:
                out[(kind, label)], n = f"{ORKGR}R{n}", n + 1
    return out


def paper_iris() -> dict[str, str]:
    """Paper title -> IRI."""
    return {paper.title: f"{ORKGR}R{2000 + i}" for i, paper in enumerate(PAPERS)}


def iri(kind: str, label: str) -> str:
    """The IRI of a field, problem, dataset, metric or model; a paper's with kind "Paper"."""
    return paper_iris()[label] if kind == "Paper" else entity_iris()[(kind, label)]


def literal(text: str) -> str:
    """A plain string literal in N-Triples syntax."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    return f'"{escaped}"'


def fixture_triples() -> list[Triple]:
    """Every triple of the fixture graph; objects are IRIs or N-Triples literals (starting with a quote)."""
    ents = entity_iris()
    out: list[Triple] = []
    for (kind, label), node in ents.items():
        out += [(node, RDF_TYPE, ORKGC + kind), (node, RDFS_LABEL, literal(label))]
    counter = iter(range(3000, 10**6))
    for paper, paper_node in zip(PAPERS, paper_iris().values()):
        out += [(paper_node, RDF_TYPE, ORKGC + "Paper"), (paper_node, RDFS_LABEL, literal(paper.title)),
                (paper_node, ORKGP + "P30", ents[("ResearchField", paper.field)]),
                (paper_node, ORKGP + "P29", literal(paper.year))]
        for i, cont in enumerate(paper.contributions, 1):
            out += _contribution(cont, f"{ORKGR}R{next(counter)}", i, paper_node, ents, counter)
    return out


def _contribution(cont: Contribution, node: str, number: int, paper_node: str, ents: dict[tuple[str, str], str],
                  counter: Iterator[int]) -> list[Triple]:
    out = [(paper_node, ORKGP + "P31", node), (node, RDF_TYPE, ORKGC + "Contribution"),
           (node, RDFS_LABEL, literal(f"Contribution {number}")),
           (node, ORKGP + "P32", ents[("Problem", cont.problem)])]
    if cont.model:
        out.append((node, ORKGP + "HAS_MODEL", ents[("Model", cont.model)]))
    out += [(node, ORKGP + "HAS_SOURCE_CODE", literal(url)) for url in cont.code]
    for bench in cont.benchmarks:
        bench_node = f"{ORKGR}R{next(counter)}"
        out += [(node, ORKGP + "HAS_BENCHMARK", bench_node),
                (bench_node, RDFS_LABEL, literal(f"Benchmark {bench.dataset}")),
                (bench_node, ORKGP + "HAS_DATASET", ents[("Dataset", bench.dataset)])]
        for result in bench.results:
            eval_node = f"{ORKGR}R{next(counter)}"
            out += [(bench_node, ORKGP + "HAS_EVALUATION", eval_node),
                    (eval_node, ORKGP + "HAS_METRIC", ents[("Metric", result.metric)]),
                    (eval_node, ORKGP + "HAS_VALUE", literal(result.value))]
    return out


def ntriples() -> str:
    """The fixture graph as N-Triples text (UTF-8, one triple a line)."""
    lines = []
    for s, p, o in fixture_triples():
        obj = o if o.startswith('"') else f"<{o}>"
        lines.append(f"<{s}> <{p}> {obj} .\n")
    return "".join(lines)


def write_ntriples(path: str | Path) -> Path:
    """Write the fixture graph to ``path`` as N-Triples; returns the path."""
    path = Path(path)
    path.write_text(ntriples(), encoding="utf-8")
    return path


def write_copies(folder: Path, copies: int, files: int = 5) -> tuple[Path, int]:
    """The fixture plus ``copies`` relabelled copies with fresh IRIs (so every template query keeps its answers on a
    graph of any size): ``folder/all.nt`` (returned, with the number of triples) and the same triples as ``files``
    gzip parts in ``folder/dump/``, as a dump is published."""
    base = ntriples()
    plain = folder / "all.nt"
    (folder / "dump").mkdir()
    total = 0
    with plain.open("w") as out, ExitStack() as stack:
        parts = [stack.enter_context(gzip.open(folder / "dump" / f"part-{i}.nt.gz", "wt")) for i in range(files)]
        for k in range(copies + 1):
            text = base if k == 0 else base.replace("/resource/R", f"/resource/C{k}R").replace('" .', f' #{k}" .')
            out.write(text)
            parts[k % files].write(text)
            total += text.count("\n")
    return plain, total
