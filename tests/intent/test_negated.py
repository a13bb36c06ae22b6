"""The negations of a comparison question's reading (``pipeline.intent.negated``)."""
from __future__ import annotations

from pipeline.intent.account import words
from pipeline.intent.negated import absent, negated
from pipeline.intent.record import Condition


def test_a_negation_word_turns_the_condition_after_it_around() -> None:
    text = "which papers did not use gravel"
    found = words(text)
    gravel = Condition((text.index("gravel"), len(text)), "orkgp:P1", "=", "Gravel", "orkgr:R1")
    out, used = negated([gravel], found, text)
    assert [c.op for c in out] == ["!="] and [w[2] for w in used] == ["not"]
    far = "which papers did not say anything at all about the roofs they built with gravel"
    kept, _ = negated([Condition((far.index("gravel"), len(far)), "orkgp:P1", "=", "Gravel")], words(far), far)
    assert kept[0].op == "="  # too far from the negation to be what it negates


def test_a_negation_leaves_out_every_value_listed_right_after_it_on_the_same_property() -> None:
    def read(text: str, *values: tuple[str, str]) -> list[str]:
        conditions = [Condition((text.index(v), text.index(v) + len(v)), on, "=", v) for v, on in values]
        return [c.op for c in negated(conditions, words(text), text)[0]]

    assert read("sites not in kenya or india", ("kenya", "P1"), ("india", "P1")) == ["!=", "!="]
    assert read("sites not in kenya, india or in ghana", ("kenya", "P1"), ("india", "P1"), ("ghana", "P1")) == \
        ["!=", "!=", "!="]
    assert read("sites not in kenya that used gravel", ("kenya", "P1"), ("gravel", "P2")) == ["!=", "="]
    assert read("sites not in kenya but in india", ("kenya", "P1"), ("india", "P1")) == ["!=", "="]


def test_a_negation_before_a_property_or_the_word_venue_is_a_property_given_for_none() -> None:
    text = "which papers didnt report any follow-up"
    found = words(text)
    prop = [w for w in found if w[2] == "follow"]
    out, used = absent([], found, [("orkgp:P9", prop)])
    assert [(c.on, c.op) for c in out] == [("orkgp:P9", "absent")] and [w[2] for w in used] == ["didnt"]
    venue = "coral papers w/o a venue listed"
    out, used = absent([], words(venue), [])
    assert [(c.on, c.op) for c in out] == [("orkgp:HAS_VENUE", "absent")]
    assert [w[2] for w in used] == ["without", "venue"]
    assert absent([], words("which papers report a follow-up"), [("orkgp:P9", prop)]) == ([], [])  # no negation
    # a new ask after the negation: it does not reach the property ('not about one comparison - which locations')
    text = "not about one comparison - which study locations show up"
    found = words(text)
    study = [w for w in found if w[2] in ("study", "locations")]
    assert absent([], found, [("orkgp:P9", study)]) == ([], [])


def test_a_property_the_things_asked_report_is_carried() -> None:
    from pipeline.intent.negated import carried

    found = words("which comparisons report an effect size at all")
    effect = [w for w in found if w[2] in ("effect", "size")]
    assert carried(found, [("orkgp:P1", effect)], ["orkgp:P1"]) == ["orkgp:P1"]
    found = words("which comparisons list the effect size")
    assert carried(found, [("orkgp:P1", [w for w in found if w[2] in ("effect", "size")])], []) == []  # not left
    found = words("what effect size did the comparisons find")
    assert carried(found, [("orkgp:P1", [w for w in found if w[2] in ("effect", "size")])], ["orkgp:P1"]) == []
