"""The checks a query passes before it runs, each returning one ``Judgement``.

A language model's reply is read first (``ReplyCheck``: the repair chain, the graph's vocabulary, variables it never
binds); then every query, whoever wrote it, is held against what the question asks (``IntentCheck``) and its names
against the graph's labels (``NamesCheck``). The read-only gate and the empty result are the loop's, at run time."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from pipeline.generators.checks import check as repair
from pipeline.loop.verdicts import Call, Judgement, noted, passed
from pipeline.matching.forms import Labels
from pipeline.names.check import Checked, held_message
from pipeline.names.vocabulary import unknown
from pipeline.parts import IntentReview, KnowledgeGraph
from pipeline.records import Ask, Generation, Retrieved, Verdict
from pipeline.schema.shapes import Shapes, never_met
from pipeline.sparql.scope import filtered_but_unbound, required_after_optional, selected_but_unbound

SYNTAX_NOTE = "re-asked the model with the parser's error"


@dataclass(frozen=True)
class ReplyCheck:
    """A model's query as written: parsed (with the safe fixes), its labels spelled as the question spells them, the
    stored vocabulary flagged; then the graph's own predicates and classes (``graph_names``) and whether some node
    carries each subject's predicates together (``shapes``), the variables it
    selects but never binds and those only an OPTIONAL binds that a later pattern requires — all told at once when
    several are wrong, as there is one re-prompt."""

    vocabulary: Callable[[], frozenset[str]] | None = None  # the stored queries' names (unknown ones are noted)
    labels: Callable[[], Labels] | None = None
    graph_names: Callable[[], frozenset[str] | None] | None = None
    shapes: Callable[[], Shapes | None] | None = None  # which predicates the graph's nodes carry together
    name: str = "syntax"

    def judge(self, question: str, generation: Generation) -> Judgement:
        sparql = generation.sparql or ""
        result = repair(sparql, question, self.vocabulary() if self.vocabulary else frozenset(),
                        self.labels() if self.labels else None)
        if not result.ok:
            error = result.errors[0]
            return Judgement(Call.ASK_AGAIN, "syntax", generation, why=error,
                             ask=Ask.SYNTAX, told=f"That query does not parse ({error}).", note=SYNTAX_NOTE,
                             verdict=Verdict.SYNTAX)
        fixed = noted(replace(generation, sparql=result.fixed), result.notes)
        names = self.graph_names() if self.graph_names else None
        missing = "; ".join(unknown(result.fixed, names)) if names else ""
        shapes = self.shapes() if self.shapes and not missing else None
        apart = never_met(result.fixed, shapes) if shapes else ""
        never, late = selected_but_unbound(result.fixed), required_after_optional(result.fixed)
        unread = filtered_but_unbound(result.fixed)
        unbound = "; ".join(filter(None, (never, late, unread)))
        told = [(missing, f"the query uses names the graph does not have: {missing}",
                 f"That query uses names the knowledge graph does not have: {missing}. Use only the graph's own "
                 "predicates and classes."),
                (apart, apart, f"That query can never match: {apart}. Use each predicate on the node the graph uses "
                 "it on."),
                (never, never, f"In that query {never}, so it answers with nothing. Bind every selected variable in "
                 "a triple pattern of the WHERE clause, or select only variables its patterns bind."),
                (late, late, f"In that query {late}, so where the OPTIONAL finds nothing the pattern after it "
                 "matches anything in the graph. Put the patterns that use it inside the OPTIONAL, or make the "
                 "OPTIONAL's patterns required."),
                (unread, unread, f"In that query {unread}, so the FILTER fails on every row and it answers with "
                 "nothing. Bind that variable in a triple pattern (its label: ?thing rdfs:label ?thing_lbl) before "
                 "filtering on it.")]
        faults = [(reason, ask) for fault, reason, ask in told if fault]
        if not faults:
            return passed("syntax", generation, fixed)
        said = "; ".join(filter(None, (missing, apart, unbound)))
        kind = (Ask.VOCABULARY, Verdict.VOCABULARY) if missing or apart else (Ask.UNBOUND, Verdict.UNBOUND)
        return Judgement(Call.ASK_AGAIN, "vocabulary" if missing or apart else "unbound", fixed,
                         why="; ".join(r for r, _ in faults), ask=kind[0], told=" ".join(a for _, a in faults),
                         note=f"re-asked the model: {said}", verdict=kind[1])


@dataclass(frozen=True)
class IntentCheck:
    """Does the query do what the question asks (``pipeline.intent``)? A query that does stands (its notes say what
    the guard could not tell; bare things are answered by their labels); one that does not gives way to the query
    the composer writes for the ask (NEXT), or is declined with what it lacks and the closest question it can answer.
    A generation with no query may get a composed one too."""

    review: IntentReview
    kg: KnowledgeGraph
    name: str = "intent"

    def judge(self, question: str, generation: Generation, examples: Sequence[Retrieved]) -> Judgement:
        reviewed = self.review.review(question, generation, examples, self.kg)
        after = reviewed.generation
        if after.sparql and after.generator == "intent" and generation.generator != "intent":
            return Judgement(Call.NEXT, "intent", after, why=_lacked(after))
        if after.sparql:
            return passed("intent", generation, after)
        return Judgement(Call.DECLINE, "intent", after, why=reviewed.why, offer=reviewed.offer,
                         choices=reviewed.choices)


def _lacked(composed: Generation) -> str:
    """Why the composer's query took over, from its note ('the query tgi wrote lacked …; composed from …')."""
    return composed.notes[0].split("; composed from", 1)[0] if composed.notes else ""


@dataclass(frozen=True)
class NamesCheck:
    """Every label the query filters on, as the graph has it (``pipeline.names.check``): respelled when that is
    clear, else the query is held and the reply asks which name was meant."""

    names: Callable[[str, str], Checked]
    name: str = "names"

    def judge(self, question: str, generation: Generation) -> Judgement:
        checked = self.names(generation.sparql or "", question)
        if checked.held:  # the query as written stays on show, beside the question it raises
            return Judgement(Call.DECLINE, "names", noted(generation, checked.notes), why=held_message(checked.held),
                             resolutions=checked.resolutions)
        # the query as written stays the generation's (a retry is compared with it); the respelled one runs
        return passed("names", generation, noted(generation, checked.notes), checked.resolutions, checked.sparql)
