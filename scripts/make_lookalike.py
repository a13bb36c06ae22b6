"""Write the look-alike graph (tests/data/eval/lookalike.nt) and its loose-name question set
(tests/data/eval/loose-lookalike.json): an ORKG-shaped graph whose labels come in near pairs (SQuAD1.1/SQuAD2.0,
ImageNet/ImageNet ReaL/ImageNet V2, CIFAR-10/CIFAR-100, BERT-Large/BERT-Base, BLEU/BLEU score, ...), and questions in
SciQA's template wordings that type those names loosely. Each gold answer is what the graph returns for the question
with the name typed exactly (SciQA's train query of that template with the graph's label filled in, run on the graph).

Usage: python scripts/make_lookalike.py          (needs SCIQA_DIR; values and titles are invented)
"""
from __future__ import annotations

import json
from pathlib import Path

from pipeline.kg.oxigraph import OxigraphKG
from pipeline.sciqa import SciQA
from pipeline.settings import Settings
from pipeline.sparql.shape import read, replace_literals
from pipeline.sparql.text import add_prefixes

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "eval"
R, P, C = "http://orkg.org/orkg/resource/", "http://orkg.org/orkg/predicate/", "http://orkg.org/orkg/class/"
TYPE, LABEL = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type", "http://www.w3.org/2000/01/rdf-schema#label"
# (model, dataset, metric, value, code link or "")
RESULTS = [
    ("BERT-Large", "SQuAD1.1", "F1", "90.9", "https://github.com/example/bert"),
    ("BERT-Base", "SQuAD1.1", "F1", "88.5", ""), ("BERT-Large", "SQuAD1.1", "EM", "84.1", ""),
    ("RoBERTa-Large", "SQuAD2.0", "F1", "89.4", "https://github.com/example/roberta"),
    ("BERT-Large", "SQuAD2.0", "F1", "83.1", ""), ("RoBERTa-Large", "SQuAD2.0", "EM", "86.5", ""),
    ("ViT-L/16", "ImageNet", "Top-1 Accuracy", "87.76", "https://github.com/example/vit"),
    ("ViT-B/16", "ImageNet", "Top-1 Accuracy", "84.15", ""),
    ("ViT-L/16", "ImageNet ReaL", "Top-1 Accuracy", "90.54", ""),
    ("BiT-L", "ImageNet ReaL", "Top-1 Accuracy", "90.45", "https://github.com/example/bit"),
    ("BiT-L", "ImageNet V2", "Top-1 Accuracy", "80.73", ""), ("ViT-B/16", "ImageNet V2", "Top 5 Accuracy", "93.4", ""),
    ("ResNet-18", "CIFAR-10", "Percentage correct", "95.3", "https://github.com/example/resnet"),
    ("ResNet-18", "CIFAR-100", "Percentage correct", "77.8", ""),
    ("WRN-28-10", "CIFAR-100", "Percentage correct", "81.2", ""),
    ("Transformer Big", "WMT2014 English-German", "BLEU", "28.4", "https://github.com/example/transformer"),
    ("Transformer Big", "WMT2016 English-German", "BLEU score", "34.1", ""),
    ("GPT-2 (1.5B)", "Story Cloze Test", "Accuracy", "82.3", "https://github.com/example/gpt2"),
    ("Go-Explore", "Atari 2600 Montezuma's Revenge", "Score", "43791", "https://github.com/example/go-explore"),
    ("Go-Explore", "Atari 2600 Pitfall!", "Score", "6954", ""),
]
TEMPLATES = {"T01": "AQ0169", "T03": "AQ0891", "T04": "AQ1222", "T05": "AQ1751", "T07": "AQ2344"}
WORDING = {"T01": "Can you list the models that have been evaluated on the {d} dataset?",
           "T03": "List the metrics that are used to evaluate models on the {d} benchmark dataset?",
           "T04": "What is the top benchmark score and its metric on the {d} dataset?",
           "T05": "Which model has achieved the highest {m} score on the {d} benchmark dataset?",
           "T07": "List the code links in papers that use the {model} model in any benchmark?"}
