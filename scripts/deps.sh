#!/usr/bin/env bash
# Installs what opticoll needs to build and test, when it is missing (Debian 12).
# Usage: scripts/deps.sh        (build + test dependencies)
set -eu
need=""
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
for p in build-essential cmake pkg-config libcjson-dev; do
  have_pkg "$p" || need="$need $p"
done
if [ -n "$need" ]; then
  echo "deps: installing$need" >&2
  if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $need >/dev/null
fi
