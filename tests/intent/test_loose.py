"""Names people shorten (``pipeline.intent.loose``): a metric abbreviated, a field or problem said by one word of
its label in another form — each linked only where one label fits."""
from __future__ import annotations

from pipeline.intent.loose import abbreviated, field_word, initialled, pointed
from pipeline.names.index import LabelIndex


def test_a_metrics_initials_or_its_words_cut_short_name_the_one_metric_they_abbreviate() -> None:
    index = LabelIndex([("Character Error Rate", "metric"), ("Equal Error Rate (%)", "metric"),
                        ("Accuracy", "metric"), ("Localization Error (m)", "metric"), ("Cross Entropy Rate", "metric"),
                        ("Conditional Expected Reward", "metric"), ("Accent Dataset", "dataset")], threshold=85.0)
    assert abbreviated("eer", index) == "Equal Error Rate (%)"  # its parenthesised part left out
    assert abbreviated("acc", index) == "Accuracy" and abbreviated("loc error", index) == "Localization Error (m)"
    assert abbreviated("cer", index) is None  # three metrics have those initials: not guessed
    assert abbreviated("ac", index) is None  # a word cut shorter than three letters
    assert abbreviated("best", index) is None and abbreviated("the", index) is None  # words of the question's own
    assert abbreviated("accuracy", index) is None  # written whole: the exact lookup's, not an abbreviation
    index.add([("Mean Absolute Error (m)", "metric")])
    assert abbreviated("mean abs error", index) == "Mean Absolute Error (m)"  # 'mean' the label's own word whole
    assert abbreviated("mean", index) is None  # alone it asks for an average
    index.add([("Inference Latency (ms)", "metric"), ("Cohen's Kappa", "metric"), ("False Alarm Rate", "metric")])
    assert abbreviated("latency", index) == "Inference Latency (ms)" and abbreviated("kappa", index) == "Cohen's Kappa"
    assert abbreviated("rate", index) is None  # the last word of four metrics: not guessed



def test_a_field_or_problem_said_by_one_word_of_its_label_in_another_form() -> None:
    index = LabelIndex([("Speleological Survey Mapping", "researchfield"), ("Computational Palaeography",
                                                                            "researchfield"),
                        ("Palaeographic Dating", "problem"), ("Icequake Event Detection", "problem"),
                        ("Icequakes of Greenland", "dataset"), ("Glaciology", "researchfield"),
                        ("Glaciological Surveys", "researchfield")], threshold=85.0)
    assert field_word("speleology", index) == ("Speleological Survey Mapping", "researchfield")
    # a field's word and a problem's: the field, which holds the problem's papers too
    assert field_word("palaeography", index) == ("Computational Palaeography", "researchfield")
    assert field_word("dating", index) == ("Palaeographic Dating", "problem")  # six letters, one problem's
    assert field_word("icequake", index) is None  # a dataset's word too
    assert field_word("glaciology", index) is None  # 'Glaciology' and 'Glaciological Surveys'
    assert field_word("survey", index) is None  # a word shorter than six letters' forms: 'surveys' has no meaning
    assert field_word("speleology", index, generic=frozenset({"speleology"})) is None  # the stored forms' own word
    index.add([("Lichen Biomonitoring", "researchfield"), ("Lichen Species Identification", "problem"),
               ("LichenNet-24", "dataset"), ("Tree Species Survey", "problem"), ("Species Atlas", "problem")])
    # a dataset named by a compound of the word ('LichenNet-24') is not the word in another form
    assert field_word("lichen", index) == ("Lichen Biomonitoring", "researchfield")
    assert field_word("species", index) is None  # three problems', no field's: not guessed


def test_a_label_the_index_gains_is_read_at_the_next_question() -> None:
    index = LabelIndex([("Accuracy", "metric")], threshold=85.0)
    assert abbreviated("wer", index) is None and field_word("speleology", index) is None
    index.add([("Word Error Rate", "metric"), ("Speleological Survey Mapping", "researchfield")])
    assert abbreviated("wer", index) == "Word Error Rate"
    assert field_word("speleology", index) == ("Speleological Survey Mapping", "researchfield")


