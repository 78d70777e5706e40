#!/usr/bin/env bash
# Installs the system libraries cdlog builds against (SQLite, PCRE2, zlib and libarchive development files, sqlite3 CLI)
# when they are missing. Debian/Ubuntu via apt-get (as root, or through sudo); macOS via Homebrew.
set -euo pipefail
have_libs() {
    pkg-config --exists sqlite3 libpcre2-8 zlib libarchive 2>/dev/null && command -v sqlite3 >/dev/null 2>&1
}
if have_libs; then exit 0; fi
if command -v apt-get >/dev/null 2>&1; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq pkg-config libsqlite3-dev libpcre2-dev zlib1g-dev libarchive-dev sqlite3 >/dev/null
elif command -v brew >/dev/null 2>&1; then
    brew install pkg-config sqlite pcre2 zlib libarchive
else
    echo "install-deps: install pkg-config, SQLite, PCRE2, zlib and libarchive development files by hand" >&2
    exit 2
fi
