"""A witness of the 2023 ORKG rebuilt from SciQA: an RDF graph in which SciQA's gold queries return their answers.

``facts`` reads the gold queries and answers, ``datasets`` and ``links`` turn each query shape into nodes and
edges (``witness`` holds them), ``store`` builds the graph once under ``$KGQA_HOME`` and ``coverage`` checks it.
"""