def test_a_field_or_problem_said_by_some_of_its_labels_words() -> None:
    index = LabelIndex([("Historical Textile Weave Analysis", "researchfield"), ("Weave structure recognition",
                                                                                  "problem"),
                        ("Volcanic Ash Dispersion Modelling", "researchfield"),
                        ("Volcanic ash plume height estimation", "problem")], threshold=85.0)
    assert field_word("textile weave", index) == ("Historical Textile Weave Analysis", "researchfield")
    assert field_word("volcanic ash", index) is None  # a field's words and a problem's: not guessed
    assert field_word("weave structure recognition", index) is None  # every word of it: the exact lookup's
    assert field_word("the weave", index) is None  # filler is no part of a name
    index.add([("Mathematics Education", "researchfield"), ("Math Word Problem Solving", "problem")])
    assert field_word("math education", index) == ("Mathematics Education", "researchfield")  # a word cut short
    assert field_word("hist textile", index) is None  # cut short, but only some of a longer label's words


def test_a_word_that_says_one_metric_without_naming_it() -> None:
    """'the least acurate' is by Accuracy (the word for it, with a slip); 'the slowest' by the one metric that
    measures time taken; a word that fits two metrics, or none, says none."""
    assert pointed("least acurate model on X?", ["Accuracy", "Recall"]) == ("Accuracy", "least Accuracy model on X?")
    assert pointed("which model is the slowest on X", ["Latency (ms)", "F1"]) == (
        "Latency (ms)", "which model is the slowest on X by Latency (ms)?")
    assert pointed("the fastest model on X", ["Latency (ms)", "Inference time (s)"]) is None
    assert pointed("the best model on X", ["Accuracy", "Recall"]) is None
    assert pointed("best models on X", ["Model size (M)", "F1"]) is None  # 'models' asks for models
    assert pointed("best on Accuracy-Bench", ["Accuracy", "F1"], "Accuracy-Bench") is None  # the dataset's word


def test_a_field_or_problem_said_by_its_initials() -> None:
    index = LabelIndex([("Named Entity Recognition", "problem"), ("Natural Language Processing", "researchfield"),
                        ("State of Health Estimation", "problem"), ("Near Edge Routing", "problem"),
                        ("Crystal Graph", "model")], threshold=85.0)
    assert initialled("NLP", index) == ("Natural Language Processing", "researchfield")
    assert initialled("sohe", index) == ("State of Health Estimation", "problem")  # of every word, 'of' too
    assert initialled("she", index) == ("State of Health Estimation", "problem")  # of its content words
    assert initialled("ner", index) is None  # two problems have those initials: not guessed
    assert initialled("cg", index) is None  # a model's initials: no field nor problem
    assert initialled("best", index) is None and initialled("vs", index) is None  # words of the question's own
    index.add([("Concrete Crack Segmentation", "problem")])
    assert initialled("ccs", index) == ("Concrete Crack Segmentation", "problem")
    index.add([("ACM CCS", "venue")])
    assert initialled("ccs", index) is None  # a word of a venue's name as much: not guessed


def test_a_one_word_metric_said_by_some_of_its_letters_in_order() -> None:
    index = LabelIndex([("Perplexity", "metric"), ("BLEU", "metric"), ("Accuracy", "metric")], threshold=85.0)
    assert abbreviated("pplx", index) == "Perplexity"
    assert abbreviated("ppl", index) is None  # a word for people as often: not guessed either way
    assert abbreviated("px", index) is None  # two letters say too little
    index.add([("Perpendicular Loss", "metric"), ("Pupils", "metric")])
    assert abbreviated("pplx", index) == "Perplexity"  # a metric of one word only; 'Pupils' too short for it
    index.add([("Popularplex", "metric")])
    assert abbreviated("pplx", index) is None  # two metrics so: not guessed
