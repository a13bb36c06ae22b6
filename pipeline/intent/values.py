"""The values a comparison question names beyond their exact labels, and how they stand to the comparison's name:
a value typed with a slip in each word or by its initials in capitals ('US'), a value whose words are the
comparison's own ('the ammonia gas *sensors* comparison'), and a value of another comparison the question names."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pipeline.intent.account import words
from pipeline.intent.comparisons import STRUCTURAL, Comparisons, Value, holders
from pipeline.intent.linking import SCOPE_WORDS, content, near, singular
from pipeline.intent.operators import TABLE
from pipeline.intent.record import Reading
from pipeline.intent.scope import NAME_END
from pipeline.intent.titled import PAPER
from pipeline.parts import KnowledgeGraph


def slipped(text: str, read: Reading, held: Sequence[Value]) -> list[Value]:
    """The runs of words the reading could not place that are one of the comparison's values typed with a slip in
    each word (the same number of words, each the label's or a typo from it), no other value as close."""
    taken = [n.span for n in read.names] + ([read.scope.span] if read.scope else [])
    # the words no name of the reading holds (a filler word may be a value's: 'wheel *tracking*'); a run taken holds
    # one the reading could not place
    free = [w for w in words(text) if not any(a <= w[0] < b for a, b in taken)]
    found = [w for w in free if w[2] in read.unplaced]
    out: list[Value] = []
    for value in held:
        theirs = [w for _, _, w in words(value.label)]
        # or without a last word that only says what kind of thing it is ('hamburg wheel tracking' for 'Hamburg wheel
        # tracking test')
        for said in [theirs] + ([theirs[:-1]] if len(theirs) >= 3 and theirs[-1] in _KIND_OF_THING else []):
            for i in range(len(free) - len(said) + 1):
                run = free[i:i + len(said)]
                if not any(w in found for w in run):
                    continue
                # each word the label's or a slip from it, in its order; or its very words in another ('lf-lam urine'
                # for 'Urine LF-LAM')
                in_order = len(run[-1][2]) >= 4 and all(near(w[2], t) for w, t in zip(run, said))
                if (in_order or (len(run) > 1 and sorted(w[2] for w in run) == sorted(said))) and \
                        all(b[0] - a[1] <= 1 for a, b in zip(run, run[1:])):
                    out.append(Value((run[0][0], run[-1][1]), value.iri, value.label, value.properties))
        # its first word alone, a name's (three letters or more, a word of no other value's label nor of the
        # comparison's: 'truenat' for 'Truenat MTB', 'xlm-r' for 'XLM-RoBERTa'; not 'cathode' for 'cathode
        # regeneration'), where no other value begins so
        out += [Value(w[:2], value.iri, value.label, value.properties) for w in found
                if len(theirs) == 2 and len(w[2]) >= 3 and w[2] == theirs[0] and w[2] not in _others(value, held, read)
                and not value.properties <= STRUCTURAL.keys()]  # a problem's, a field's: no name of a thing
        short = "".join(t[0] for t in theirs)  # its initials, typed in capitals, plural or not ('RCTs')
        out += [Value(w[:2], value.iri, value.label, value.properties) for w in found
                if len(theirs) >= 2 and ((capitals(text[w[0]:w[1]]) and w[2] == short) or
                                         (capitals(text[w[0]:w[1] - 1]) and w[2] == short + "s"))]
    spans_ = [v.span for v in out]
    return [v for v in out if spans_.count(v.span) == 1 and not any(  # none inside a longer one of the same value
        o.iri == v.iri and o.span != v.span and o.span[0] <= v.span[0] and v.span[1] <= o.span[1] for o in out)]


_KIND_OF_THING = {"test", "method", "approach", "technique", "system", "programme", "program", "protocol", "assay",
                  "model", "scheme", "strategy", "intervention", "treatment", "procedure"}


def _others(value: Value, held: Sequence[Value], read: Reading) -> set[str]:
    """The words of the labels of the comparison's other values and of the comparison's own."""
    labels = [v.label for v in held if v.label != value.label] + ([read.scope.label] if read.scope else [])
    return {singular(w) for label in labels for _, _, w in words(label)} | \
        {w for label in labels for _, _, w in words(label)}


def capitals(typed: str) -> bool:
    """A short word typed in capitals ('US', 'UK'): a name's initials, not the filler word it spells in lower case."""
    return 2 <= len(typed) <= 4 and typed.isalpha() and typed.isupper()


def within_scope(read: Reading, values: Sequence[Value], text: str) -> bool:
    """Whether a value the question names stands among the words that name the comparison in ``read``, right before
    'comparison', 'papers', 'one', … ('the ammonia gas *sensors* comparison', 'the *desalination* membrane papers':
    words of its name, not the venues 'Sensors' and 'Desalination')."""
    return read.scope is not None and any(
        read.scope.span[0] <= v.span[0] and v.span[1] <= read.scope.span[1] and
        (after := words(text[read.scope.span[1]:])) and after[0][2] in NAME_END for v in values)


def names_a_comparison(typed: str, facts: Comparisons) -> bool:
    """Whether every word of ``typed`` is a word of one comparison's label."""
    mine = [w for _, _, w in words(typed)]
    return any(all(any(near(w, t) for t in content(label)) for w in mine) for label in facts.labels.values())


def held_in_scope(read: Reading | None, facts: Comparisons, kg: KnowledgeGraph) -> Reading | None:
    """``read``, in part where a value it is held to is none of its comparison's but another's the question's words
    name too ('the dodoma school *rainwater* paper' read in the school vision screening comparison when Dodoma is a
    rainwater study's): its list would be 'nothing' for a misread. No other comparison named: 'nothing' is the answer
    ('the knee OA trials in japan' when none was run there)."""
    if read is None or read.scope is None or TABLE[read.operator].ask:  # 'did any of them use clay?': no
        return read
    scope, own = read.scope.iri, set(facts.properties.get(read.scope.iri, ()))
    named = [c for c in read.conditions if c.iri and c.on not in STRUCTURAL and c.op == "="]
    said = [w for w in words(read.question) if w[2] not in SCOPE_WORDS and not any(
        c.span[0] <= w[0] < c.span[1] for c in named)]
    outside = []
    for c in named:
        others = holders(kg, c.value)  # by label, as compiled
        if c.on in own and scope in others:
            continue
        if any(any(near(w[2], t) for w in said for t in content(facts.labels.get(other, "")) if t not in SCOPE_WORDS)
               for other in others if other != scope):
            outside.append(c.value)
    return replace(read, unplaced=read.unplaced + tuple(f"{v} (a value of another comparison the question names)"
                                                        for v in outside)) if outside else read


def labelled_value(value: Value, facts: Comparisons) -> bool:
    """A value of properties the comparisons' contributions carry with labels (not a paper's field, not a
    leaderboard's dataset)."""
    return bool(value.properties) and (value.properties == {PAPER} or all(
        p in facts.property_labels and p not in STRUCTURAL for p in value.properties))
