#!/usr/bin/env bash
# Regenerates the hashed locks from pyproject.toml's exact pins; run it after changing a pin there.
#   requirements.lock      every package the bot installs (transitive ones too): exact versions, sha256 of each file
#   requirements-dev.lock  the same plus the `test` extra, constrained to requirements.lock's versions
# torch stays out of both: scripts/install.sh installs its CPU build first. pip-compile hashes every file of each
# pinned version on every index pip is configured with (PyPI and any local mirror, whose files may differ), so run
# it where pip reaches the indexes that installs will use. pip-tools lives in a scratch venv, not in the locks.
# Usage: bash scripts/lock.sh
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tools=${KGQA_LOCK_TOOLS:-${TMPDIR:-/tmp}/kgqa-lock-tools}
[ -x "$tools/bin/python" ] || python3 -m venv "$tools"
"$tools/bin/python" -m pip install --quiet --disable-pip-version-check pip==26.3 pip-tools==7.6.2
compile=("$tools/bin/pip-compile" --quiet --generate-hashes --unsafe-package torch --strip-extras
  --no-emit-index-url --no-emit-find-links pyproject.toml)
cd "$here"
export CUSTOM_COMPILE_COMMAND="bash scripts/lock.sh"  # the command the locks' header names
"${compile[@]}" --output-file requirements.lock
"${compile[@]}" --extra test --constraint requirements.lock --output-file requirements-dev.lock
