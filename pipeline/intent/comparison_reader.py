"""The rules' reading of a question about the graph's comparisons, word by word (a closed world): each word is a
value the graph holds, a comparison's name, a property's label, an operator's phrasing (``operators.TABLE``), a year
bound, a kind's word, a linking verb or filler; any other word leaves the reading partial, and it is not answered."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pipeline.intent.account import words
from pipeline.intent.bounds import BOUND, INCLUDED, NUMBER, RANGE, TOP, number_end, stated
from pipeline.intent.comparison_asked import (
    ALSO,
    ANY,
    GROUPS,
    MOST_THINGS,
    OF_PAPER,
    PUBLISHED,
    WH,
    WHICH_ONE,
    after_the,
    asked_of,
    directed,
    either,
    grouped_by,
    joined_at,
    left_out,
    scaffold,
)
from pipeline.intent.comparisons import Comparisons, Value, values_named, values_of
from pipeline.intent.conditions import BETWEEN
from pipeline.intent.idioms import idioms
from pipeline.intent.linking import (
    KIND_WORDS,
    PROPERTY_WORDS,
    Word,
    content,
    full_label,
    heads,
    inside,
    label_runs,
    properties_named,
    unit,
    unit_after,
    unparenthesised,
)
from pipeline.intent.named import spans
from pipeline.intent.negated import absent, carried, negated
from pipeline.intent.operators import TABLE, operators_in, place_of
from pipeline.intent.record import Condition, Linked, Reading
from pipeline.intent.scope import NAME_END, narrowed, property_meant, repeated, scope_meant, scope_named, widened
from pipeline.intent.titled import may_name_a_paper, papers_of, titled
from pipeline.intent.two_scopes import two_named
from pipeline.intent.values import (
    capitals,
    held_in_scope,
    labelled_value,
    names_a_comparison,
    slipped,
    within_scope,
)
from pipeline.matching.wording import STOPWORDS
from pipeline.parts import KnowledgeGraph


def read_comparison(text: str, facts: Comparisons, kg: KnowledgeGraph) -> Reading | None:
    """The question as a reading over the graph's comparisons; None when it names no comparison, no property of one
    and no value of one (it is about something else)."""
    if not facts.labels:
        return None
    values = values_named(kg, text, spans(text, frozenset()))
    read = _typed_loosely(text, facts, kg, values)
    # ('the *sleep* therapy comparison': 'Sleep' a venue, or a word of the comparison's name?)
    named = [v for v in values if not names_a_comparison(text[slice(*v.span)], facts) and not _naming(v, text)]
    if len(named) < len(values):  # 'the tree survival studies': a comparison named, or its problem?
        other = _typed_loosely(text, facts, kg, named)
        if other is not None and (read is None or (other.whole, other.scope is not None) > (read.whole,
                                                                                              read.scope is not None)
                                  or (other.whole == read.whole and within_scope(other, values, text))):
            return other
    return held_in_scope(read, facts, kg)


def _typed_loosely(text: str, facts: Comparisons, kg: KnowledgeGraph, values: Sequence[Value]) -> Reading | None:
    """``_read`` with ``values``, and again with the values of the comparison it names typed with a slip ('kenia')
    or as their initials ('RCTs'), and a paper named by words of its title, where that places more words."""
    read = _read(text, facts, values)
    if read is None:
        return read
    typos = slipped(text, read, values_of(kg, read.scope.iri)) if read.scope and not read.whole else []
    again = _read(text, facts, sorted([*values, *typos], key=lambda v: v.span)) if typos else None
    read = again if again is not None and len(again.unplaced) < len(read.unplaced) else read
    # a paper named by words of its title ('the phagoburn trial'), of the comparison named or of any; in a reading
    # whole too, by a word of its title alone ('the *goldisthal* pumped storage paper': not the comparison's words)
    # (not 'the childcare paper with the longest follow-up': a paper described by a ranking, no name)
    paper = titled(text, read, papers_of(kg, read.scope.iri if read.scope else "?comparison"),
                   {t for label in facts.labels.values() for t in content(label)}) \
        if (not read.whole or read.operator == "list") and may_name_a_paper(text) else []
    # the values its title's words are read as no more ('the nanoconfined *libh4* paper')
    kept = [v for v in [*values, *typos] if not any(p.span[0] <= v.span[0] and v.span[1] <= p.span[1] for p in paper)]
    again = _read(text, facts, sorted([*kept, *paper], key=lambda v: v.span)) if paper else None
    return again if again is not None and (len(again.unplaced) < len(read.unplaced) or (again.whole and read.whole)) \
        else read


def _naming(value: Value, text: str) -> bool:
    """Whether the value stands in a run of words ending in 'comparison', 'one', 'studies', … (two words at most
    between): a word of the comparison's name, maybe."""
    after = words(text[value.span[1]:])[:3]
    return any(w[2] in NAME_END for w in after) and not any(w[2] in ("in", "from", "at", "of") for w in after[:1])


