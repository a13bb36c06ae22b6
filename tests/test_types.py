"""The type check: mypy, strict, over the product (``pipeline/`` and ``bot/``) and the stand-ins it is tested against
(``standins/``), as ``[tool.mypy]`` in pyproject.toml says; any error fails the suite, so CI runs it."""
from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def test_the_configuration_is_strict_over_the_product() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["mypy"]
    assert config["strict"] is True and config["files"] == ["pipeline", "bot", "standins"]
    for override in config.get("overrides", []):  # silenced only per library, never for the project's own code
        assert not [m for m in override["module"] if m.split(".")[0] in ("pipeline", "bot", "standins")]
        assert set(override) == {"module", "ignore_missing_imports"}


@pytest.mark.slow
def test_mypy_finds_no_error_in_pipeline_and_bot() -> None:
    # mypy's own cache (it checks each entry against the files) kept with the user's caches, not in the checkout: a
    # fresh clone on a machine that type-checked before takes seconds, not a minute and a half
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kgqa" / "mypy"
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=REPO, capture_output=True, text=True,
                          env={**os.environ, "MYPY_CACHE_DIR": str(cache)})
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert done.stdout.startswith("Success: no issues found")
