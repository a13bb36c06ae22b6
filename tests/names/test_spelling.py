"""How one name is typed otherwise (``pipeline.names.spelling``)."""
from __future__ import annotations

from pipeline.names.spelling import a_slip, spelled_closest, versions, words_agree


def test_a_version_is_typed_with_its_v_without_it_or_glued_to_the_name() -> None:
    assert "BalticSonar 1.1" in versions("BalticSonar v1.1") and "balticsonar v1.1" in versions("balticsonar 1.1")
    assert "BATSOUND v2" in versions("BATSOUND2") and versions("BATSOUND v2") == ["BATSOUND 2"]


def test_a_slip_keeps_the_numbers_and_a_short_name_is_no_slip_of_another() -> None:
    assert a_slip("resnet50", "resnt50") and not a_slip("resnet50", "resnet56")
    assert not a_slip("bert", "bart") and a_slip("mprc", "mrpc")


def test_each_typed_word_is_close_to_one_of_the_labels_and_the_nearest_spelling_wins() -> None:
    assert words_agree("switch transfomer", "Switch Transformer")
    assert not words_agree("switch transformer", "Sandwich Transformer")
    assert spelled_closest("SQuAD 1.1", ["squad 1.1", "SQuAD 1.1"]) == ["SQuAD 1.1"]
