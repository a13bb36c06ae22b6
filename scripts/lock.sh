#!/usr/bin/env bash
# Regenerates the hashed locks from pyproject.toml's exact pins; run it after changing a pin there.
#   requirements.lock      every package the bot installs (transitive ones too): exact versions, sha256 of each file
#   requirements-dev.lock  the same plus the `test` extra, constrained to requirements.lock's versions
# torch stays out of both: scripts/install.sh installs its CPU build first. pip-compile hashes every file of each
# pinned version on every index pip is configured with (PyPI and any local mirror, whose files may differ), so run
# it where pip reaches the indexes that installs will use. pip-tools lives in a scratch venv, not in the locks.
# pip-compile resolves for the Python that runs it and drops a pin whose marker is false there, so the pins that only
# some Python 3.11 releases need (pyproject.toml's dependencies with a marker, e.g. async-timeout, which redis needs
# below 3.11.3: Debian 12 ships 3.11.2) are compiled on their own and appended to both locks with their marker.
# Usage: bash scripts/lock.sh
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tools=${KGQA_LOCK_TOOLS:-${TMPDIR:-/tmp}/kgqa-lock-tools}
[ -x "$tools/bin/python" ] || python3 -m venv "$tools"
"$tools/bin/python" -m pip install --quiet --disable-pip-version-check pip==26.3 pip-tools==7.6.2
compile=("$tools/bin/pip-compile" --quiet --generate-hashes --unsafe-package torch --strip-extras
  --no-emit-index-url --no-emit-find-links)
cd "$here"
export CUSTOM_COMPILE_COMMAND="bash scripts/lock.sh"  # the command the locks' header names
"${compile[@]}" pyproject.toml --output-file requirements.lock
"${compile[@]}" pyproject.toml --extra test --constraint requirements.lock --output-file requirements-dev.lock
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# "name==version ; marker" for each pin whose marker this Python does not meet (pip vendors `packaging`)
"$tools/bin/python" - pyproject.toml > "$scratch/marked.txt" <<'PY'
import sys, tomllib
from pip._vendor.packaging.requirements import Requirement
for line in tomllib.load(open(sys.argv[1], "rb"))["project"]["dependencies"]:
    req = Requirement(line)
    if req.marker is not None and not req.marker.evaluate():
        print(f"{req.name}{req.specifier} ; {req.marker}")
PY
[ -s "$scratch/marked.txt" ] || exit 0
cut -d';' -f1 "$scratch/marked.txt" > "$scratch/marked.in"
"${compile[@]}" --no-header --no-annotate "$scratch/marked.in" --output-file "$scratch/marked.lock"
# each "name==version \" line gets its marker back; the hash lines below it stay as they are
"$tools/bin/python" - "$scratch/marked.txt" "$scratch/marked.lock" > "$scratch/marked.out" <<'PY'
import sys
from pip._vendor.packaging.requirements import Requirement
from pip._vendor.packaging.utils import canonicalize_name as canon
markers = {canon(Requirement(line.split(";")[0]).name): line.split(";", 1)[1].strip() for line in open(sys.argv[1])}
print("\n# pins only some Python 3.11 releases need (pyproject.toml's markers), compiled on their own")
for line in open(sys.argv[2]).read().splitlines():
    name = canon(line.split("==")[0].strip()) if "==" in line and not line.startswith(" ") else None
    if name is not None and name not in markers:
        sys.exit(f"lock.sh: {name} is a dependency of a marked pin; pin it in pyproject.toml with the same marker")
    print(line.replace(" \\", f" ; {markers[name]} \\", 1) if name else line)
PY
for lock in requirements.lock requirements-dev.lock; do cat "$scratch/marked.out" >> "$lock"; done
