"""Data derived once and kept on disk (question forms, canonical snapshot queries): written atomically under a key
that names everything it was derived from — the input's state and the source of the code that derives it — so a
file is used only for exactly what it was made from, and any change (data or code) derives it again."""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).resolve().parents[1]  # pipeline/


@lru_cache(maxsize=16)
def code_digest(*parts: str) -> str:
    """A digest of the source of these modules or packages (paths relative to ``pipeline/``)."""
    digest = hashlib.sha256()
    for part in parts:
        path = PACKAGE / part
        for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            digest.update(file.relative_to(PACKAGE).as_posix().encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


def load_json(path: Path, key: str) -> Any:
    """What was saved at ``path`` under ``key``; None when absent, saved under another key, or unreadable."""
    try:
        with path.open(encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("key") != key:
        return None
    return data.get("data")


def save_json(path: Path, key: str, data: Any) -> None:
    """Save ``data`` under ``key``, replacing the file atomically (a crash leaves the previous one, never half one).
    A home that cannot be written is no error: the caller derives the data again next time."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({"key": key, "data": data}, fh, ensure_ascii=False)
        os.replace(tmp, path)
    except OSError:
        Path(tmp).unlink(missing_ok=True)
