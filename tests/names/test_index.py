"""The label index: exact names kept, loosely typed ones read as the graph's label, look-alikes asked about."""
from __future__ import annotations

from pipeline.names.index import LabelIndex, kind_of, squash
from pipeline.records import Kind, Match

LABELS = [("SQuAD1.1", "dataset"), ("SQuAD2.0", "dataset"), ("ImageNet", "dataset"), ("ImageNet ReaL", "dataset"),
          ("Story Cloze Test", "dataset"), ("Walker, walk (DMControl100k)", "dataset"),
          ("Walker, walk (DMControl500k)", "dataset"), ("Go-Explore", "model"), ("BERT-Large", "model"),
          ("GPT-2 (1.5B)", "model"), ("MRPC", "dataset"), ("F1", "metric"), ("Accuracy", "metric"),
          ("Yelp Fine-grained classification", "dataset"), ("Atari 2600 Pong", "dataset"),
          ("Atari 2600 HERO", "dataset"), ("Rock'n'Roll Net", "model"), ("BERT v2", "model"),
          ("Fjällröst Dialects", "dataset"), ("Dialekt-Øst", "model"), ("Łódź Streets", "dataset")]


def index() -> LabelIndex:
    return LabelIndex(LABELS, threshold=85.0)


def test_a_correctly_typed_label_is_kept_as_it_is() -> None:
    ix = index()
    for label, kind in LABELS:
        found = ix.find(label, kind)
        assert found.match is Match.EXACT and found.chosen == label and not found.changed


def test_case_blanks_hyphens_apostrophes_and_version_spacing_read_as_the_graphs_label() -> None:
    ix = index()
    cases = {"squad 1.1": "SQuAD1.1", "SQUAD2.0": "SQuAD2.0", "imagenet": "ImageNet", "imagenet real": "ImageNet ReaL",
             "story cloze test": "Story Cloze Test", "Go Explore": "Go-Explore", "bert large": "BERT-Large",
             "Rock n Roll Net": "Rock'n'Roll Net", "BERT version 2": "BERT v2", "BERT v 2": "BERT v2"}
    for typed, label in cases.items():
        found = ix.find(typed, kind_of("Dataset") if label in ("SQuAD1.1", "SQuAD2.0", "ImageNet", "ImageNet ReaL",
                                                                 "Story Cloze Test") else "model")
        assert (found.match, found.chosen) == (Match.NORMALISED, label), typed


def test_a_name_typed_without_its_accents_reads_as_the_graphs_label() -> None:
    ix = index()
    for typed, label, kind in [("fjallrost dialects", "Fjällröst Dialects", "dataset"),
                               ("Dialekt-Ost", "Dialekt-Øst", "model"), ("lodz streets", "Łódź Streets", "dataset")]:
        found = ix.find(typed, kind)
        assert (found.match, found.chosen) == (Match.NORMALISED, label), typed
    assert squash("Fjällröst") == squash("Fjallrost") != squash("Fjallrosts")


def test_one_slip_or_dropped_last_words_read_as_the_one_close_label() -> None:
    ix = index()
    assert ix.find("Stroy Cloze Test", "dataset").chosen == "Story Cloze Test"
    assert ix.find("MPRC", "dataset").chosen == "MRPC"
    completed = ix.find("Yelp Fine-grained", "dataset")
    assert (completed.match, completed.chosen) == (Match.CLOSE, "Yelp Fine-grained classification")


def test_several_close_labels_of_the_kind_are_a_question_not_a_guess() -> None:
    found = index().find("Atari 2600", "dataset")
    assert found.match is Match.AMBIGUOUS and found.chosen is None
    assert set(found.candidates) >= {"Atari 2600 Pong", "Atari 2600 HERO"}
    twins = index().find("Wlaker, walk (DMControl100k)", "dataset")  # the 500k twin's number differs: not close
    assert twins.match is Match.CLOSE and twins.chosen == "Walker, walk (DMControl100k)"


def test_an_unknown_name_lists_the_closest_labels_of_its_kind() -> None:
    found = index().find("Penguin Treebank", "dataset")
    assert found.match is Match.UNKNOWN and found.chosen is None
    assert 0 < len(found.candidates) <= 5 and all(c in dict(LABELS) and dict(LABELS)[c] == "dataset"
                                                  for c in found.candidates)


def test_a_spelling_is_read_by_lookups_alone_and_a_slip_is_left_to_the_search() -> None:
    """``spelled`` says what ``find`` says wherever case, blanks and punctuation are the only difference, and nothing
    where only a search for close labels could tell (the composer asks it of every span of a question)."""
    ix = index()
    for typed in ("SQuAD1.1", "squad 1.1", "Go Explore", "BERT v 2", "imagenet real"):
        spelled = ix.spelled(typed)
        assert spelled is not None and (spelled.match, spelled.chosen) == (ix.find(typed).match, ix.find(typed).chosen)
    for typed in ("Stroy Cloze Test", "MPRC", "Yelp Fine-grained", "Penguin Treebank"):
        assert ix.spelled(typed, "dataset") is None and ix.find(typed, "dataset").match is not Match.NORMALISED


