"""What the answer says about whose query ran and why the writers before it gave way, for each writer's role."""
from __future__ import annotations

from pipeline.loop.notes import ADAPTER, MODEL, READER, blank_after, gave_way
from pipeline.records import Generation

NONE_READ = Generation("reader:tgi", None, reason="the model read none of the 12 questions shown as this one")
UNUSABLE = Generation("tgi", None, reason="no SPARQL in the reply", explanation="The model wrote no query.")
DECLINED = Generation("adapter", None, explanation="No stored question is close enough to this one.")


def test_each_role_gives_way_in_its_own_words() -> None:
    assert gave_way(NONE_READ, READER).startswith("the language model read the question as none it was shown")
    assert gave_way(NONE_READ, READER, raised="server down") == \
        "the language model could not read the question (server down)"
    assert gave_way(UNUSABLE, MODEL).startswith("the language model wrote no usable query (no SPARQL")
    assert gave_way(DECLINED, ADAPTER).startswith("the offline adapter declined (No stored question")


def test_when_no_writer_wrote_a_query_each_later_one_is_named_for_what_it_is() -> None:
    out = blank_after(NONE_READ, READER, "", UNUSABLE, MODEL, "")
    out = blank_after(out, READER, "", DECLINED, ADAPTER, "")
    assert out.notes[0].endswith("; the language model wrote no usable query (no SPARQL in the reply)")
    assert out.notes[1].endswith("; the offline adapter wrote no usable query (No stored question is close enough "
                                 "to this one.)")
    assert "The offline adapter was asked too" in out.explanation
    assert "The language model was asked too" in out.explanation
