"""The intents a generated set asks, each with the names it is asked about, its wordings and its gold query.

Wordings are this module's own, written for it (not taken from SciQA nor from any evaluation set). A gold query is
a SPARQL template whose ``{slot}`` places take the names as quoted literals; scores are ranked as numbers and only
when they read as one (digits, an optional thousands comma, decimal point or trailing ``%``), so "N/A" or "12 M"
never rank."""
from __future__ import annotations

from dataclasses import dataclass

DATASET = "?dataset a orkgc:Dataset; rdfs:label ?dataset_lbl. FILTER(str(?dataset_lbl) = {dataset}) "
OTHER = "?other a orkgc:Dataset; rdfs:label ?other_lbl. FILTER(str(?other_lbl) = {other}) "
MODEL = "?model a orkgc:Model; rdfs:label ?model_lbl. FILTER(str(?model_lbl) = {model}) "
METRIC = "?metric a orkgc:Metric; rdfs:label ?metric_lbl. FILTER(str(?metric_lbl) = {metric}) "
PROBLEM = "?problem a orkgc:Problem; rdfs:label ?problem_lbl. FILTER(str(?problem_lbl) = {problem}) "
FIELD = "?field a orkgc:ResearchField; rdfs:label ?field_lbl. FILTER(str(?field_lbl) = {field}) "
PAPER = "?paper a orkgc:Paper; rdfs:label ?paper_lbl. FILTER(str(?paper_lbl) = {paper}) "
ON_DATASET = "?benchmark orkgp:HAS_DATASET ?dataset. ?cont orkgp:HAS_BENCHMARK ?benchmark. "
SCORED = ("?benchmark orkgp:HAS_DATASET ?dataset; orkgp:HAS_EVALUATION ?eval. ?eval orkgp:HAS_METRIC ?metric; "
          "orkgp:HAS_VALUE ?value. ?cont orkgp:HAS_BENCHMARK ?benchmark. ")
HAS_MODEL = "?cont orkgp:HAS_MODEL ?model. ?model rdfs:label ?model_lbl. "
NUMBER = ('FILTER(REGEX(STR(?value), "^[0-9][0-9,]*([.][0-9]+)?%?$")) '
          'BIND(xsd:decimal(REPLACE(STR(?value), "[,%]", "")) AS ?score) ')
RANKED = "SELECT ?model ?model_lbl WHERE { " + DATASET + METRIC + SCORED + HAS_MODEL + NUMBER + "} "


@dataclass(frozen=True)
class GoldIntent:
    """One kind of question: the names it takes (``over``: a key of ``pipeline.eval.generated.names.Names``), how
    people word it, and the query whose result on the graph is the right answer."""

    id: str
    over: str
    wordings: tuple[str, ...]
    gold: str


