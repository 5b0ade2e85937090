#!/usr/bin/env bash
# Installs the Debian C libraries Strata builds against, when they are missing:
# liblmdb-dev (the page store), libssl-dev (libcrypto: encrypted files) and libsqlite3-dev
# (the benchmark's baseline).
set -euo pipefail

missing=()
for package in liblmdb-dev libssl-dev libsqlite3-dev; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing ${missing[*]} ..." >&2
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
