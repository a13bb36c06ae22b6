#!/usr/bin/env bash
# The main job on the embedded defaults: install, build the example store if missing, answer a sample question.
# No Slack, no GPU; the network only to install packages on the first run: the adapter generator and the live ORKG
# endpoint, with the graph rebuilt from SciQA as fallback when it cannot be reached (so, once installed, offline).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/install.sh"
if [ -z "${SCIQA_DIR:-}" ] && [ -d "$here/../shared/sciqa" ]; then
  export SCIQA_DIR="$here/../shared/sciqa"
fi
kgqa="$here/.venv/bin/kgqa"
"$kgqa" index
"$kgqa" ask "${1:-Which model has achieved the highest Accuracy score on the Story Cloze Test benchmark dataset?}"
