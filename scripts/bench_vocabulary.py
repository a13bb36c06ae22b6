"""A vocabulary N times the ORKG's (issue 53): index time, memory and size, property search's label vectors, question
p50/p95 with no vocabulary, the real one and the N-fold one (the adapter, warm, asked in turn), and the grammar's size.

The N-fold one copies each predicate, class and shape of the real one N-1 times under unused numbers (P/C 10,000,000
and up; "Accuracy" -> "Accuracy (copy 7)") into ``--out``, beside one KGQA_HOME per vocabulary copied from ``--home``.
Usage: kgqa bench vocabulary [--scale 100] [--n 100] [--rounds 2] [--kg sciqa] [--out DIR] [--encode sample]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pipeline.eval.report import percentile

ROOT = Path(__file__).resolve().parents[1]
PROBE, PROBE_GRAPH = (ROOT / "tests" / "data" / "eval" / name for name in ("comparisons-probe.json", "comparisons.nt"))
BASE, STRIDE = 10_000_000, 100_000  # copy i of the j-th name: P/C BASE + i * STRIDE + j (the ORKG's end near 44,000)
_ORKG = re.compile(r"<http://orkg\.org/orkg/(predicate|class|shapes)/([^>\s]+)>")
_LABEL = "<http://www.w3.org/2000/01/rdf-schema#label>"
_TERM = re.compile(r"^<http://orkg\.org/orkg/(?:predicate|class)/[^>]+> ")


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)  # progress, apart from the tables on stdout


def seconds(work: Callable[..., object], *args: object) -> float:
    """How long ``work(*args)`` took."""
    start = time.perf_counter()
    work(*args)
    return time.perf_counter() - start


def synthesize(source: Path, scale: int, out: Path) -> Path:
    """The N-Triples file ``source`` (or a folder's) written ``scale`` times into ``out`` (once: a marker says so)."""
    marker = out / ".done"
    if marker.is_file():
        return out
    out.mkdir(parents=True, exist_ok=True)
    files = [source] if source.is_file() else sorted(source.glob("*.nt"))
    texts = [f.read_text(encoding="utf-8").splitlines() for f in files]
    names = sorted({m.groups() for lines in texts for line in lines for m in _ORKG.finditer(line)
                    if m.group(1) != "shapes"})
    number = {name: j for j, name in enumerate(names)}
    assert len(number) < STRIDE
    for file, lines in zip(files, texts):
        with (out / file.name).open("w", encoding="utf-8") as written:
            for i in range(scale):
                written.writelines(_copied(line, i, number) + "\n" for line in lines if line.strip())
                if i % 10 == 9:
                    say(f"  {file.name}: {i + 1}/{scale} copies")
    marker.write_text(json.dumps({"scale": scale, "files": [str(f) for f in files]}), encoding="utf-8")
    return out


def _copied(line: str, i: int, number: dict[tuple[str, str], int]) -> str:
    """Copy ``i`` of one triple (copy 0: the line itself): fresh names, fresh shape nodes, labels told apart."""
    if i == 0:
        return line

    def renamed(m: re.Match[str]) -> str:
        kind, local = m.groups()
        if kind == "shapes":
            return f"<http://orkg.org/orkg/shapes/copy{i}_{local}>"
        letter = "P" if kind == "predicate" else "C"
        return f"<http://orkg.org/orkg/{kind}/{letter}{BASE + i * STRIDE + number[(kind, local)]}>"

    text = _ORKG.sub(renamed, line)
    if f" {_LABEL} " in text and _TERM.match(line):  # a predicate's or class's label: 'X' -> 'X (copy i)'
        end = text.rindex('"')
        text = f"{text[:end]} (copy {i}){text[end:]}"
    return text


def child(script: str, env: dict[str, str], *args: str) -> dict[str, Any]:
    """``script`` run with ``args`` in a Python of its own (its peak RSS its own), printing one JSON object last."""
    done = subprocess.run([sys.executable, "-c", script, *args], env=env, capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"a measuring child failed:\n{done.stderr[-3000:]}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


_INDEX = """
import json, resource, sys, time, tracemalloc
from pathlib import Path
from pipeline.schema.vocabulary import indexed_vocabulary, read_vocabulary
paths, folder, traced, start = [Path(sys.argv[1])], Path(sys.argv[2]), sys.argv[3] == "1", time.perf_counter()
if traced:
    tracemalloc.start()
vocabulary = read_vocabulary(paths) if traced else indexed_vocabulary(paths, folder)[0]
held, peak = tracemalloc.get_traced_memory()
print(json.dumps({"s": time.perf_counter() - start, "held_mib": held / 2**20, "peak_mib": peak / 2**20,
                  "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "predicates":
                  len(vocabulary.predicates), "classes": len(vocabulary.classes), "shapes": len(vocabulary.shapes)}))
"""


def index_figures(folder: Path, home: Path) -> dict[str, Any]:
    """Indexed from the files (the index removed first), read again from the index, and the memory it holds."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), KGQA_HOME=str(home))
    index, args = home / "vocabulary" / "index.json", (str(folder), str(home / "vocabulary"))
    index.unlink(missing_ok=True)
    built, again, traced = (child(_INDEX, env, *args, flag) for flag in ("0", "0", "1"))
    disk = sum(f.stat().st_size for f in folder.iterdir() if f.suffix == ".nt")
    return {**{k: built[k] for k in ("predicates", "classes", "shapes")}, "files_mb": disk / 1e6,
            "index_s": built["s"], "index_rss_mib": built["rss_mib"], "again_s": again["s"],
            "again_rss_mib": again["rss_mib"], "held_mib": traced["held_mib"], "peak_mib": traced["peak_mib"],
            "index_mb": index.stat().st_size / 1e6}


class Counted:
    """An encoder that encodes in batches and says how far it is (the label vectors take minutes)."""

    def __init__(self, inner: Any, batch: int = 4096) -> None:
        self.inner, self.name, self.batch = inner, inner.name, batch

    def encode(self, texts: Sequence[str]) -> list[list[float]]:
        out: list[list[float]] = []
        start = time.perf_counter()
        for i in range(0, len(texts), self.batch):
            out += list(self.inner.encode(list(texts[i:i + self.batch])))
            if len(texts) > self.batch:
                say(f"  {min(len(texts), i + self.batch):,}/{len(texts):,}, {time.perf_counter() - start:.0f} s")
        return out


def encoding_figures(settings: Any, sample: int | None, questions: Sequence[str]) -> dict[str, Any]:
    """The label vectors of property search (all, kept in the home, or the first ``sample`` labels, extrapolated);
    with all of them, the property index built with the stored pairs and a search's p50."""
    from pipeline.factory import build_encoder, build_store
    from pipeline.schema.properties import embedded, property_index, said, search_properties
    from pipeline.schema.vocabulary import vocabulary_for

    vocabulary = vocabulary_for(settings)
    assert vocabulary is not None
    labels = [said(t.label) for _, t in sorted(vocabulary.predicates.items()) if t.label.strip()]
    encoder, kept = Counted(build_encoder(settings)), set(settings.vocabulary_dir.glob("embeddings-*.npy"))
    folder = None if sample else settings.vocabulary_dir
    took = seconds(embedded, labels[:sample] if sample else labels, encoder, folder)
    if sample:
        return {"labels": len(labels), "encoded": sample, "encode_s": took * len(labels) / sample}
    new = set(settings.vocabulary_dir.glob("embeddings-*.npy")) - kept
    start = time.perf_counter()
    index = property_index(vocabulary, encoder, settings.vocabulary_dir, build_store(settings).examples())
    built = time.perf_counter() - start
    searched = [1000 * seconds(search_properties, q, 10, index) for q in questions]
    return {"labels": len(labels), "encoded": len(labels) if new else 0, "encode_s": took,
            "vectors_mb": sum(f.stat().st_size for f in new) / 1e6, "property_index_s": built,
            "search_p50_ms": percentile(searched, 50)}


def rss_mib() -> float:
    """This process's resident memory now."""
    with open("/proc/self/status", encoding="utf-8") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024


def pipelines(settings: Any, kg: str) -> dict[str, Any]:
    """One warm pipeline per graph (``kg`` for SciQA's questions, the probe's graph for its), and what readying
    them took: the warm-up's steps, then one question of each kind."""
    from pipeline.factory import build_index, build_pipeline, build_store, warm_up

    store = build_store(settings)
    build_index(settings, store)
    before, start = rss_mib(), time.perf_counter()
    built = {name: build_pipeline(settings, kg=graph, store=store)
             for name, graph in (("sciqa", kg), ("probe", str(PROBE_GRAPH)))}
    warmed = [warm_up(pipe) for pipe in built.values()]
    ready = time.perf_counter() - start
    # a question about comparisons: what the warm-up did not read ahead, the first such question waits for
    first = {n: seconds(p.ask, "which materials are compared in the solar cell comparison?") for n, p in built.items()}
    return {"pipes": built, "ready_s": ready, "warmed_s": warmed, "first_s": first, "rss_added_mib": rss_mib() - before}


def timed(conditions: dict[str, dict[str, Any]], asked: list[tuple[str, str]], rounds: int) -> dict[str, list[float]]:
    """Each question asked of every condition's pipeline in turn (the order rotating, so that load and the caches
    the conditions share fall alike on each), ``rounds`` times; ms per ask."""
    totals: dict[str, list[float]] = {c: [] for c in conditions}
    names = list(conditions)
    for r in range(rounds):
        for n, (graph, question) in enumerate(asked):
            turn = (n + r) % len(names)
            for c in names[turn:] + names[:turn]:
                totals[c].append(1000 * seconds(conditions[c]["pipes"][graph].ask, question))
            if n % 25 == 24:
                say(f"  round {r + 1}/{rounds}: {n + 1}/{len(asked)} questions")
    return totals


def grammar_figures(settings: Any, pipe: Any, questions: Sequence[str]) -> dict[str, Any]:
    """The grammar a model would be held to (KGQA_LLM_GRAMMAR) per question on ``pipe``'s graph: its size in
    characters, rules and names, and what building the schema once and each question's grounding took."""
    from pipeline.factory import grounding_for
    from pipeline.schema.grammar import gbnf

    grounding = grounding_for(settings.with_(llm_grammar=True), pipe.lexicon, pipe.store)
    start = time.perf_counter()
    if grounding.schema() is None:
        return {}  # a graph that cannot list its names (the snapshot): no grammar
    schema_s, sizes, took = time.perf_counter() - start, set(), []
    for q in questions:
        start = time.perf_counter()
        names = grounding.context(q).names or ()
        took.append(1000 * (time.perf_counter() - start))
        text = gbnf(names)
        sizes.add((len(text), len(text.splitlines()), len(names)))
    chars, rules, count = max(sizes)
    return {"schema_s": schema_s, "context_p50_ms": percentile(took, 50), "chars": chars, "rules": rules,
            "names": count, "same_for_every_question": len(sizes) == 1}


def home_for(base: Path, out: Path, name: str) -> Path:
    """A KGQA_HOME of its own per vocabulary (an index is kept per home), copied once from ``base``."""
    home = out / f"home-{name}"
    if not home.is_dir():
        shutil.copytree(base, home, ignore=shutil.ignore_patterns("vocabulary", "logs"))
    return home


def table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    """A markdown table on stdout."""
    for cells in (header, ["---"] * len(header), *rows):
        print("| " + " | ".join(str(c) for c in cells) + " |")
    print()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=100, help="how many times the ORKG's vocabulary (default 100)")
    ap.add_argument("--n", type=int, default=100, help="SciQA test questions timed (the 30 probe questions too)")
    ap.add_argument("--rounds", type=int, default=2, help="times each question is asked of each vocabulary")
    ap.add_argument("--kg", default="sciqa", help="the graph SciQA's questions are asked of (sciqa, snapshot)")
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "kgqa-bench-vocabulary",
                    help="where the synthetic vocabulary, the homes and the figures (figures.json) are kept")
    ap.add_argument("--home", type=Path, default=None, help="a ready KGQA_HOME to copy (default: KGQA_HOME)")
    ap.add_argument("--encode", choices=("none", "sample", "all"), default="sample", help="the N-fold label "
                    "vectors: all (kept in its home), the first 20,000 timed and extrapolated, or none")
    args = ap.parse_args()
    from pipeline.sciqa import sciqa_for
    from pipeline.settings import Settings

    base = Settings.from_env(generator="adapter")
    real = (base.orkg_vocabulary_paths or (ROOT.parent / "shared" / "orkg-vocabulary",))[0]  # the first path
    if ROOT in args.out.resolve().parents:
        raise SystemExit("--out must be outside the repository")
    say(f"writing the vocabulary x{args.scale} into {args.out} …")
    big = f"x{args.scale}"
    vocabularies = {"none": None, "x1": real, big: synthesize(real, args.scale, args.out / big)}
    homes = {c: home_for(args.home or base.home, args.out, c) for c in vocabularies}
    settings = {c: base.with_(home=homes[c], orkg_vocabulary=str(p) if p else "") for c, p in vocabularies.items()}
    figures: dict[str, Any] = {"load_before": os.getloadavg(), "kg": args.kg}
    for c in ("x1", big):
        say(f"indexing {c} (from the files, again from the index, traced) …")
        figures[f"index_{c}"] = index_figures(Path(str(vocabularies[c])), homes[c])
    asked = [("sciqa", r.question) for r in sciqa_for(base).split("test")[:args.n]]
    asked += [("probe", q["question"]) for q in json.loads(PROBE.read_text(encoding="utf-8"))["questions"]]
    conditions = {}
    for c in vocabularies:
        say(f"building and warming the pipelines with vocabulary {c} …")
        conditions[c] = pipelines(settings[c], args.kg)
        figures[f"ready_{c}"] = {k: v for k, v in conditions[c].items() if k != "pipes"}
    say(f"timing {len(asked)} questions x {args.rounds} rounds x {len(conditions)} vocabularies …")
    figures["load_timing_start"] = os.getloadavg()
    totals = timed(conditions, asked, args.rounds)
    figures["load_after"] = os.getloadavg()
    figures["questions"] = {c: {"p50_ms": percentile(t, 50), "p95_ms": percentile(t, 95), "ms": t}
                            for c, t in totals.items()}
    for c in vocabularies:
        say(f"the grammar with vocabulary {c} …")
        figures[f"grammar_{c}"] = grammar_figures(settings[c], conditions[c]["pipes"]["sciqa"],
                                                  [q for g, q in asked if g == "sciqa"])
    for c in ("x1", big) if args.encode != "none" else ():
        say(f"label vectors of {c} ({args.encode}) …")
        sample = 20_000 if args.encode == "sample" and c != "x1" else None
        figures[f"encode_{c}"] = encoding_figures(settings[c], sample, [q for _, q in asked])
    (args.out / "figures.json").write_text(json.dumps(figures, indent=1), encoding="utf-8")
    report(figures, list(vocabularies), len(asked), args.rounds)
    return 0


