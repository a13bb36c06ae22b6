"""Question cleaning: Slack markup out, words kept, control characters gone, the length capped."""
from __future__ import annotations

import pytest

from bot.text import clean_question, command_text, split_teach, strip_markup

CASES = [
    ("<@UBOT> Which model is best on SQuAD?", "Which model is best on SQuAD?"),
    ("<@UBOT|kgqa>   which   model\n\n is best?", "which model is best?"),
    ("<@W123ABC> hi <@U999>", "hi"),
    ("papers in <#C123|nlp-papers> about <https://orkg.org/resource/R1|Story Cloze Test>",
     "papers in #nlp-papers about Story Cloze Test"),
    ("see <https://orkg.org/> and <mailto:a@b.org|a@b.org>", "see https://orkg.org/ and a@b.org"),
    ("<!here> *Which* _model_ ~won~ on `SST-2`?", "Which model won on SST-2?"),
    ("&gt; quoted question &amp; more &lt;tag&gt;", "quoted question & more <tag>"),
    ("```code block question```", "code block question"),
    ("score on WMT2014_en_de and 5*3 = 15", "score on WMT2014_en_de and 5*3 = 15"),
    ("tab\there\x00nul\x07bell\u200bzero\u202eright-to-left", "tab herenulbellzeroright-to-left"),
    ("cafe\u0301 au lait", "café au lait"),
    ("broken \ud800 surrogate", "broken ? surrogate"),
    ("<!subteam^S123|@maintainers> ping", "@maintainers ping"),
]


@pytest.mark.parametrize(("raw", "clean"), CASES)
def test_markup_and_control_characters_are_stripped(raw: str, clean: str) -> None:
    assert clean_question(raw, 2000).text == clean


@pytest.mark.parametrize("raw", ["", "   ", "<@UBOT>", "<@UBOT> * ~ _", "\x00\x01", "🙂"])
def test_nothing_in_words_is_empty(raw: str) -> None:
    assert clean_question(raw, 2000).text == ""


def test_the_length_is_capped_and_reported() -> None:
    fits = clean_question("word " * 10, 50)
    assert not fits.too_long and fits.chars == len("word " * 10) - 1
    long = clean_question("why " * 25_000, 2000)  # 100 kB
    assert long.too_long and long.chars == 100_000 and len(long.text) == 2000
    markup = clean_question("<@UBOT> " * 40 + "short?", 100)  # markup does not count against the cap ...
    assert not markup.too_long and markup.text == "short?"
    bomb = clean_question("<@UBOT> " * 50_000 + "short?", 100)  # ... unless it is a markup bomb
    assert bomb.too_long


def test_strip_markup_keeps_labels_and_drops_mentions() -> None:
    assert strip_markup("<@U1> <http://a.b/c|the label>") == "  the label"


def test_command_text_gives_back_what_was_typed() -> None:
    escaped = 'SELECT ?x WHERE { ?x &lt;http://orkg.org/orkg/predicate/P31&gt; "a &amp; b" }'
    assert command_text(escaped) == 'SELECT ?x WHERE { ?x <http://orkg.org/orkg/predicate/P31> "a & b" }'
    assert command_text("ASK { <https://orkg.org/x|orkg.org/x> ?p ?o }") == "ASK { <https://orkg.org/x> ?p ?o }"
    assert command_text("  SELECT\n  *\x00 {}  ") == "SELECT\n  * {}"


def test_split_teach() -> None:
    assert split_teach("What is X? ||| SELECT ?x {}") == ("What is X?", "SELECT ?x {}")
    assert split_teach("q ||| a ||| b") == ("q", "a ||| b")
    assert split_teach("no separator") is None and split_teach("||| SELECT") is None
