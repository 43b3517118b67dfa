#!/usr/bin/env bash
# Make sure a PostgreSQL server answers on 127.0.0.1:5432 for user `postgres` without a password over
# TCP, which is what the API test suite expects (tests/support/test-server.ts, TEST_POSTGRES_URL).
#
# Debian/Ubuntu (postgresql-common) only. Steps, each skipped when not needed:
#   1. already accepting `psql -h 127.0.0.1 -U postgres -c 'select 1'`  → nothing to do;
#   2. no cluster yet (package installed with create_main_cluster=false) → pg_createcluster;
#   3. pg_hba.conf does not trust 127.0.0.1/::1 → add `trust` host lines (only with
#      ENSURE_POSTGRES_TRUST=1, which .ci/run sets; see below);
#   4. cluster stopped → pg_ctlcluster --skip-systemctl-redirect <version> <cluster> start,
#      otherwise reload it so pg_hba.conf changes apply;
#   5. wait for pg_isready (ENSURE_POSTGRES_TIMEOUT seconds, default 60), then check step 1 again.
#
# Installing PostgreSQL is not done here (.ci/run does it); run e.g.
#   apt-get install -y --no-install-recommends postgresql
#
# Environment: PGPORT_WANTED (default 5432) and PGCLUSTER_NAME (default main) pick another cluster,
# useful only for trying this script on a scratch cluster.
set -euo pipefail

PORT="${PGPORT_WANTED:-5432}"
CLUSTER="${PGCLUSTER_NAME:-main}"
TIMEOUT="${ENSURE_POSTGRES_TIMEOUT:-60}"
HOST=127.0.0.1

log() { printf 'ensure-postgres: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# Root runs the cluster tools directly; anyone else needs sudo for them.
SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=(sudo); else SUDO=(); fi
fi

accepts_trust_login() {
  # -w: never prompt for a password (fail instead); short connect timeout.
  PGCONNECT_TIMEOUT=3 psql -w -X -q -h "$HOST" -p "$PORT" -U postgres -d postgres -tAc 'select 1' >/dev/null 2>&1
}

if command -v psql >/dev/null 2>&1 && accepts_trust_login; then
  log "PostgreSQL already accepts postgres@$HOST:$PORT without a password; nothing to do"
  exit 0
fi

command -v pg_ctlcluster >/dev/null 2>&1 && command -v psql >/dev/null 2>&1 ||
  die "PostgreSQL is not installed (no pg_ctlcluster/psql); install it, e.g. apt-get install -y --no-install-recommends postgresql"

# Version lookup: the newest configured cluster version under /etc/postgresql that has our cluster,
# else the newest configured version, else the newest installed server binaries.
newest() { sort -V | tail -n 1; }
VERSION=""
if [ -d /etc/postgresql ]; then
  VERSION="$(for dir in /etc/postgresql/*/"$CLUSTER"; do [ -d "$dir" ] && basename "$(dirname "$dir")"; done | newest || true)"
  [ -n "$VERSION" ] || VERSION="$(ls -1 /etc/postgresql 2>/dev/null | grep -E '^[0-9]+(\.[0-9]+)?$' | newest || true)"
fi
if [ -z "$VERSION" ]; then
  VERSION="$(ls -1 /usr/lib/postgresql 2>/dev/null | grep -E '^[0-9]+(\.[0-9]+)?$' | newest || true)"
fi
[ -n "$VERSION" ] || die "cannot find a PostgreSQL version under /etc/postgresql or /usr/lib/postgresql"

CONF_DIR="/etc/postgresql/$VERSION/$CLUSTER"
if [ ! -f "$CONF_DIR/postgresql.conf" ]; then
  log "no cluster $VERSION/$CLUSTER yet; creating it on port $PORT"
  "${SUDO[@]}" pg_createcluster --port "$PORT" "$VERSION" "$CLUSTER" >&2
fi

cluster_field() { # prints field $1 of `pg_lsclusters` for our cluster (3 = port, 4 = status)
  pg_lsclusters --no-header 2>/dev/null | awk -v v="$VERSION" -v c="$CLUSTER" -v f="$1" '$1 == v && $2 == c { print $f }'
}

CLUSTER_PORT="$(cluster_field 3)"
[ "$CLUSTER_PORT" = "$PORT" ] ||
  die "cluster $VERSION/$CLUSTER is configured for port ${CLUSTER_PORT:-?}, not $PORT (set port = $PORT in $CONF_DIR/postgresql.conf)"

# pg_hba.conf: the first matching line wins, so trusting 127.0.0.1/::1 means putting `trust` lines
# above every other line. This hands the database superuser to every local process: acceptable on a
# disposable CI machine (or a throwaway dev container) only, hence the explicit opt-in.
HBA="$CONF_DIR/pg_hba.conf"
MARK="# added by scripts/ensure-postgres.sh (disposable CI machine): trust local TCP"
hba_trusts_loopback() {
  # first non-comment `host` line covering 127.0.0.1/32 for all users/databases uses trust
  "${SUDO[@]}" awk '
    /^[[:space:]]*(#|$)/ { next }
    $1 ~ /^host/ && $4 == "127.0.0.1/32" { print ($2 == "all" && $3 == "all" && $5 == "trust") ? "yes" : "no"; exit }
  ' "$HBA" | grep -qx yes
}
CHANGED_HBA=0
if ! hba_trusts_loopback; then
  if [ "${ENSURE_POSTGRES_TRUST:-0}" != "1" ]; then
    die "$HBA does not trust host connections from 127.0.0.1; on a disposable machine re-run with ENSURE_POSTGRES_TRUST=1 to add trust lines, or set TEST_POSTGRES_URL for the tests"
  fi
  log "making host connections from 127.0.0.1/32 and ::1/128 'trust' in $HBA"
  tmp="$(mktemp)"
  {
    echo "$MARK"
    echo "host    all             all             127.0.0.1/32            trust"
    echo "host    all             all             ::1/128                 trust"
    echo
    "${SUDO[@]}" cat "$HBA"
  } >"$tmp"
  "${SUDO[@]}" cp "$tmp" "$HBA"
  rm -f "$tmp"
  CHANGED_HBA=1
fi

STATUS="$(cluster_field 4)"
case "$STATUS" in
  online*)
    if [ "$CHANGED_HBA" = 1 ]; then
      log "reloading cluster $VERSION/$CLUSTER"
      "${SUDO[@]}" pg_ctlcluster --skip-systemctl-redirect "$VERSION" "$CLUSTER" reload >&2
    fi
    ;;
  *)
    log "starting cluster $VERSION/$CLUSTER (status: ${STATUS:-unknown})"
    "${SUDO[@]}" pg_ctlcluster --skip-systemctl-redirect "$VERSION" "$CLUSTER" start >&2
    ;;
esac

deadline=$((SECONDS + TIMEOUT))
until pg_isready -q -h "$HOST" -p "$PORT"; do
  [ "$SECONDS" -lt "$deadline" ] || die "PostgreSQL not ready on $HOST:$PORT after ${TIMEOUT}s (see /var/log/postgresql/postgresql-$VERSION-$CLUSTER.log)"
  sleep 1
done

# A reload is asynchronous; give the new pg_hba.conf a moment to apply.
until accepts_trust_login; do
  [ "$SECONDS" -lt "$deadline" ] || die "PostgreSQL is up on $HOST:$PORT but refuses postgres without a password (check $HBA)"
  sleep 1
done
log "PostgreSQL $VERSION/$CLUSTER ready on $HOST:$PORT (user postgres, no password)"
