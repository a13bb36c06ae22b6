"""The example store: Chroma (embedded or server), the encoder, form-aware retrieval, the team's pairs, and data
derived once and kept on disk (question forms, canonical snapshot queries)."""
