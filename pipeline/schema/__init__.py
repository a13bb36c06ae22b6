"""The graph as a language model is given it: a schema of its classes, predicates and comparisons with what each
means, the question's names linked to it, and a grammar of the names it holds (``grounding.Grounding``); the ORKG's
own vocabulary beside what the graph says (``vocabulary``) and the predicates a question is about (``properties``)."""
