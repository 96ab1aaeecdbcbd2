# Sourced by scripts/test-services.sh and .ci/run: makes sure this machine's PostgreSQL
# (TEST_POSTGRES_URL, default this machine's with trust authentication; the suite creates and drops
# its own databases on it) and Redis (TEST_REDIS_URL, default this machine's; each test file works
# under a key prefix of its own) answer, starting an installed but stopped server with the machine's
# own command, and exports DATABASE_URL, REDIS_URL and REDIS_COMMAND_TIMEOUT_MS for the tests.
postgres_url="${TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
redis_url="${TEST_REDIS_URL:-redis://127.0.0.1:6379}"

command -v pg_isready >/dev/null || {
  echo "pg_isready is missing: install PostgreSQL (Debian: apt-get install postgresql)." >&2
  exit 1
}
if ! pg_isready --dbname="$postgres_url" --timeout=3 >/dev/null 2>&1; then
  if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
    for version in $(ls /etc/postgresql); do
      pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
    done
  fi
  pg_isready --dbname="$postgres_url" --timeout=10 >/dev/null || {
    echo "No PostgreSQL answers at $postgres_url: start one, or set TEST_POSTGRES_URL." >&2
    exit 1
  }
fi

redis_answers() { command -v redis-cli >/dev/null && redis-cli -u "$redis_url" ping 2>/dev/null | grep -q PONG; }
if ! redis_answers; then
  if command -v redis-server >/dev/null; then
    mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
      --dir /var/lib/redis --logfile /var/log/redis/ci.log || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do redis_answers && break; sleep 0.5; done
  fi
  redis_answers || {
    echo "No Redis answers at $redis_url: start one (redis-server), or set TEST_REDIS_URL." >&2
    exit 1
  }
fi

# Test workers share two cores with the suite's servers: a longer command bound than production's
# 1 s keeps a busy event loop from reading as a Redis outage.
export DATABASE_URL="$postgres_url" REDIS_URL="$redis_url" REDIS_COMMAND_TIMEOUT_MS="${REDIS_COMMAND_TIMEOUT_MS:-5000}"
