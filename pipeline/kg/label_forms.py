"""SciQA's label tests, ``FILTER(str(?label) = "x")``, answered by an endpoint's index: Virtuoso evaluates such a
filter as a scan of every label of the class (~4 s for a ranked question on a graph of 2.8 M triples), but finds a
``VALUES ?label { "x" "x"^^xsd:string … }`` joined before it by its object index (~50 ms). The forms are every kind
of literal (datatype, language) the endpoint's ``rdfs:label`` objects have, read once; the filter stays, so the
query keeps its meaning (``pipeline.kg.indexed``, as pyoxigraph gets it)."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable

from pipeline.errors import KgqaError
from pipeline.kg.indexed import label_values
from pipeline.records import Rows
from pipeline.sparql.literal import XSD_STRING, label_literals

KINDS_QUERY = ("SELECT DISTINCT ?d ?g WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?l FILTER(isLiteral(?l)) "
               "BIND(STR(DATATYPE(?l)) AS ?d) BIND(LANG(?l) AS ?g) }")
PLAIN = frozenset({"", XSD_STRING, "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"})
RETRY_S = 300.0


class LabelForms:
    """Rewrites a query's label tests for an endpoint, once it knows the kinds of label literals the endpoint has
    (asked by ``select`` at the first query with such a test; until then, or when it cannot say, queries go as
    written)."""

    def __init__(self, select: Callable[[str], Rows]) -> None:
        self._select = select
        self._kinds: tuple[tuple[str, str], ...] | None = None
        self._failed_at = float("-inf")
        self._lock = threading.Lock()

    def rewrite(self, query: str) -> str:
        if "str(" not in query.lower() or "label" not in query.lower():
            return query
        kinds = self.kinds()
        if kinds is None:
            return query
        return label_values(query, lambda text, any_form: self._forms(text, kinds) if any_form else None,
                            label_only=True)

    def kinds(self) -> tuple[tuple[str, str], ...] | None:
        """(datatype, language) of the endpoint's label literals; None when it could not be read."""
        with self._lock:
            if self._kinds is None and time.monotonic() - self._failed_at >= RETRY_S:
                try:
                    rows = self._select(KINDS_QUERY).rows
                    self._kinds = tuple(sorted({(r.get("d", {}).get("value", ""), r.get("g", {}).get("value", ""))
                                                for r in rows}))
                except KgqaError:
                    self._failed_at = time.monotonic()
            return self._kinds

    @staticmethod
    def _forms(text: str, kinds: tuple[tuple[str, str], ...]) -> list[str] | None:
        """``text`` as a plain, an xsd:string (two terms in Virtuoso) and every language-tagged label literal held;
        None (the test is left alone) when some labels have another datatype, whose literal of this text may not
        even be well-formed."""
        if any(not lang and datatype not in PLAIN for datatype, lang in kinds):
            return None
        return label_literals(text, [lang for _, lang in kinds if lang])
