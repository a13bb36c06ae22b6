"""A paper named by words of its title (``pipeline.intent.titled``): a run of the words a reading left over, one of
them a word of that title alone."""
from __future__ import annotations

from pipeline.intent.record import Reading
from pipeline.intent.titled import PAPER, titled

PAPERS = [("orkgr:R1", "Randomised trial of topical phage therapy for burn wound infections (PhagoBurn)"),
          ("orkgr:R2", "Intravenous phage therapy for bone infections")]


def _titled(text: str, unplaced: tuple[str, ...]) -> list[tuple[str, str]]:
    return [(text[slice(*v.span)], v.iri) for v in titled(text, Reading(text, "", "list", unplaced=unplaced), PAPERS)
            if v.properties == {PAPER}]


def test_the_words_of_one_papers_title_name_it() -> None:
    assert _titled("mean age in the phagoburn burn wound trial", ("phagoburn", "burn")) == [
        ("phagoburn burn wound trial", "orkgr:R1")]
    assert _titled("patients in the intravenous bone study", ("intravenous",)) == [("intravenous bone", "orkgr:R2")]


def test_words_of_every_title_or_placed_already_name_none() -> None:
    assert _titled("which phage therapy papers", ("phage",)) == []  # words both titles have
    assert _titled("mean age in the phagoburn trial", ("mean",)) == []  # the title's words were placed


def test_a_paper_is_named_after_the_and_before_a_word_for_a_paper() -> None:
    """'never had a *randomised trial*', 'how many *bone* infections': words of a title, no paper named."""
    assert _titled("which countries never had a randomised trial", ("randomised",)) == []
    assert _titled("how many intravenous bone infections were there", ("intravenous", "bone")) == []


def test_a_value_among_the_titles_words_is_the_papers() -> None:
    """'the nanoconfined *libh4* paper': the words a value took are the title's too; the run is the paper's."""
    papers = [("orkgr:R3", "Nanoconfined LiBH4 in mesoporous carbon scaffolds"), ("orkgr:R4", "LiBH4 ball milling")]
    text = "for the nanoconfined libh4 paper - what activation method"
    read = Reading(text, "", "list", unplaced=("nanoconfined",))
    assert [(text[slice(*v.span)], v.iri) for v in titled(text, read, papers)] == [("nanoconfined libh4", "orkgr:R3")]