INTENTS: tuple[GoldIntent, ...] = (
    GoldIntent("count-models", "dataset", (
        "How many models have results on the {dataset} dataset?",
        "number of models evaluated on {dataset}",
        "How many different models were tested on {dataset}?",
        "count the models benchmarked on {dataset}"),
        "SELECT (COUNT(DISTINCT ?model) AS ?n) WHERE { " + DATASET + ON_DATASET + "?cont orkgp:HAS_MODEL ?model. }"),
    GoldIntent("count-papers", "dataset", (
        "How many papers report a result on {dataset}?",
        "number of papers with results on the {dataset} benchmark",
        "how many publications evaluate on {dataset}?"),
        "SELECT (COUNT(DISTINCT ?paper) AS ?n) WHERE { " + DATASET + ON_DATASET + "?paper orkgp:P31 ?cont. }"),
    GoldIntent("models-on-dataset", "dataset", (
        "Which models have been benchmarked on {dataset}?",
        "list the models evaluated on the {dataset} dataset",
        "what models were tested on {dataset}"),
        "SELECT DISTINCT ?model ?model_lbl WHERE { " + DATASET + ON_DATASET + HAS_MODEL + "}"),
    GoldIntent("models-with-code", "dataset", (
        "Which models evaluated on {dataset} have published code?",
        "models on the {dataset} benchmark that come with source code",
        "which models tested on {dataset} have a code repository?"),
        "SELECT DISTINCT ?model ?model_lbl WHERE { " + DATASET + ON_DATASET + HAS_MODEL
        + "?cont orkgp:HAS_SOURCE_CODE ?code. }"),
    GoldIntent("dataset-metrics", "dataset", (
        "Which metrics are reported for {dataset}?",
        "what evaluation metrics does the {dataset} dataset use",
        "list the metrics used on the {dataset} benchmark"),
        "SELECT DISTINCT ?metric ?metric_lbl WHERE { " + DATASET + "?benchmark orkgp:HAS_DATASET ?dataset; "
        "orkgp:HAS_EVALUATION ?eval. ?eval orkgp:HAS_METRIC ?metric. ?metric rdfs:label ?metric_lbl. }"),
    GoldIntent("dataset-problems", "dataset", (
        "Which research problems is {dataset} a benchmark for?",
        "what problems are studied with the {dataset} dataset?",
        "research problems that use {dataset}"),
        "SELECT DISTINCT ?problem ?problem_lbl WHERE { " + DATASET + ON_DATASET
        + "?cont orkgp:P32 ?problem. ?problem rdfs:label ?problem_lbl. }"),
    GoldIntent("model-datasets", "model", (
        "On which datasets was {model} evaluated?",
        "which benchmarks has the {model} model been tested on",
        "datasets {model} reports results on"),
        "SELECT DISTINCT ?dataset ?dataset_lbl WHERE { " + MODEL + "?cont orkgp:HAS_MODEL ?model; "
        "orkgp:HAS_BENCHMARK ?benchmark. ?benchmark orkgp:HAS_DATASET ?dataset. ?dataset rdfs:label ?dataset_lbl. }"),
    GoldIntent("model-code", "model", (
        "Where can I find the code of {model}?",
        "links to the source code for the {model} model",
        "is there a code repository for {model}?"),
        "SELECT DISTINCT ?code WHERE { " + MODEL + "?cont orkgp:HAS_MODEL ?model; orkgp:HAS_SOURCE_CODE ?code. }"),
    GoldIntent("model-papers", "model", (
        "Which papers introduce {model}?",
        "what papers describe the {model} model",
        "in which publications does {model} appear?"),
        "SELECT DISTINCT ?paper ?paper_lbl WHERE { " + MODEL + "?cont orkgp:HAS_MODEL ?model. "
        "?paper orkgp:P31 ?cont; rdfs:label ?paper_lbl. }"),
    GoldIntent("problem-datasets", "problem", (
        "Which datasets are used for the {problem} problem?",
        "benchmarks for {problem}",
        "what datasets do papers on {problem} evaluate on?"),
        "SELECT DISTINCT ?dataset ?dataset_lbl WHERE { " + PROBLEM + "?cont orkgp:P32 ?problem; "
        "orkgp:HAS_BENCHMARK ?benchmark. ?benchmark orkgp:HAS_DATASET ?dataset. ?dataset rdfs:label ?dataset_lbl. }"),
    GoldIntent("problem-field", "problem", (
        "Which research field does {problem} belong to?",
        "what field is the {problem} problem studied in?",
        "research area of {problem}"),
        "SELECT DISTINCT ?field ?field_lbl WHERE { " + PROBLEM + "?cont orkgp:P32 ?problem. "
        "?paper orkgp:P31 ?cont; orkgp:P30 ?field. ?field rdfs:label ?field_lbl. }"),
    GoldIntent("field-count-problems", "field", (
        "How many research problems does the {field} field cover?",
        "number of problems studied in {field}",
        "how many distinct problems are addressed in the research field {field}?"),
        "SELECT (COUNT(DISTINCT ?problem) AS ?n) WHERE { " + FIELD
        + "?paper orkgp:P30 ?field; orkgp:P31 ?cont. ?cont orkgp:P32 ?problem. }"),
    GoldIntent("paper-year", "paper", (
        "In which year was the paper \"{paper}\" published?",
        "publication year of {paper}",
        "when did \"{paper}\" come out?"),
        "SELECT DISTINCT ?year WHERE { " + PAPER + "?paper orkgp:P29 ?year. }"),
    GoldIntent("scores-on-dataset", "dataset_metric", (
        "List every model with its {metric} score on {dataset}.",
        "all models and their {metric} on the {dataset} dataset",
        "show each model evaluated on {dataset} together with its {metric}"),
        "SELECT DISTINCT ?model ?model_lbl ?value WHERE { " + DATASET + METRIC + SCORED + HAS_MODEL + "}"),
    GoldIntent("best-model", "dataset_metric", (
        "Which model has the highest {metric} on {dataset}?",
        "best model on the {dataset} dataset in terms of {metric}",
        "what model scores best by {metric} on {dataset}?"),
        RANKED + "ORDER BY DESC(?score) LIMIT 1"),
    GoldIntent("lowest-model", "dataset_metric", (
        "Which model has the weakest {metric} result on {dataset}?",
        "model with the worst {metric} score on the {dataset} dataset",
        "what model scores lowest by {metric} on {dataset}?"),
        RANKED + "ORDER BY ASC(?score) LIMIT 1"),
    GoldIntent("best-value", "dataset_metric", (
        "What is the highest {metric} reported on {dataset}?",
        "top {metric} score achieved on the {dataset} benchmark",
        "best {metric} value on {dataset}"),
        "SELECT ?value WHERE { " + DATASET + METRIC + SCORED + NUMBER + "} ORDER BY DESC(?score) LIMIT 1"),
    GoldIntent("top-k", "dataset_metric_k", (
        "Which are the top {k} models on {dataset} by {metric}?",
        "the {k} best models on the {dataset} dataset in {metric}",
        "list the {k} highest-scoring models on {dataset} for {metric}"),
        RANKED + "ORDER BY DESC(?score) LIMIT {k}"),
    GoldIntent("second-model", "dataset_metric", (
        "Which model ranks second on {dataset} by {metric}?",
        "the runner-up model on the {dataset} dataset in terms of {metric}",
        "what model has the second highest {metric} on {dataset}?"),
        RANKED + "ORDER BY DESC(?score) LIMIT 1 OFFSET 1"),
    GoldIntent("model-value", "model_dataset_metric", (
        "How much {metric} does {model} get on {dataset}?",
        "{metric} of {model} on the {dataset} dataset",
        "which {metric} score did the {model} model get on {dataset}?"),
        "SELECT DISTINCT ?value WHERE { " + DATASET + METRIC + MODEL + SCORED + "?cont orkgp:HAS_MODEL ?model. }"),
    GoldIntent("both-datasets", "dataset_pair", (
        "Which models have results on both {dataset} and {other}?",
        "models evaluated on {dataset} as well as on {other}",
        "what models were tested on both the {dataset} and the {other} datasets?"),
        "SELECT DISTINCT ?model ?model_lbl WHERE { " + DATASET + OTHER + ON_DATASET + HAS_MODEL
        + "?other_benchmark orkgp:HAS_DATASET ?other. ?other_cont orkgp:HAS_BENCHMARK ?other_benchmark; "
        "orkgp:HAS_MODEL ?model. }"),
    GoldIntent("model-on-dataset", "model_dataset", (
        "Was {model} evaluated on {dataset}?",
        "does {model} have a result on the {dataset} dataset?",
        "Has the {model} model been tested on {dataset}?"),
        "ASK { " + MODEL + DATASET + ON_DATASET + "?cont orkgp:HAS_MODEL ?model. }"),
    GoldIntent("models-in-year", "dataset_year", (
        "Which models were evaluated on {dataset} in papers from {year}?",
        "models with results on the {dataset} dataset published in {year}",
        "what models tested on {dataset} appeared in {year}?"),
        "SELECT DISTINCT ?model ?model_lbl WHERE { " + DATASET + ON_DATASET + HAS_MODEL
        + "?paper orkgp:P31 ?cont; orkgp:P29 ?year. FILTER(str(?year) = {year}) }"),
)