def test_a_name_is_looked_up_within_its_kind_or_all_kinds() -> None:
    ix = index()
    assert ix.find("accuracy", "metric").chosen == "Accuracy"
    assert ix.find("accuracy", "dataset").chosen != "Accuracy"
    assert ix.find("accuracy").chosen == "Accuracy"


def test_squash_and_kinds() -> None:
    assert squash("SQuAD 1.1") == squash("squad1.1") == "squad1.1"
    assert squash("Go‑Explore") == squash("go explore")
    assert squash("BERT version 2") == squash("BERT v. 2") == "bertv2"
    assert kind_of("ResearchField") == kind_of("research_fields") == "researchfield"
    assert kind_of("Contribution") == ""
    assert index().counts()["dataset"] == 13


def test_another_word_is_not_a_slip() -> None:
    ix = LabelIndex([("Sandwich Transformer", "model"), ("Transformer Big", "model")], threshold=85.0)
    found = ix.find("Switch Transformer", "model")
    assert found.chosen is None and "Sandwich Transformer" in found.candidates
    assert ix.find("Sandwich Transfromer", "model").chosen == "Sandwich Transformer"


def test_another_number_or_one_wrong_letter_in_a_short_name_is_another_name() -> None:
    index = LabelIndex([("BART", "model"), ("GPT-2", "model"), ("ResNet-50", "model"), ("MRPC", "dataset"),
                        ("Story Cloze Test", "dataset")], threshold=85.0)
    for typed, kind in [("BERT", "model"), ("GPT-3", "model"), ("ResNet-56", "model")]:
        found = index.find(typed, kind)
        assert found.match is Match.UNKNOWN and found.chosen is None, found
    assert index.find("BERT", "model").candidates[0] == "BART"  # still offered, never chosen
    assert index.find("MPRC", "dataset").chosen == "MRPC"  # two letters swapped: a typo
    assert index.find("Story Clozee Test", "dataset").chosen == "Story Cloze Test"


def test_one_kind_word_whatever_the_class_or_variable_says() -> None:
    assert kind_of("ResearchField") is kind_of("research_fields") is kind_of("rf") is Kind.RESEARCHFIELD
    assert kind_of("Datasets") is Kind.DATASET and kind_of("benchmark") is Kind.DATASET and kind_of("score") == ""
    assert [k.orkg_class for k in Kind] == ["Dataset", "Model", "Metric", "Problem", "ResearchField", "Paper", "Venue"]
    assert Kind.PAPER == "paper" and f"{Kind.RESEARCHFIELD}" == "researchfield"  # the word JSON and caches hold


def test_cased_lists_every_label_of_that_lowercase_of_any_kind() -> None:
    ix = LabelIndex([("SQuAD1.1", "dataset"), ("squad1.1", "dataset"), ("SQuAD 1.1", "dataset"),
                     ("SQuAD1.1", "model")], threshold=85.0)
    assert ix.cased("squad1.1") == ["SQuAD1.1", "squad1.1"]
    assert ix.cased("squad 1.1") == ["SQuAD 1.1"] and ix.cased("squad") == []


def test_a_version_typed_with_or_without_its_v_reads_as_the_graphs_label() -> None:
    ix = LabelIndex([("BalticSonar v1.1", "dataset"), ("DieSiam-v2", "model"), ("InceptionV3", "model")], 85.0)
    ix.add([("BATSOUND v2", "dataset"), ("KVERT-Seis v3", "dataset")])
    for typed, label in {"balticsonar 1.1": "BalticSonar v1.1", "diesiam 2": "DieSiam-v2",
                         "inception 3": "InceptionV3", "BalticSonar v1.1": "BalticSonar v1.1",
                         "BATSOUND2": "BATSOUND v2", "kvert-seis3": "KVERT-Seis v3"}.items():  # glued to the name
        found = ix.spelled(typed)
        assert found is not None and found.chosen == label, typed
    assert ix.spelled("balticsonar 1.2") is None and ix.spelled("BATSOUND3") is None  # another version is no slip


def test_a_metric_typed_without_its_unit_reads_as_the_graphs_label() -> None:
    ix = LabelIndex([("MAPE (%)", "metric"), ("RMSE (µg/m³)", "metric"), ("LoomScan-2 (warp)", "dataset"),
                     ("LoomScan-2 (weft)", "dataset"), ("Accuracy", "metric"), ("Accuracy (%)", "metric")],
                    threshold=85.0)
    assert ix.find("mape").chosen == "MAPE (%)" and ix.find("rmse").chosen == "RMSE (µg/m³)"
    assert ix.find("accuracy").chosen == "Accuracy"  # the label without a unit, typed so, is that one
    assert ix.find("loomscan-2").chosen is None  # a dataset's parenthesis names another dataset, not a unit


def test_an_ampersand_is_typed_as_and() -> None:
    ix = LabelIndex([("Building and Environment", "venue")], threshold=85.0)
    assert ix.find("building & environment").chosen == "Building and Environment"
