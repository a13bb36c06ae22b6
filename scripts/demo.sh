#!/usr/bin/env bash
# The main job on the embedded defaults: install, build the example store if missing, answer a sample question.
# Offline, no Slack, no GPU: the adapter generator and the live ORKG endpoint with the SciQA snapshot as fallback.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/install.sh"
if [ -z "${SCIQA_DIR:-}" ] && [ -d "$here/../shared/sciqa" ]; then
  export SCIQA_DIR="$here/../shared/sciqa"
fi
kgqa="$here/.venv/bin/kgqa"
"$kgqa" index
"$kgqa" ask "${1:-Which model has achieved the highest Accuracy score on the Story Cloze Test benchmark dataset?}"
