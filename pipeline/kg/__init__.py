"""Knowledge graphs: a remote SPARQL endpoint and a local pyoxigraph store."""