_HOLDS = {"has", "had", "have", "got", "gets", "shows", "showed", "reports", "reported", "achieved", "reached"}


def _read(text: str, facts: Comparisons, values: Sequence[Value]) -> Reading | None:
    """``read_comparison`` with ``values`` the things of the graph it names: the comparison's name read as the one
    run of words that ends it (``scope.narrowed``), else, when that leaves words unplaced, as every word of its label
    the question has ('the *bat* species in the wind turbine *bat* fatality studies')."""
    read = _read_once(text, facts, values, narrow=True)
    if read is None or read.whole:
        return read
    for other in (_read_once(text, facts, values, narrow=False), _read_once(text, facts, values, narrow=True,
                                                                           two=True)):
        if other is not None and len(other.unplaced) < len(read.unplaced):
            read = other
    return read


def _read_once(text: str, facts: Comparisons, values: Sequence[Value], narrow: bool,
               two: bool = False) -> Reading | None:
    """``two``: read as naming two comparisons, what is asked of the first held to the second (``two_scopes``)."""
    found = words(text)
    taken = [v.span for v in values]
    ranges = list(RANGE.finditer(text))
    betweens = [m for m in BETWEEN.finditer(text) if not inside((*m.span(), ""), [r.span() for r in ranges])]
    numbers = betweens + [m for m in NUMBER.finditer(text)  # 'a sample size over 2000': a number, no year
                          if not inside((*m.span(), ""), [b.span() for b in betweens])]
    # 'at least one', 'i mean', 'show up'; a range's own words ('2007 thru 2012 (incl both)'); '2019 itself doesnt
    # count' (no year of its own)
    linking = [(a, b) for a, b, meaning in idioms(text) if meaning == "link" or (meaning == "compare" and ranges)]
    bounds = [m for m in BOUND.finditer(text) if not inside((m.start("year"), m.end("year"), ""), taken + linking)
              and not inside((m.start("year"), m.end("year"), ""), [r.span() for r in ranges + numbers])]
    # 'from 2017 onwards (incl 2017)': the bound's own year said again, as one of its ends
    bare = [(m, INCLUDED.search(text, 0, m.start("year"))) for m in bounds if not m.group("word")]
    again = [(m, incl) for m, incl in bare if incl is not None and any(
        b is not m and b.group("year") == m.group("year") for b in bounds)]
    bounds = [m for m in bounds if all(m is not a for a, _ in again)]
    taken += [(incl.start(), m.end()) for m, incl in again]
    tops = [m for m in TOP.finditer(text) if not inside((m.start("k"), m.end("k"), ""), taken)]
    k = int(tops[0].group("k")) if tops else 1  # 'top 3 studies by effect size'
    taken += [m.span("k") for m in tops[:1]]
    written = {m.start(): (m.end(), unit_after(found, number_end(m))) for m in numbers}  # '2 min': minutes
    units = {at: u for at, (_, u) in written.items() if u is not None}
    taken += [m.span() for m in ranges + bounds + numbers] + [(written[at][0], u[1]) for at, u in units.items()]
    labelled = label_runs(found, facts) + linking  # 'number of participants' is a property, not a count
    ops = [(op, span) for op, span in operators_in(text)
           if not any(a <= span[0] < b for a, b in taken + labelled)]
    taken += [span for _, span in ops]
    free = [w for w in found if not inside(w, taken)]
    pair = two_named(free, found, facts) if two else None
    if two and pair is None:
        return None
    by_words = scope_named(free, facts) if pair is None else None
    scoped: tuple[str, list[Word]] | None
    if pair is not None:
        scoped = pair[0]
        free = [w for w in free if w not in pair[1][1] and w[2] != "both"]
    elif by_words:  # wide: with the other words of its label, save one saying what is asked ('which *drugs* …')
        kept = narrowed(by_words, found, facts)
        scoped = widened(kept if narrow else repeated(kept, by_words, found, WH | ALSO), free, found, facts)
    else:
        scoped = scope_meant(free, found, facts)
    scope = scoped[0] if scoped else ""
    free = [w for w in free if not scoped or w not in scoped[1]]
    published = PUBLISHED.search(text) is not None  # 'where were they published': their venues, not a place
    venue = [w for w in free if w[2] == "where" and published]
    props = properties_named([w for w in free if w not in venue and not inside(w, linking)], facts, scope)
    claimed = {w for _, ws in props for w in ws}
    other_words = property_meant(found, [w for w in free if w not in claimed and w not in venue and
                                          not inside(w, linking)], facts, scope)
    if other_words is not None:  # 'which plastic types …' of the comparison's 'Polymer'
        props, claimed = [*props, other_words], claimed | set(other_words[1])
    if scope:  # a property another comparison carries, named whole: none of this one's contributions give it
        props += [(p, ws) for p, ws in properties_named([w for w in free if w not in claimed and w not in venue and
                                                          not inside(w, linking)], facts, "")
                  if p not in facts.carried(scope) and full_label(ws, unparenthesised(facts.property_labels[p]))
                  and not any(w[2] in PROPERTY_WORDS for w in ws)]
        claimed = {w for _, ws in props for w in ws}
    free = [w for w in free if w not in claimed]
    # 'avg number of patients': 'number of' begins the property's label ('Number of patients studied'), no count
    ops = [(op, (a, b)) for op, (a, b) in ops if not any(
        0 <= ws[0][0] - b <= 1 and facts.property_labels[p].lower().startswith(text[a:b].lower()) for p, ws in props)]
    about = any(w[2] in ("comparison", "comparisons") for w in found)  # 'which comparisons have a 2019 paper'
    if not (scoped or props or values or about) or (not scoped and not all(labelled_value(v, facts) for v in values)):
        return None  # about something else: a dataset, a model (no comparison named, a value of no labelled property)
    names = [Linked(v.span, "value", v.iri, v.label) for v in values]
    names += [Linked((ws[0][0], ws[-1][1]), "property", p, facts.property_labels[p]) for p, ws in props]
    scope_link = Linked((scoped[1][0][0], scoped[1][-1][1]), "comparison", scope, facts.labels[scope]) \
        if scoped else None
    conditions = stated(values, props, bounds, numbers, {at: u[0] for at, u in units.items()}, facts,
                        facts.carried(scope) if scope else ())
    if conditions is not None:
        conditions += [Condition(m.span(), "year", op, m.group(g) or m.group("start")) for m in ranges
                       for g, op in (("low", ">="), ("high", "<="))]
    if conditions is not None and again:
        ends = {m.group("year") for m, _ in again}
        conditions = [replace(c, op=c.op + "=") if c.on == "year" and c.value in ends and c.op in ("<", ">") else c
                      for c in conditions]
    if conditions is None:
        return Reading(text, "", "list", tuple(names), (), scope_link,
                       unplaced=("(which property a value or a number is of, in the unit the graph gives it)",))
    free = [w for w in free if not inside(w, linking) and not heads(w, found, [n.span for n in names])
            and not unit(w, found, text)]
    named = {n.iri for n in names}
    names += [Linked(c.span, "property", c.on, facts.property_labels.get(c.on, c.on)) for c in conditions
              if c.on.startswith("orkgp:") and c.on not in named]  # the property a value is named by
    if pair is not None:  # what is asked found in the second comparison too (or, negated, not)
        span = (pair[1][1][0][0], pair[1][1][-1][1])
        names.append(Linked(span, "comparison", pair[1][0], facts.labels[pair[1][0]]))
        conditions.append(Condition(span, "comparison", "=", facts.labels[pair[1][0]], pair[1][0]))
    if any(w[2] in PROPERTY_WORDS for w in free):  # 'what properties … excluding research problem'
        listed = [(w, k) for w in free for k, said in KIND_WORDS.items() if w[2] in said.split()]
        dropped, read_out = left_out(free, listed, props, facts.property_labels)
        conditions += dropped
        free = [w for w in free if w not in read_out]
        props = [(p, ws) for p, ws in props if not any(w in read_out for w in ws)]
    conditions, negations = negated(conditions, free, text)
    conditions, lacking = absent(conditions, [w for w in free if w not in negations], props)
    conditions = either(conditions, text)
    free = [w for w in free if w not in negations and w not in lacking]
    kinds = [(w, k) for w in free for k, said in KIND_WORDS.items() if w[2] in said.split()]
    kinds += [(w, "venue") for w in venue]
    unplaced = [w[2] for w in free if not any(w == k[0] for k in kinds) and
                (not scaffold(w[2]) or (w[2] in STOPWORDS and (capitals(text[w[0]:w[1]]) or after_the(w, found))))]
    # ('US', 'the us': a name, not 'PLS' nor 'us')
    operator = ops[0][0] if ops else TABLE["yesno" if TABLE["yesno"].found(text) else "list"]
    if len({op.name for op, _ in ops}) > 1:
        unplaced += [text[a:b] for _, (a, b) in ops[1:]]
    conditioned = {c.on for c in conditions}
    open_props = [p for p, _ in props if p not in conditioned]
    at = next((span[1] for op, span in ops if op is operator), -1)
    # 'how many contributions per country', 'avg accuracy per dataset': one row for each value of a property named
    per = [p for p, ws in props if p in open_props and grouped_by(ws[0], found)]
    per += [k for w, k in kinds if k in GROUPS and grouped_by(w, found)]  # 'how many papers per year'
    grouped = per[0] if len(per) == 1 and operator.aggregate else ""
    if not grouped and any(op is operator and text[a:b].lower() == "per" for op, (a, b) in ops):
        unplaced.append("per")  # 'papers per …' counts for each of something not read
    kinds = [(w, k) for w, k in kinds if k != grouped]
    open_props = [p for p in open_props if p != grouped]
    # 'the newest paper + where was it published': a second thing asked, joined by a sign
    asked, by, also = asked_of(found, kinds, open_props, props, (operator.name, at), bool(scoped),
                               joined_at(text, found))
    if operator.name == "list":  # 'contribs with a yield above 700, w/ the yields': the bounded values shown beside
        also += [c.on for c in conditions if c.op in ("<", ">", "<=", ">=") and c.on not in (asked, *also) and any(
            w[0] >= c.span[1] for p, ws in props if p == c.on for w in ws)]
    others = [c for c in conditions if c.op in ("other", "!=")]
    if not asked and len(others) == 1 and (others[0].op == "other" or any(
            n.kind == "property" and n.iri == others[0].on and n.span[1] <= others[0].span[0] for n in names)):
        # 'countries in X other than Y', 'countries in X except Y': the values of that property, Y left out
        asked = others[0].on
        conditions[conditions.index(others[0])] = replace(others[0], op="other")
    if venue and "venue" not in (asked, grouped, *also):  # 'where … published' neither asked first nor beside
        unplaced += [w[2] for w in venue]
    if operator.order and by and asked == by and scoped and any(
            found[i][2] == "which" and (found[i + 1] in scoped[1] or found[i + 1][2] in _HOLDS)
            for i in range(len(found) - 1)):
        # 'which rainwater system had the highest cost', '… which has the lowest cost': the comparison's own things
        asked = "contribution"
    if grouped and operator.name != "count" and by != asked:  # a ranking of things, not of values: no grouping
        open_props, grouped = open_props + [grouped], ""
    operator = directed(operator, [text[a:b].lower() for op, (a, b) in ops if op is operator], by, facts, unplaced)
    if asked == "contribution" and operator.aggregate != "COUNT" and not operator.ask and "paper" not in also:
        also = [*also, "paper"]  # listed: each with its paper (a contribution's label may say nothing)
    # 'and which contribution is it': the contribution, with its paper (as contributions asked are listed)
    also = list(dict.fromkeys(x for a in also for x in (("contribution", "paper") if a == "contribution" else (a,))))
    # a property the things asked carry ('comparisons that report an effect size'): held to be given; listed
    # papers or contributions are shown with its values too (what they report)
    for p in carried(found, props, [p for p in open_props if p not in (asked, by, *also)]):
        if asked == "comparison" or operator.aggregate or operator.ask or not asked or asked.startswith("orkgp:"):
            conditions.append(Condition(next(n.span for n in names if n.iri == p), p, "present", ""))
        else:
            also.append(p)
        open_props.remove(p)
    # a property named that the answer neither lists, ranks by nor holds to ('some list it as participants'), unless
    # its words go on the comparison's name ('the tandem *solar cell* comparison', 'the tandem *cells*')
    naming = [i for i, w in enumerate(found) if (scoped and w in scoped[1]) or w[2] in ("comparison", "comparisons")]
    unplaced += [facts.property_labels[p] for p, ws in props if p in open_props and p not in (asked, by, *also)
                 and not any(found.index(ws[0]) - 1 == i or found.index(ws[-1]) + 1 == i for i in naming)]
    if operator.order and (operator.aggregate or operator.place) and by and by == asked and also[:1] in (
            ["paper"], ["contribution"]):  # 'the highest accuracy and in which paper': the paper, its value beside
        asked, also = also[0], []
    # a paper's field, problem, venue or year named, and neither asked, ranked by, beside nor counted per: a second
    # thing asked that the answer would leave out ('the newest paper + research field')
    unplaced += [w[2] for w, k in kinds if k in OF_PAPER and k not in (asked, by, grouped, *also)]
    if also and (operator.ask or operator.often or (operator.aggregate and (by == asked or not by))):
        unplaced += [f"(also {a})" for a in also]  # a count and a list at once: not one query's answer
    # 'was any of it done in Norway?', 'anything in X published after 2019': the papers
    if operator.ask and asked.startswith("orkgp:") and asked not in conditioned and WHICH_ONE.search(text):
        operator = TABLE["list"]  # 'is there a country that shows up in both': which ones (none: no)
    asked = asked or ("paper" if operator.ask or published or ANY.search(text) else "")
    if not asked:
        unplaced.append("(what is asked)")
    ranked_by = MOST_THINGS.search(text)
    if operator.name in ("max", "min") and not by and ranked_by is not None and ranked_by.start() == at - len(
            ranked_by.group(1)) and asked not in ("contribution", "paper"):
        # 'which comparison has the most contribs', 'the country with the fewest papers': ranked by how many
        operator, by = TABLE["most" if operator.name == "max" else "rarest"], \
            "paper" if ranked_by.group("paper") else ""
    if operator.numeric and by.startswith("orkgp:") and facts.numeric is not None and by not in facts.numeric:

        # values that are things, not numbers: 'the season that comes up the most' is the most common one; a highest
        # or an average of them is nothing
        often = TABLE["most" if operator.name == "max" else "rarest"] if operator.name in ("max", "min") else None
        said = [text[a:b].lower() for op, (a, b) in ops if op is operator]
        if often is not None and said and all(w in ("most", "least", "fewest") for w in said):
            operator, asked, by = often, by, ""
        else:
            by = ""
    if operator.numeric and not by:
        unplaced += [text[a:b] for op, (a, b) in ops if op is operator]
    # a bound on each paper's contributions: listed or counted whole only (not ranked, not counted per year)
    if operator.name not in ("list", "count") or grouped:
        unplaced += [text[slice(*c.span)] for c in conditions if c.on == "contribution"]
    if operator.place:  # 'the 2nd highest cost': the place its ordinal says
        k = next(place_of(text[a:b]) for op, (a, b) in ops if op is operator)
    elif k > 1 and not (operator.order and by and by != asked):  # the first k of a ranking of things only
        unplaced.append(str(k))
    return Reading(text, asked, operator.name, tuple(names), tuple(conditions), scope_link, by, k=k, per=grouped,
                   also=tuple(also), unplaced=tuple(dict.fromkeys(unplaced)))
