"""Question sets generated over a graph: each intent asked about every name of its kind, in several wordings, scored
by running a hand-written gold query per intent on the same graph (never a stored answer)."""
