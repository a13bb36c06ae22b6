"""The LLM grounded in the graph (issue 40): each lever alone and together — the schema beside the examples
(KGQA_LLM_SCHEMA), the question's names linked (KGQA_LLM_LINKS), decoding held to the graph's names
(KGQA_LLM_GRAMMAR), the model as a reader of the question (KGQA_LLM_READER) — against today's prompt, the LLM
alone (no adapter), on the real pipeline and the local model.

Per variant: exact of the questions with a non-empty gold answer, answered wrong (rows returned, not the gold set),
empty, declined, queries with vocabulary the graph lacks that reached the KG (and replies that wrote some), prompt
tokens (the server's own count of the user message) and whole-question latency p50. Variants run one after the
other, each question once (greedy decoding: the replies do not depend on the load, the latencies do).

Usage (one LLM run at a time on a shared box: wrap it in ``flock /tmp/kgqa-llm.lock``):
  KGQA_HOME=... SCIQA_DIR=../shared/sciqa PYTHONPATH=$PWD python scripts/bench_grounded.py \
      --questions handcrafted --model qwen2.5-coder-0.5b --variants base schema links grammar all [--json out.json]
``--questions handcrafted``: SciQA's valid + test handcrafted (HQ) questions, read in place; else any
``kgqa eval --questions`` value (``final`` with ``--first 30``).

Property search over the ORKG's vocabulary, no model (issue 53; docs/results/vocabulary.md), with the example store
of train (``kgqa index``) for the similar questions; ``--splits train`` while tuning:
  KGQA_ORKG_VOCABULARY=../shared/orkg-vocabulary SCIQA_DIR=../shared/sciqa PYTHONPATH=$PWD \
      python scripts/bench_grounded.py --recall [--splits train]
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import threading
import time
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from pipeline.core import Pipeline
from pipeline.eval.questions import EvalQuestion, load_questions
from pipeline.eval.scorer import score_question
from pipeline.factory import build_pipeline
from pipeline.names.lexicon import Lexicon
from pipeline.names.vocabulary import unknown
from pipeline.records import Outcome
from pipeline.sciqa import sciqa_for
from pipeline.settings import Settings

VARIANTS: dict[str, dict[str, bool]] = {
    "base": {},
    "schema": {"llm_schema": True},
    "links": {"llm_links": True},
    "grammar": {"llm_grammar": True},
    "schema+links": {"llm_schema": True, "llm_links": True},
    "all": {"llm_schema": True, "llm_links": True, "llm_grammar": True},
    "reader": {"llm_reader": True},
}


def questions(settings: Settings, spec: str, first: int | None) -> list[EvalQuestion]:
    data = sciqa_for(settings)
    if spec == "handcrafted":
        found = [q for split in ("valid", "test") for q in load_questions(split, data) if q.template_id == "HQ"]
    else:
        found = load_questions(spec, data)
    return found[:first] if first else found


def prompt_tokens(url: str, prompt: str) -> int:
    request = urllib.request.Request(url + "/tokenize", data=json.dumps({"content": prompt}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return len(json.load(response)["tokens"])


_WRITING = threading.Lock()


def ask(pipe: Pipeline, variant: str, q: EvalQuestion, vocabulary: frozenset[str], rows: str | None) -> dict[str, Any]:
    """One question through one variant's pipeline, scored, with its prompt's tokens and what reached the KG."""
    model = pipe.generator  # the local model itself (no fallback): its server counts the prompt's tokens
    start = time.perf_counter()
    answer = pipe.ask(q.question)
    wall = time.perf_counter() - start
    system = answer.rows.flat() if answer.rows is not None else []
    ran = answer.outcome in (Outcome.ANSWERED, Outcome.EMPTY) and bool(answer.sparql)
    prompt = answer.generation.prompt if answer.generation else ""
    attempts = answer.generation.attempts if answer.generation else ()
    row = {
        "id": q.id, "gold": q.gold, "system": system[:20], "exact": score_question(q.gold, system).exact,
        "outcome": answer.outcome.value, "sparql": answer.sparql, "wall_s": round(wall, 2),
        "prompt_tokens": prompt_tokens(model.server.url(), prompt) if prompt else 0,  # type: ignore[attr-defined]
        "unknown_ran": bool(ran and unknown(answer.sparql or "", vocabulary)),
        "unknown_written": sum(bool(a.sparql and unknown(a.sparql, vocabulary)) for a in attempts),
        "prompt": prompt,
    }
    print(f"{variant} {q.id} {answer.outcome.value} exact={row['exact']} {wall:.1f}s", file=sys.stderr, flush=True)
    if rows:  # each row as it comes: a run cut short still says what it measured
        with _WRITING, open(rows, "a", encoding="utf-8") as f:
            f.write(json.dumps({"variant": variant, **row}) + "\n")
    return row


def run(settings: Settings, variants: list[str], asked: list[EvalQuestion], workers: int,
        rows_path: str | None = None) -> list[dict[str, Any]]:
    """Every (variant, question) on ``workers`` threads: the server's slots decode them in one batch."""
    pipes = {v: build_pipeline(settings.with_(**VARIANTS[v])) for v in variants}
    lexicon = pipes[variants[0]].lexicon
    assert lexicon is not None  # the factory's pipelines have their graph's
    vocabulary = lexicon.vocabulary.available() or frozenset()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {(v, q.id): pool.submit(ask, pipes[v], v, q, vocabulary, rows_path) for q in asked for v in variants}
        rows = {key: f.result() for key, f in futures.items()}
    results = []
    for v in variants:
        mine = [rows[(v, q.id)] for q in asked]
        results.append({"variant": v, "summary": summary(mine), "questions": mine})
    return results


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    answerable = [r for r in rows if r["gold"]]
    outcomes = Counter(r["outcome"] for r in rows)
    return {
        "n": len(rows), "with_answer": len(answerable), "exact_with_answer": sum(r["exact"] for r in answerable),
        "exact_all": sum(r["exact"] for r in rows),
        "answered_wrong": sum(r["outcome"] == "answered" and not r["exact"] for r in rows),
        "empty": outcomes["empty"], "declined": outcomes["declined"] + outcomes["refused"],
        "unknown_vocabulary_reached_kg": sum(r["unknown_ran"] for r in rows),
        "replies_with_unknown_vocabulary": sum(r["unknown_written"] for r in rows),
        "prompt_tokens_p50": statistics.median(r["prompt_tokens"] for r in rows) if rows else 0,
        "wall_p50_s": round(statistics.median(r["wall_s"] for r in rows), 1) if rows else 0,
    }


