#!/usr/bin/env bash
# The one install recipe (CI, the Dockerfile and the README commands all use it): a venv with torch 2.13.0 (CPU)
# first, then every other package from the hashed lock (requirements.lock, made by scripts/lock.sh), then this project.
# Usage: [KGQA_DEV=1] [KGQA_PYTHON=python3.11] scripts/install.sh [VENV_DIR]   (default: .venv, made with python3)
set -euo pipefail
python=${KGQA_PYTHON:-python3}
# The locks are compiled for Python 3.11, any 3.11.x (markers carry what older 3.11 releases need; Debian 12: 3.11.2).
if ! "$python" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null; then
  version=$("$python" -V 2>/dev/null) || version="not found"
  echo "scripts/install.sh: needs Python 3.11 (any 3.11.x); $python is $version - set KGQA_PYTHON" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")/.." && pwd)
venv=${1:-${KGQA_VENV:-$here/.venv}}
stamp="$venv/.kgqa-installed"
dev=${KGQA_DEV:-0}  # 1: requirements-dev.lock instead: the same plus the test and lint tools
base=$(cat "$here/requirements.lock" "$here/requirements-dev.lock" "$here/pyproject.toml" | sha256sum | cut -c1-16)
want=$base-$dev
have=$(cat "$stamp" 2>/dev/null || true)
if [ "$have" = "$want" ] || [ "$have" = "$base-1" ]; then  # a dev install holds everything
  exit 0
fi
"$python" -m venv "$venv"
pip=("$venv/bin/python" -m pip install --quiet --disable-pip-version-check)
# a test install skips byte-compiling every module (2m10 -> 1m20 here): Python compiles the few the tests import as
# they are imported; the bot's install (the Dockerfile's) compiles them all, for a container that cannot write them
if [ "$dev" = 1 ]; then pip+=(--no-compile); fi
# TORCH_INDEX_URL may name a CPU-only wheel index where no CPU build of torch lies on disk (e.g. in Docker).
# torch's own dependencies come from the lock, hashed like the rest.
"${pip[@]}" --no-deps ${TORCH_INDEX_URL:+--index-url "$TORCH_INDEX_URL"} torch==2.13.0
lock=$here/requirements.lock
if [ "$dev" = 1 ]; then lock=$here/requirements-dev.lock; fi
# Hash-checking mode: every file's sha256 must be in the lock, and --no-deps brings nothing the lock does not list...
"${pip[@]}" --require-hashes --no-deps -r "$lock"
"${pip[@]}" --no-deps --no-build-isolation -e "$here"
# ...so a dependency missing from the lock fails here.
"$venv/bin/python" -m pip check
echo "$want" > "$stamp"
echo "installed into $venv" >&2
