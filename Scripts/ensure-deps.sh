#!/usr/bin/env bash
# Installs the Debian C libraries Strata builds against, when they are missing:
# liblmdb-dev (the page store), libssl-dev (libcrypto: encrypted files), libsqlite3-dev
# (the benchmark's baseline), libpq-dev (replication's PostgreSQL client) and postgresql-15
# (the server the replication tests start for themselves, in a temporary directory), and
# python3 (which runs the check that the documentation's examples compile).
set -euo pipefail

missing=()
for package in liblmdb-dev libssl-dev libsqlite3-dev libpq-dev postgresql-15 python3; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing ${missing[*]} ..." >&2
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
