"""Asking back which thing a name means (``pipeline.intent.which``): a name several labels begin, or some words of
several fields' and problems' labels, a choice per label, each the question with the name written whole."""
from __future__ import annotations

from typing import Any

from pipeline.intent.which import which_name
from pipeline.names.index import LabelIndex


def test_some_words_of_a_field_and_of_a_problem_are_asked_back_a_choice_for_each() -> None:
    index = LabelIndex([("Volcanic Ash Dispersion Modelling", "researchfield"),
                        ("Volcanic ash plume height estimation", "problem"),
                        ("Historical Textile Weave Analysis", "researchfield")], threshold=85.0)
    asked: list[str] = []

    def composes(question: str) -> Any:  # what the composer makes of a choice: something, each time
        asked.append(question)
        return object()

    back = which_name("which volcanic ash papers have no code", frozenset(), index, composes)
    assert back is not None and back[0] == "volcanic ash"
    assert sorted(c.label for c in back[1]) == ["Volcanic Ash Dispersion Modelling",
                                                "Volcanic ash plume height estimation"]
    assert "which Volcanic Ash Dispersion Modelling papers have no code" in [c.question for c in back[1]] and asked
    # one label holds them: no question back (the name is read as that label); none can be answered: none either
    assert which_name("which textile weave papers have no code", frozenset(), index, composes) is None
    assert which_name("which volcanic ash papers have no code", frozenset(), index, lambda q: None) is None
