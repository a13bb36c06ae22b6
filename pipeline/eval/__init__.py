"""Evaluation harness: score runs as the SciQA challenge does, measure retrieval, write reports."""
