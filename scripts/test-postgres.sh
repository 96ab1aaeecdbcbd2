#!/usr/bin/env bash
# `npm run test:postgres`: the whole suite against a real PostgreSQL server instead of the embedded
# one. TEST_POSTGRES_URL names the server (default: this machine's, trust authentication); the
# suite creates and drops its own databases on it.
set -euo pipefail
url="${TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
command -v pg_isready >/dev/null || {
  echo "pg_isready is missing: install PostgreSQL (Debian: apt-get install postgresql)." >&2
  exit 1
}

if ! pg_isready --dbname="$url" --timeout=3 >/dev/null 2>&1; then
  # Debian's cluster command: start the machine's server if it is installed but stopped.
  if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
    for version in $(ls /etc/postgresql); do
      pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
    done
  fi
  pg_isready --dbname="$url" --timeout=10 >/dev/null || {
    echo "No PostgreSQL answers at $url: start one, or set TEST_POSTGRES_URL." >&2
    exit 1
  }
fi

DATABASE_URL="$url" exec vitest run "$@"
