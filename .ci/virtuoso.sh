#!/bin/sh
# Install Virtuoso 7 (the engine ORKG runs on) from Debian for the integration tests; does nothing when present.
set -eu
if command -v virtuoso-t >/dev/null 2>&1 && command -v isql-vt >/dev/null 2>&1; then
    virtuoso-t +help 2>&1 | sed -n 's/^Version /virtuoso-t: /p' | head -n 1
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get install -y --no-install-recommends virtuoso-opensource-7-bin; then
    # the package lists may be missing or stale (fresh containers have none)
    $SUDO apt-get update
    $SUDO apt-get install -y --no-install-recommends virtuoso-opensource-7-bin
fi
command -v virtuoso-t
command -v isql-vt