# (template, typed names, graph labels): the loose names people type, and what the graph calls them
QUESTIONS = [
    ("T01", {"d": "squad 1.1"}, {"d": "SQuAD1.1"}), ("T01", {"d": "SQuAD 2.0"}, {"d": "SQuAD2.0"}),
    ("T01", {"d": "squad2.0"}, {"d": "SQuAD2.0"}), ("T01", {"d": "imagenet"}, {"d": "ImageNet"}),
    ("T01", {"d": "imagenet real"}, {"d": "ImageNet ReaL"}), ("T01", {"d": "ImageNet-ReaL"}, {"d": "ImageNet ReaL"}),
    ("T01", {"d": "Imagenet V 2"}, {"d": "ImageNet V2"}), ("T01", {"d": "cifar 10"}, {"d": "CIFAR-10"}),
    ("T01", {"d": "CIFAR100"}, {"d": "CIFAR-100"}), ("T01", {"d": "story cloze-test"}, {"d": "Story Cloze Test"}),
    ("T03", {"d": "Stroy Cloze Test"}, {"d": "Story Cloze Test"}), ("T03", {"d": "SQAuD1.1"}, {"d": "SQuAD1.1"}),
    ("T03", {"d": "imagenet v2"}, {"d": "ImageNet V2"}), ("T03", {"d": "cifar-100"}, {"d": "CIFAR-100"}),
    ("T03", {"d": "wmt2014 english-german"}, {"d": "WMT2014 English-German"}),
    ("T03", {"d": "WMT 2016 English German"}, {"d": "WMT2016 English-German"}),
    ("T04", {"d": "Atari 2600 Montezumas Revenge"}, {"d": "Atari 2600 Montezuma's Revenge"}),
    ("T04", {"d": "atari 2600 pitfall!"}, {"d": "Atari 2600 Pitfall!"}), ("T04", {"d": "Image Net"}, {"d": "ImageNet"}),
    ("T04", {"d": "squad 2.0"}, {"d": "SQuAD2.0"}),
    ("T05", {"m": "f1", "d": "squad 1.1"}, {"m": "F1", "d": "SQuAD1.1"}),
    ("T05", {"m": "F1", "d": "SQuAD 2.0"}, {"m": "F1", "d": "SQuAD2.0"}),
    ("T05", {"m": "top-1 accuracy", "d": "imagenet"}, {"m": "Top-1 Accuracy", "d": "ImageNet"}),
    ("T05", {"m": "Top-1 Accuracy", "d": "Imagenet ReaL"}, {"m": "Top-1 Accuracy", "d": "ImageNet ReaL"}),
    ("T05", {"m": "percentage correct", "d": "CIFAR 100"}, {"m": "Percentage correct", "d": "CIFAR-100"}),
    ("T05", {"m": "BLEU", "d": "WMT2014 English German"}, {"m": "BLEU", "d": "WMT2014 English-German"}),
    ("T05", {"m": "Bleu score", "d": "WMT2016 English-German"}, {"m": "BLEU score", "d": "WMT2016 English-German"}),
    ("T07", {"model": "bert large"}, {"model": "BERT-Large"}),
    ("T07", {"model": "Roberta Large"}, {"model": "RoBERTa-Large"}),
    ("T07", {"model": "vit-l/16"}, {"model": "ViT-L/16"}), ("T07", {"model": "Go Explore"}, {"model": "Go-Explore"}),
    ("T07", {"model": "gpt-2 (1.5b)"}, {"model": "GPT-2 (1.5B)"}), ("T07", {"model": "Bit-L"}, {"model": "BiT-L"}),
    ("T07", {"model": "Resnet 18"}, {"model": "ResNet-18"}),
    ("T07", {"model": "Transformer-Big"}, {"model": "Transformer Big"}),
]


def triples() -> list[tuple[str, str, str]]:
    ids: dict[tuple[str, str], str] = {}

    def node(kind: str, label: str) -> str:
        if (kind, label) not in ids:
            ids[(kind, label)] = f"{R}R{5000 + len(ids)}"
        return ids[(kind, label)]

    out: list[tuple[str, str, str]] = []
    for n, (model, dataset, metric, value, code) in enumerate(RESULTS):
        paper, cont, bench, ev = (f"{R}R{9000 + 4 * n + k}" for k in range(4))
        out += [(paper, TYPE, C + "Paper"), (paper, LABEL, f'"Invented paper {n + 1} on {dataset}"'),
                (paper, P + "P31", cont), (cont, TYPE, C + "Contribution"),
                (cont, P + "HAS_MODEL", node("Model", model)),
                (cont, P + "HAS_BENCHMARK", bench), (bench, P + "HAS_DATASET", node("Dataset", dataset)),
                (bench, P + "HAS_EVALUATION", ev), (ev, P + "HAS_METRIC", node("Metric", metric)),
                (ev, P + "HAS_VALUE", json.dumps(value))]
        if code:
            out.append((cont, P + "HAS_SOURCE_CODE", json.dumps(code)))
    for (kind, label), iri in ids.items():
        out += [(iri, TYPE, C + kind), (iri, LABEL, json.dumps(label, ensure_ascii=False))]
    return out


def main() -> int:
    nt = "".join(f"<{s}> <{p}> {o if o.startswith(chr(34)) else '<' + o + '>'} .\n" for s, p, o in triples())
    (OUT / "lookalike.nt").write_text(nt, encoding="utf-8")
    kg = OxigraphKG(OUT / "lookalike.nt", row_cap=1000)
    sciqa = SciQA.from_settings(Settings.from_env())
    items = []
    for n, (template, typed, labels) in enumerate(QUESTIONS, 1):
        record = sciqa.by_id[TEMPLATES[template]]
        literals = [f.literal for f in read(record.sparql).filters]
        keys = ["m", "d"] if template == "T05" else list(labels)
        gold = add_prefixes(replace_literals(record.sparql, dict(zip(literals, [labels[k] for k in keys]))))
        answer = kg.select(gold).flat()
        assert answer, (template, labels)
        items.append({"id": f"LA{n:02d}", "question": WORDING[template].format(**typed), "answer": answer,
                      "template_id": template, "typed": typed, "graph_label": labels})
    about = ("Loose names over an invented ORKG-shaped graph with look-alike labels (tests/data/eval/lookalike.nt), "
             "written by scripts/make_lookalike.py (issue 12): run with --kg tests/data/eval/lookalike.nt.")
    (OUT / "loose-lookalike.json").write_text(json.dumps({"about": about, "questions": items}, ensure_ascii=False,
                                                         indent=1) + "\n", encoding="utf-8")
    print(f"{len(nt.splitlines())} triples, {len(items)} questions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
