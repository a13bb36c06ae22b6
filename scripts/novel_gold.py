"""Expected answers of the novel-intent set: run each hand-written query of tests/data/eval/novel-intents.txt (and of
the dev list novel-intents-dev.txt) on the fixture graph and write the .json beside it (the `kgqa eval --questions`
format). ``--check`` only compares.

    python scripts/novel_gold.py [--check]
"""
from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from pipeline.eval.questions import write_set
from pipeline.intent.pairs import blocks
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.parts import KnowledgeGraph
from standins.orkg_fixture import write_ntriples

ROOT = Path(__file__).resolve().parent.parent

SETS = {"held-out": "novel-intents", "dev": "novel-intents-dev"}
EVAL = ROOT / "tests" / "data" / "eval"
PREFIXES = """PREFIX orkgp: <http://orkg.org/orkg/predicate/>
PREFIX orkgc: <http://orkg.org/orkg/class/>
PREFIX orkgr: <http://orkg.org/orkg/resource/>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
"""


def build(source: Path) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        kg = OxigraphKG(write_ntriples(Path(tmp) / "fixture.nt"), row_cap=1000)
        return answered(source, kg, "the fixture graph", "standins/orkg_fixture.py")


def answered(source: Path, kg: KnowledgeGraph, about: str, graph: str) -> dict[str, object]:
    """Each block of ``source`` with the answer its hand-written query gets on ``kg`` (as a sorted set)."""
    questions = []
    for item in blocks(source.read_text(encoding="utf-8")):
        gold = item.pop("sparql")
        questions.append({**item, "gold_sparql": gold, "answer": sorted(kg.select(PREFIXES + gold).flat())})
    return {"about": f"Novel-intent questions over {about} (issue 18); answers from gold_sparql, generated "
                     f"by scripts/novel_gold.py from tests/data/eval/{source.name}.", "graph": graph,
            "questions": questions}


def build_sciqa(source: Path) -> dict[str, object]:
    """The same over the graph rebuilt from SciQA (SCIQA_DIR, KGQA_HOME as for `--kg sciqa`)."""
    from pipeline.factory import build_kg
    from pipeline.settings import Settings

    return answered(source, build_kg(Settings.from_env(), "sciqa"), "the graph rebuilt from SciQA", "--kg sciqa")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="compare with the committed JSON instead of writing")
    parser.add_argument("--sciqa", action="store_true", help="the set over the graph rebuilt from SciQA instead")
    args = parser.parse_args()
    stale = 0
    for name in (["novel-intents-sciqa"] if args.sciqa else SETS.values()):
        data = (build_sciqa if args.sciqa else build)(EVAL / f"{name}.txt")
        stale += write_set(EVAL / f"{name}.json", data, args.check,  # type: ignore[arg-type]
                           "differs from its queries' answers: rerun the script")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
