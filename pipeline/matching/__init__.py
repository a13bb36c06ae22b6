"""Matching a question to stored forms: wording, alignment, question forms, slot filling."""
