#!/bin/sh
# Install redis-server (and openssl, for the TLS test's certificate) from Debian for the shared-state tests
# (they start their own on free loopback ports);
# does nothing when present.
set -eu
if command -v redis-server >/dev/null 2>&1 && command -v openssl >/dev/null 2>&1; then
    redis-server --version
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get install -y --no-install-recommends redis-server openssl; then
    # the package lists may be missing or stale (fresh containers have none)
    $SUDO apt-get update
    $SUDO apt-get install -y --no-install-recommends redis-server openssl
fi
# the package starts a system service where an init system runs; the tests need none (they start their own)
command -v redis-server
