"""The example store: Chroma (embedded or server), the encoder, form-aware retrieval, the team's pairs."""