def summarise(path: str) -> int:
    """Each variant's summary over the questions every variant answered (a paired comparison)."""
    with open(path, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    by: dict[str, dict[str, dict[str, Any]]] = {}
    for r in rows:
        by.setdefault(r["variant"], {})[r["id"]] = r
    common = set.intersection(*(set(v) for v in by.values())) if by else set()
    for variant, mine in by.items():
        print(json.dumps({"variant": variant, **summary([mine[i] for i in sorted(common)])}))
    return 0


def forms(paths: list[str]) -> int:
    """The guard's plain forms (``pipeline.intent.guard.contradicted``) replayed over the queries a run's rows
    ran: per variant, the wrong answers and exact ones they would refuse (the re-ask that follows is not replayed)."""
    from pipeline.intent.guard import contradicted

    data = sciqa_for(Settings.from_env())
    asked = {r.id: r.question for r in data.all()}
    by: dict[str, Counter[str]] = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for row in map(json.loads, filter(str.strip, f)):
                sparql, counts = row.get("sparql") or "", by.setdefault(row["variant"], Counter())
                refused = bool(sparql) and row["outcome"] in ("answered", "empty") and \
                    bool(contradicted(asked[row["id"]], sparql))
                wrong = row["outcome"] == "answered" and not row["exact"]
                counts.update(wrong_before=wrong, refused_wrong=wrong and refused, wrong_after=wrong and not refused,
                              exact_lost=bool(row["exact"] and row["gold"] and refused))
    for variant, counts in by.items():
        print(json.dumps({"variant": variant, **{k: counts[k] for k in
                                                 ("wrong_before", "refused_wrong", "wrong_after", "exact_lost")}}))
    return 0


def retrieval(settings: Settings, budget: int) -> int:
    """Schema recall, no model: of the graph names each handcrafted gold query uses (beyond the three in most
    queries), the share the schema retrieved for its question holds; train is in-sample (the schema is read from it)."""
    from pipeline.factory import build_kg
    from pipeline.records import Example
    from pipeline.schema.graph import read_facts
    from pipeline.schema.retrieve import build_schema
    from pipeline.schema.terms import read_pairs

    data = sciqa_for(settings)
    kg = build_kg(settings, "sciqa")
    lexicon = Lexicon.of(settings, kg)
    vocabulary = lexicon.vocabulary.available() or frozenset()
    train = [Example(r.id, r.question, r.sparql, r.template_id) for r in data.split("train")]
    schema = build_schema(train, vocabulary, read_facts(kg, vocabulary))
    held = {e.name for e in schema.entries} - {"orkgp:P31", "orkgc:Paper", "orkgp:compareContribution"}
    for split in ("train", "valid", "test"):
        wanted = found = asked = 0
        for r in data.split(split):
            gold = {n for n in read_pairs([Example(r.id, r.question, r.sparql)]) if n in held}
            if r.id.startswith("HQ") and gold:
                asked += 1
                wanted += len(gold)
                found += len(gold & {e.name for e in schema.for_question(r.question, budget)})
        print(json.dumps({"split": split, "questions": asked, "names": wanted, "retrieved": found,
                          "recall": round(found / max(wanted, 1), 3), "budget": budget}))
    from pipeline.schema import links, retrieve
    from pipeline.schema.grammar import allowed_names, regex

    facts = read_facts(kg, vocabulary)
    language = re.compile(regex(allowed_names(vocabulary | set(facts.comparisons))))
    by_id = {r.id: r for r in data.all()}
    final = [i for i, _ in data.challenge("final")]
    for name, ids in (("train", [r.id for r in data.split("train")]), ("final", final)):
        gold = [by_id[i] for i in ids if i in by_id]
        admitted = [r for r in gold if language.fullmatch(r.sparql.strip())]
        print(json.dumps({"grammar_admits_gold": name, "n": len(gold), "admitted": len(admitted),
                          "templated": sum(not r.id.startswith("HQ") for r in gold),
                          "templated_admitted": sum(not r.id.startswith("HQ") for r in admitted)}))

    index = lexicon.labels.available()
    hand = questions(settings, "handcrafted", None)
    schema_tokens = [retrieve.tokens(retrieve.render(schema.for_question(q.question, budget))) for q in hand]
    link_tokens = [retrieve.tokens(links.render(links.linked(q.question, index, kg))) if index else 0 for q in hand]
    print(json.dumps({"handcrafted_valid_test": len(hand), "schema_tokens_p50_estimated": statistics.median(
        schema_tokens), "links_tokens_p50_estimated": statistics.median(link_tokens),
        "questions_with_links": sum(t > 0 for t in link_tokens)}))
    return 0


EVERY_COMPARISON = frozenset({"orkgp:P31", "orkgp:P32", "orkgp:P30", "orkgp:P29"})  # in nearly every HQ query


def gold_predicates(sparql: str) -> set[str]:
    """The numbered predicates a gold query uses, beyond the four every comparison's query has."""
    return set(re.findall(r"orkgp:P\d+", sparql)) - EVERY_COMPARISON


def recall(settings: Settings, measured: tuple[str, ...] = ("train", "valid+test"),
           ks: tuple[int, ...] = (5, 10, 20)) -> int:
    """Property search (``pipeline.schema.properties``) over the ORKG vocabulary KGQA_ORKG_VOCABULARY names, no
    model: of the gold predicates of SciQA's handcrafted questions, the share in the top k. The index and the example
    store (``kgqa index``: train) hold the train pairs; a train question is scored with its own pair left out of both
    (what the weights were tuned on), valid + test against all of train (never tuned on). ``measured``: which of the
    two (tune with train alone)."""
    from pipeline.factory import build_encoder, build_store, property_search
    from pipeline.records import Example
    from pipeline.schema.properties import SIMILAR, property_index, search_properties
    from pipeline.schema.vocabulary import indexed_vocabulary

    if not settings.orkg_vocabulary_paths:
        print("set KGQA_ORKG_VOCABULARY to the ORKG vocabulary's files (e.g. ../shared/orkg-vocabulary)",
              file=sys.stderr)
        return 2
    start = time.perf_counter()
    vocabulary, _ = indexed_vocabulary(settings.orkg_vocabulary_paths, settings.vocabulary_dir)
    indexed = time.perf_counter() - start
    data = sciqa_for(settings)
    encoder = build_encoder(settings)
    train = [Example(r.id, r.question, r.sparql, r.template_id) for r in data.split("train")]
    store = build_store(settings)
    if {e.id for e in store.examples()} != {e.id for e in train}:
        print("the example store must hold the train pairs alone: run `kgqa index` with KGQA_INDEX_SPLITS=train",
              file=sys.stderr)
        return 2
    start = time.perf_counter()
    whole = property_search(settings, train)  # as the product builds it
    assert whole is not None
    built = time.perf_counter() - start
    alone = property_index(vocabulary, encoder, settings.vocabulary_dir)
    for name, splits, pairs in (("train", ("train",), "train, its own left out"), ("valid+test", ("valid", "test"),
                                "train"), ("valid+test", ("valid", "test"), "none: the vocabulary alone")):
        if name not in measured:
            continue
        asked = [r for split in splits for r in data.split(split) if r.id.startswith("HQ")]
        wanted = labelled = 0
        found = Counter[int]()
        took: list[float] = []
        near: list[float] = []
        for r in asked:
            gold = gold_predicates(r.sparql)
            index = alone if pairs.startswith("none") else whole if name != "train" else property_index(
                vocabulary, encoder, settings.vocabulary_dir, [e for e in train if e.id != r.id])
            start = time.perf_counter()
            similar = [] if index is alone else \
                [s for s in store.search(r.question, SIMILAR + 1) if s.example.id != r.id][:SIMILAR]
            near.append(time.perf_counter() - start)
            start = time.perf_counter()
            ranked = [t.name for t, _ in search_properties(r.question, max(ks), index, similar=similar)]
            took.append(time.perf_counter() - start)
            wanted += len(gold)
            labelled += len(gold & set(vocabulary.predicates))
            found.update({k: len(gold & set(ranked[:k])) for k in ks})
        print(json.dumps({"split": name, "questions": len(asked), "gold_predicates": wanted,
                          "with_a_label": labelled, **{f"recall@{k}": round(found[k] / max(wanted, 1), 3) for k in ks},
                          "search_ms_p50": round(1000 * statistics.median(took), 1),
                          "similar_pairs_ms_p50": round(1000 * statistics.median(near), 1), "pairs": pairs}))
    print(json.dumps({"vocabulary": len(vocabulary), "predicates": len(vocabulary.predicates),
                      "index_s": round(indexed, 2), "property_index_s": round(built, 2)}))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", default="handcrafted")
    parser.add_argument("--first", type=int)
    parser.add_argument("--model", default="qwen2.5-coder-0.5b")
    parser.add_argument("--variants", nargs="+", default=["base", "all"], choices=list(VARIANTS))
    parser.add_argument("--shots", type=int, default=3)
    parser.add_argument("--workers", type=int, default=1, help="questions at once (set KGQA_LOCAL_SLOTS to match)")
    parser.add_argument("--json")
    parser.add_argument("--rows", help="a JSON-lines file each answered question is appended to as it comes")
    parser.add_argument("--retrieval", type=int, metavar="BUDGET", help="schema recall at BUDGET tokens, no model")
    parser.add_argument("--recall", action="store_true", help="property-search recall@5/10/20 of the handcrafted "
                        "gold predicates over KGQA_ORKG_VOCABULARY, no model")
    parser.add_argument("--splits", nargs="+", default=["train", "valid+test"], choices=["train", "valid+test"],
                        help="with --recall: the questions measured (tune on train alone)")
    parser.add_argument("--summarise", help="print the summary of a --rows file (of a run cut short) and stop")
    parser.add_argument("--forms", nargs="+", metavar="ROWS", help="replay the guard's plain forms over --rows files")
    args = parser.parse_args(argv)
    if args.summarise:
        return summarise(args.summarise)
    if args.forms:
        return forms(args.forms)
    settings = Settings.from_env(generator="local", local_model=args.model, llm_fallback="none", kg="sciqa",
                                 shots=args.shots)
    if args.recall:
        return recall(settings, tuple(args.splits))
    if args.retrieval is not None:
        return retrieval(settings, args.retrieval)
    asked = questions(settings, args.questions, args.first)
    results = run(settings, args.variants, asked, args.workers, args.rows)
    for r in results:
        print(json.dumps({"variant": r["variant"], **r["summary"]}))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
