#!/usr/bin/env bash
# The Dockerfile built and run for real, with podman, on a Debian 12 base made here from Debian's packages (no
# registry needed): the image answers the README's question offline, `python -m bot` passes its HEALTHCHECK and
# answers a signed Slack event (Slack's Web API played by standins on this host), it runs as its non-root user and
# its store survives a restart in the volume; then compose.yaml's `here` profile (two replicas + Redis + Chroma, the
# adapter generator) answers one event once. Prints the figures docs/results/operations.md quotes (build time, image size, time
# to the first answer). Needs root (apt-get, debootstrap); about 10-30 minutes, most of it the build.
# Usage: bash scripts/container_check.sh        (SCIQA_DIR: default ../shared/sciqa)
#   KGQA_CHECK_KEEP=1   keep the image built (the base image is always kept: it is the cache)
#   KGQA_CHECK_REUSE=1  use that kept image instead of building again (its build time is then not measured)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
sciqa=$(cd "${SCIQA_DIR:-$here/../shared/sciqa}" && pwd)
base=localhost/kgqa-base:bookworm
image=localhost/kgqa-bot:check
podman=(podman --runtime runc)  # crun fails on this machine's hybrid cgroups
py=(python3)  # the host needs podman and a python3; Slack's stand-in runs in the image, on this checkout's code
free_ports() { "${py[@]}" -c 'import socket, sys
ss = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in ss: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])' "$1"; }
work=$(mktemp -d)
volume=kgqa-check-data-$$
say() { printf '\n== %s\n' "$*" >&2; }
fail() { echo "container check FAILED: $*" >&2; exit 1; }
cleanup() {
  "${podman[@]}" rm -f -t 5 kgqa-check-bot-$$ >/dev/null 2>&1 || true
  [ -n "${here_up:-}" ] && here_down
  "${podman[@]}" volume rm -f "$volume" >/dev/null 2>&1 || true
  if [ -n "${SLACK_PID:-}" ]; then  # end of its input: the stand-in exits, and --rm removes its container
    eval "exec ${SLACK[1]}>&-"
    wait "$SLACK_PID" 2>/dev/null || true
  fi
  "${podman[@]}" rm -f -v -t 5 "kgqa-check-slack-$$" >/dev/null 2>&1 || true
  [ "${KGQA_CHECK_KEEP:-0}" = 1 ] || "${podman[@]}" rmi -f "$image" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

say "podman, runc and debootstrap"
if ! command -v podman >/dev/null || ! command -v runc >/dev/null || ! command -v debootstrap >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc debootstrap >/dev/null
fi
if ! grep -qs '^default_ulimits *= *\[\]' /etc/containers/containers.conf; then
  # podman's default rlimits are refused here; an empty list keeps the host's
  [ -s /etc/containers/containers.conf ] && fail "add 'default_ulimits = []' under [containers] in containers.conf"
  printf '[containers]\ndefault_ulimits = []\n' > /etc/containers/containers.conf
fi

say "the base image $base (Debian 12 minbase + python3, python3-venv; made once, then cached)"
if ! "${podman[@]}" image exists "$base"; then
  debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates bookworm "$work/rootfs" \
    http://deb.debian.org/debian >"$work/debootstrap.log" || { tail "$work/debootstrap.log"; fail debootstrap; }
  tar -C "$work/rootfs" -c . | "${podman[@]}" import --change 'CMD ["/bin/bash"]' - "$base" >/dev/null
  rm -rf "$work/rootfs"
fi
"${podman[@]}" run --rm "$base" python3 -c 'import sys; print("base python", sys.version.split()[0])'

say "building $image"
# This machine's pip configuration (indexes, find-links holding torch's CPU wheel, CA bundle) in one file mounted as
# the build's /etc/pip.conf, with every path it names mounted read-only: nothing of it lands in the image.
mounts=()
while IFS= read -r path; do mounts+=(-v "$path:$path:ro"); done < <("${py[@]}" - "$work/pip.conf" <<'PY'
import os, subprocess, sys
listed = subprocess.run([sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True)  # no pip: {}
options = {}
for line in listed.stdout.splitlines():  # env entries come first; they win, as they do for pip
    key, _, value = line.partition("=")
    options.setdefault(key.split(".", 1)[1], value.strip("'\""))
with open(sys.argv[1], "w") as conf:
    conf.write("[global]\n" + "".join(f"{k} = {v}\n" for k, v in options.items()))
words = {word for v in options.values() for word in v.split()}
paths = {w.removeprefix("file://").rstrip("/") for w in words}
paths = {os.path.dirname(p) if p.endswith("/simple") else p for p in paths}  # a local index links to ../files
print("\n".join(sorted(p for p in paths if p.startswith("/") and os.path.exists(p))))
PY
)
mkdir -p "${PIP_CACHE_DIR:-$HOME/.cache/pip}"
started=$(date +%s)
[ "${KGQA_CHECK_REUSE:-0}" = 1 ] && "${podman[@]}" image exists "$image" || \
"${podman[@]}" build --format docker --build-arg BASE_IMAGE="$base" --build-arg TORCH_INDEX_URL= \
  -v "$work/pip.conf:/etc/pip.conf:ro" "${mounts[@]}" -v "${PIP_CACHE_DIR:-$HOME/.cache/pip}:/root/.cache/pip" \
  -t "$image" "$here" >"$work/build.log" 2>&1 || { tail -30 "$work/build.log"; fail "podman build"; }
build_s=$(( $(date +%s) - started ))
size=$("${podman[@]}" image inspect --format '{{.Size}}' "$image")
echo "built in ${build_s} s; image $((size / 1048576)) MiB" >&2

say "the README's question, offline (--network none), store in a volume"
"${podman[@]}" volume create "$volume" >/dev/null
run=("${podman[@]}" run --rm --network none -v "$volume:/data" -v "$sciqa:/sciqa:ro" -e SCIQA_DIR=/sciqa "$image")
[ "$("${run[@]}" id -u)" = 10001 ] || fail "the image does not run as uid 10001"
started=$(date +%s%N)
"${run[@]}" kgqa index >&2
index_ms=$(( ($(date +%s%N) - started) / 1000000 ))
question="Which model has achieved the highest Accuracy score on the Story Cloze Test benchmark dataset?"
started=$(date +%s%N)
"${run[@]}" kgqa ask --json "$question" >"$work/answer.json"
ask_ms=$(( ($(date +%s%N) - started) / 1000000 ))
"${py[@]}" - "$work/answer.json" <<'PY' || fail "no answer to the README's question"
import json, sys
answer = json.load(open(sys.argv[1]))
rows = answer["answer"]["rows"] if answer.get("answer") else []
print(f"answered by {answer['generator']} on {answer['kg']}: {rows[:3]}", file=sys.stderr)
sys.exit(0 if rows else 1)
PY
[ -n "$("${run[@]}" find /data -mindepth 1 -maxdepth 1)" ] || fail "kgqa index stored nothing in the volume"
[ -z "$("${run[@]}" find /data ! -user 10001)" ] || fail "the volume holds files the image's user does not own"

say "python -m bot in HTTP mode: HEALTHCHECK, a signed event answered, the store kept across a restart"
# Slack's Web API stand-in on the host's network, run with the image's packages on this checkout's code
coproc SLACK { "${podman[@]}" run --rm -i --name "kgqa-check-slack-$$" --network host -v "$here:/check:ro" \
  -e PYTHONPATH=/check "$image" python /check/scripts/container_slack.py 2>"$work/slack.log"; }
read -r -t 60 -u "${SLACK[0]}" slack_url || fail "the Slack stand-in did not start: $(cat "$work/slack.log")"
slack_env=(-e SLACK_API_URL="$slack_url" -e SLACK_BOT_TOKEN=xoxb-1111-2222-SeCrEtBoTtOkEn
  -e SLACK_SIGNING_SECRET=8f1b2c3d4e5f60718293a4b5c6d7e8f9)
ask_slack() {  # BASE_URL...: one mention to every bot; sets $reply to the stand-in's JSON verdict
  "${py[@]}" -c 'import json, sys; print(json.dumps({"question": sys.argv[1], "bots": sys.argv[2:]}))' \
    "$question" "$@" >&"${SLACK[1]}"
  read -r -t 400 -u "${SLACK[0]}" reply || fail "no verdict from the Slack stand-in: $(tail "$work/slack.log")"
  echo "$reply" >&2
  [[ $reply == *'"once": true'* ]] || fail "not answered exactly once: $reply"
}
healthy() {  # NAME: the image's own HEALTHCHECK, run by podman, until it passes (or the container exits)
  local deadline=$(( $(date +%s) + 300 ))
  until "${podman[@]}" healthcheck run "$1" >/dev/null 2>&1; do
    [ "$("${podman[@]}" inspect --format '{{.State.Running}}' "$1")" = true ] \
      || { "${podman[@]}" logs "$1"; fail "$1 exited"; }
    [ "$(date +%s)" -lt "$deadline" ] || { "${podman[@]}" logs "$1"; fail "$1: HEALTHCHECK never passed"; }
    sleep 1
  done
}
bot_port=$(free_ports 1)
bot=kgqa-check-bot-$$
start_bot() {
  "${podman[@]}" run -d --name "$bot" --network host -v "$volume:/data" -v "$sciqa:/sciqa:ro" -e SCIQA_DIR=/sciqa \
    -e KGQA_KG=snapshot -e KGQA_HTTP_HOST=127.0.0.1 -e KGQA_HTTP_PORT="$bot_port" "${slack_env[@]}" "$image" >/dev/null
}
started=$(date +%s%N)
start_bot
healthy "$bot"
healthy_ms=$(( ($(date +%s%N) - started) / 1000000 ))
started=$(date +%s%N)
ask_slack "http://127.0.0.1:$bot_port"
event_ms=$(( ($(date +%s%N) - started) / 1000000 ))
[ "$("${podman[@]}" exec "$bot" id -u)" = 10001 ] || fail "the bot does not run as uid 10001"
before=$("${podman[@]}" exec "$bot" kgqa lookup "Story Cloze accuracy" -k 3)
"${podman[@]}" rm -f -t 30 "$bot" >/dev/null  # a new container on the same volume: the store lives there
start_bot
healthy "$bot"
after=$("${podman[@]}" exec "$bot" kgqa lookup "Story Cloze accuracy" -k 3)
[ -n "$before" ] && [ "$before" = "$after" ] || fail "the store changed across the restart: $before / $after"
"${podman[@]}" rm -f -t 10 "$bot" >/dev/null

say "compose.yaml's cpu profile, service by service: Redis, a Chroma server, two bot replicas; one event, one answer"
# No registry here, so not compose itself: redis:7.4.2 and chromadb/chroma:1.5.9 cannot be pulled. Redis comes from
# Debian's package on the base; Chroma is `chroma run` from the bot image (the same chromadb 1.5.9 as the pinned one).
redis_image=localhost/kgqa-redis:bookworm
if ! "${podman[@]}" image exists "$redis_image"; then
  printf 'FROM %s\nRUN apt-get update && apt-get install -y --no-install-recommends redis-server %s\nUSER redis\n' \
    "$base" '&& rm -rf /var/lib/apt/lists/*' | "${podman[@]}" build -q -t "$redis_image" -f - "$work" >/dev/null
fi
read -r redis_port chroma_port port_a port_b < <(free_ports 4)
cpu=kgqa-check-cpu-$$
here_down() { for c in redis chroma a b; do "${podman[@]}" rm -f -v -t 10 "$cpu-$c" >/dev/null 2>&1 || true; done; }
here_up=1
host=("${podman[@]}" run -d --network host)
"${host[@]}" --name "$cpu-redis" "$redis_image" redis-server --bind 127.0.0.1 --port "$redis_port" \
  --appendonly yes --dir /tmp >/dev/null
"${host[@]}" --name "$cpu-chroma" "$image" chroma run --path /data/chroma --host 127.0.0.1 --port "$chroma_port" \
  >/dev/null
shared=(-e KGQA_CHROMA_URL="http://127.0.0.1:$chroma_port" -e KGQA_REDIS_URL="redis://127.0.0.1:$redis_port/0"
  -e KGQA_GENERATOR=adapter -e KGQA_KG=snapshot -e SCIQA_DIR=/sciqa -v "$sciqa:/sciqa:ro")
deadline=$(( $(date +%s) + 120 ))
until "${podman[@]}" run --rm --network host "${shared[@]}" "$image" kgqa index >"$work/cpu-index.log" 2>&1; do
  [ "$(date +%s)" -lt "$deadline" ] \
    || { cat "$work/cpu-index.log"; "${podman[@]}" logs "$cpu-chroma"; fail "kgqa index into Chroma"; }
  sleep 2  # the Chroma server is still starting
done
for r in a b; do
  port_var=port_$r
  "${host[@]}" --name "$cpu-$r" "${shared[@]}" -e KGQA_HTTP_HOST=127.0.0.1 -e KGQA_HTTP_PORT="${!port_var}" \
    "${slack_env[@]}" "$image" >/dev/null
done
healthy "$cpu-a"
healthy "$cpu-b"
ask_slack "http://127.0.0.1:$port_a" "http://127.0.0.1:$port_b"
here_down
here_up=

printf '\ncontainer check passed: build %s s, image %s MiB, kgqa index %s ms, first kgqa ask %s ms (%s),' \
  "$build_s" "$((size / 1048576))" "$index_ms" "$ask_ms" "a new container each"
printf ' bot healthy %s ms after podman run, a Slack event answered in %s ms\n' "$healthy_ms" "$event_ms"
