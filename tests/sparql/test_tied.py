"""Rankings that keep ties (``pipeline.sparql.tied``): read as the best-of rankings they are, and they keep every
row tied at the top where ``LIMIT 1`` keeps one."""
from __future__ import annotations

from pathlib import Path

from pipeline.intent.pairs import intent_pairs
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.sparql.explain import explain
from pipeline.sparql.tied import tied, untied

ORKG = "http://orkg.org/orkg/"
PREFIXES = ("PREFIX orkgp: <http://orkg.org/orkg/predicate/>\nPREFIX orkgc: <http://orkg.org/orkg/class/>\n"
            "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\nPREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n")


def _pair(pid: str) -> str:
    return next(p.sparql for p in intent_pairs() if p.id == pid)


def _board(tmp_path: Path, scores: dict[str, str]) -> OxigraphKG:
    """A dataset 'Coastal Maps v1.2' with models scored on 'BLEU-4'."""
    t = [f'<{ORKG}resource/D> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <{ORKG}class/Dataset> .',
         f'<{ORKG}resource/D> <http://www.w3.org/2000/01/rdf-schema#label> "Coastal Maps v1.2" .',
         f'<{ORKG}resource/M> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <{ORKG}class/Metric> .',
         f'<{ORKG}resource/M> <http://www.w3.org/2000/01/rdf-schema#label> "BLEU-4" .']
    for i, (model, value) in enumerate(scores.items()):
        c, b, e, m = (f"<{ORKG}resource/{x}{i}>" for x in "CBEX")
        t += [f"{c} <{ORKG}predicate/HAS_MODEL> {m} .", f'{m} <http://www.w3.org/2000/01/rdf-schema#label> "{model}" .',
              f"{c} <{ORKG}predicate/HAS_BENCHMARK> {b} .", f"{b} <{ORKG}predicate/HAS_DATASET> <{ORKG}resource/D> .",
              f"{b} <{ORKG}predicate/HAS_EVALUATION> {e} .", f"{e} <{ORKG}predicate/HAS_METRIC> <{ORKG}resource/M> .",
              f'{e} <{ORKG}predicate/HAS_VALUE> "{value}" .']
    path = tmp_path / "board.nt"
    path.write_text("\n".join(t) + "\n", encoding="utf-8")
    return OxigraphKG(path, row_cap=1000)


def _models(kg: OxigraphKG, sparql: str) -> set[str]:
    return {row["model_lbl"]["value"] for row in kg.select(PREFIXES + sparql).rows}


def test_every_model_tied_at_the_top_or_the_bottom_is_kept(tmp_path: Path) -> None:
    kg = _board(tmp_path, {"A": "41.0", "B": "41.0", "C": "39.5", "D": "39.5", "E": "n/a"})
    assert _models(kg, _pair("IP-highest-model")) == {"A", "B"}
    assert _models(kg, _pair("IP-highest-model-value")) == {"A", "B"}
    assert _models(kg, untied(_pair("IP-highest-model"))) in ({"A"}, {"B"})  # what LIMIT 1 keeps: one of them
    lowest = _pair("IP-lowest-model").replace("Harbor Speech Corpus (English)", "Coastal Maps v1.2") \
        .replace("Word Error Rate", "BLEU-4")
    assert _models(kg, lowest) == {"C", "D"}
    assert _models(_board(tmp_path, {"A": "41.0", "B": "40"}), _pair("IP-highest-model")) == {"A"}


def test_a_tie_keeping_ranking_reads_as_the_best_of_ranking_it_is() -> None:
    query = _pair("IP-highest-model")
    assert tied(query) == "MAX" and tied(_pair("IP-lowest-model")) == "MIN"
    assert tied(untied(query)) == "" and untied(query).endswith("ORDER BY DESC(?score) LIMIT 1")
    assert "?tied" not in untied(query)
    assert explain(query) == ("It asks for models evaluated on dataset 'Coastal Maps v1.2', ordered by their 'BLEU-4' "
                              "score, the best one and any tied with it.")
    plain = _pair("IP-top-models")
    assert tied(plain) == "" and untied(plain) == plain