def report(f: dict[str, Any], conditions: list[str], asked: int, rounds: int) -> None:
    """The figures as markdown tables (docs/results/vocabulary.md)."""
    rows = []
    for c in conditions[1:]:
        i, e = f[f"index_{c}"], f.get(f"encode_{c}") or {}
        how = "" if e.get("encoded") == e.get("labels") else " (read, kept before)" if not e.get("encoded") else \
            f" (extrapolated from {e['encoded']:,})"
        rows.append([c, f"{i['predicates']:,} / {i['classes']:,} / {i['shapes']:,}", f"{i['files_mb']:.0f} MB",
                     f"{i['index_s']:.1f} s ({i['index_rss_mib']:.0f} MiB)", f"{i['again_s']:.2f} s "
                     f"({i['again_rss_mib']:.0f} MiB)", f"{i['held_mib']:.1f} MiB ({i['peak_mib']:.1f} MiB)",
                     f"{i['index_mb']:.1f} MB", f"{e['encode_s']:.0f} s for {e['labels']:,}{how}" if e else "–",
                     f"{e['vectors_mb']:.0f} MB; {e['property_index_s']:.1f} s, {e['search_p50_ms']:.0f} ms"
                     if "property_index_s" in e else "–"])
    table(["vocabulary", "predicates / classes / shapes", "N-Triples", "indexed (max RSS)", "read again from the "
           "index (max RSS)", "held (peak while reading)", "index.json", "label vectors encoded", "vectors on disk; "
           "property index, search p50"], rows)
    none = f["questions"]["none"]
    table([f"vocabulary ({asked} questions x {rounds} rounds, {f['kg']})", "p50 ms", "p95 ms", "p50 / none",
           "p95 / none", "first question s (SciQA's graph / the probe's)", "built and warmed s (comparisons read "
           "ahead)", "RSS added MiB"],
          [[c, f"{q['p50_ms']:.1f}", f"{q['p95_ms']:.1f}", f"{q['p50_ms'] / none['p50_ms']:.2f}",
            f"{q['p95_ms'] / none['p95_ms']:.2f}", " / ".join(f"{s:.2f}" for s in r["first_s"].values()),
            f"{r['ready_s']:.1f} ({sum(w.get('comparisons', 0) for w in r['warmed_s']):.1f})",
            f"{r['rss_added_mib']:.0f}"] for c in conditions for q, r in [(f["questions"][c], f[f"ready_{c}"])]])
    rows = [[c, f"{g['chars']:,}", g["rules"], f"{g['names']:,}", g["same_for_every_question"], f"{g['schema_s']:.2f}",
             f"{g['context_p50_ms']:.1f}"] for c in conditions for g in [f[f"grammar_{c}"]] if g]
    if rows:  # none where the graph cannot list its names (the snapshot): a model is then given no grammar
        table(["vocabulary", "grammar characters", "rules", "names", "the same for every question",
               "schema built once s", "grounding per question p50 ms"], rows)
    print(f"load average (1 min): before {f['load_before'][0]:.1f}, timing start {f['load_timing_start'][0]:.1f}, "
          f"after {f['load_after'][0]:.1f}")


if __name__ == "__main__":
    sys.exit(main())
