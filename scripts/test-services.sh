#!/usr/bin/env bash
# Starts the services the scale-out tests need, on loopback only: Redis (BullMQ's queue) and a throwaway
# PostgreSQL cluster (the run store's second backend), then prints the variables the tests read:
#   eval "$(bash scripts/test-services.sh)"
# Idempotent: a service already answering on its port is left as it is. Nothing is stopped (the cluster and
# Redis live in $BUDGETRL_SERVICES_DIR, default /tmp/budgetrl-services, until the machine goes). Ports:
# $BUDGETRL_REDIS_PORT (6390) and $BUDGETRL_PG_PORT (5439), away from the system services' defaults.
# Needs Debian's redis-server and postgresql packages (.ci/run installs them when missing).
set -euo pipefail
base="${BUDGETRL_SERVICES_DIR:-/tmp/budgetrl-services}"
redis_port="${BUDGETRL_REDIS_PORT:-6390}"
pg_port="${BUDGETRL_PG_PORT:-5439}"
mkdir -p "$base"
chmod 755 "$base"

if ! redis-cli -h 127.0.0.1 -p "$redis_port" ping >/dev/null 2>&1; then
  redis-server --bind 127.0.0.1 --port "$redis_port" --daemonize yes --dir "$base" --save "" --appendonly no \
    --logfile "$base/redis.log" --pidfile "$base/redis.pid" >&2
  for _ in $(seq 1 50); do redis-cli -h 127.0.0.1 -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.1; done
fi
redis-cli -h 127.0.0.1 -p "$redis_port" ping >/dev/null

pg_bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
pg_data="$base/pg"
# PostgreSQL refuses to run as root: as root the cluster belongs to the postgres user.
as_owner=()
if [ "$(id -u)" -eq 0 ]; then as_owner=(runuser -u postgres --); fi
if [ ! -f "$pg_data/PG_VERSION" ]; then
  mkdir -p "$pg_data"
  if [ "$(id -u)" -eq 0 ]; then chown postgres:postgres "$pg_data"; fi
  "${as_owner[@]}" "$pg_bin/initdb" -D "$pg_data" -A trust -U postgres -E UTF8 --locale=C --no-sync >"$base/initdb.log"
fi
if ! "$pg_bin/pg_isready" -q -h 127.0.0.1 -p "$pg_port"; then
  # Nothing answers: a pid file left by a server that was killed (the machine's processes ended) is stale.
  rm -f "$pg_data/postmaster.pid"
  "${as_owner[@]}" "$pg_bin/pg_ctl" -D "$pg_data" -l "$pg_data/server.log" -w -s start \
    -o "-c listen_addresses=127.0.0.1 -p $pg_port -k $pg_data -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" >&2
fi
"$pg_bin/pg_isready" -q -h 127.0.0.1 -p "$pg_port"

echo "export BUDGETRL_TEST_REDIS=redis://127.0.0.1:$redis_port"
echo "export BUDGETRL_TEST_POSTGRES=postgres://postgres@127.0.0.1:$pg_port/postgres"
