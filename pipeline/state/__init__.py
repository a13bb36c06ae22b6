"""What the product keeps, one package per thing kept: ``limits`` (per-caller rate limits), ``admission`` (places in
the worker pool and the deployment's waiting questions), ``answers`` (the answer cache) and ``threads`` (a thread's
earlier turns). Each package's ``base`` holds the contract (a ``Protocol``) and its backends sit beside it: this
process's memory, a SQLite file (replicas on one host) and Redis (replicas on any host, through ``link``)."""
