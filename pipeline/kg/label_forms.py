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
    """Rewrites a query's label tests for an endpoint, once it knows the kinds of label literals the endpoint has.
    They are asked by ``select`` in the background at the first query with such a test (on a graph of millions of
    labels the read may take long: no question waits for it); until then, or when the endpoint cannot say, queries
    go as written, and it is asked again only after RETRY_S."""

    def __init__(self, select: Callable[[str], Rows]) -> None:
        self._select = select
        self._kinds: tuple[tuple[str, str], ...] | None = None
        self._failed_at = float("-inf")
        self._lock = threading.Lock()
        self._reading: threading.Thread | None = None

    def rewrite(self, query: str) -> str:
        if "str(" not in query.lower() or "label" not in query.lower():
            return query
        kinds = self.kinds()
        if kinds is None:
            return query
        return label_values(query, lambda text, any_form: self._forms(text, kinds) if any_form else None,
                            label_only=True)

    def kinds(self, wait: float = 0.0) -> tuple[tuple[str, str], ...] | None:
        """(datatype, language) of the endpoint's label literals, waiting up to ``wait`` s for a read under way (one
        is started when none is); None until known or when it could not be read."""
        with self._lock:
            if self._kinds is not None:
                return self._kinds
            if (self._reading is None or not self._reading.is_alive()) \
                    and time.monotonic() - self._failed_at >= RETRY_S:
                self._reading = threading.Thread(target=self._read, daemon=True, name="kgqa-label-forms")
                self._reading.start()
            reading = self._reading
        if reading is not None and wait > 0:
            reading.join(wait)
        return self._kinds

    def _read(self) -> None:
        try:
            rows = self._select(KINDS_QUERY).rows
            self._kinds = tuple(sorted({(r.get("d", {}).get("value", ""), r.get("g", {}).get("value", ""))
                                        for r in rows}))
        except KgqaError:
            self._failed_at = time.monotonic()

    @staticmethod
    def _forms(text: str, kinds: tuple[tuple[str, str], ...]) -> list[str] | None:
        """``text`` as a plain, an xsd:string (two terms in Virtuoso) and every language-tagged label literal held;
        None (the test is left alone) when some labels have another datatype, whose literal of this text may not
        even be well-formed."""
        if any(not lang and datatype not in PLAIN for datatype, lang in kinds):
            return None
        return label_literals(text, [lang for _, lang in kinds if lang])
