#!/usr/bin/env bash
# Make sure a MariaDB (or MySQL) server answers on 127.0.0.1:3306 for user `root` without a password over
# TCP and has a database `test`, which is what the BuildAdmin import tests expect
# (tests/support/buildadmin-source.ts, TEST_MYSQL_URL).
#
# Debian/Ubuntu (mariadb-server package) only. Steps, each skipped when not needed:
#   1. already accepting `mysql -h 127.0.0.1 -u root -e 'select 1'` → only make sure `test` exists;
#   2. server not running → start it (`service mariadb start`, else the init script, else mysqld_safe);
#   3. root refused over TCP → let root in from 127.0.0.1/localhost without a password, done as root over
#      the local socket (only with ENSURE_MARIADB_TRUST=1, which .ci/run sets; see below);
#   4. wait until step 1 succeeds (ENSURE_MARIADB_TIMEOUT seconds, default 60).
#
# Installing MariaDB is not done here (.ci/run does it); run e.g.
#   apt-get install -y --no-install-recommends mariadb-server mariadb-client
set -euo pipefail

HOST=127.0.0.1
PORT="${MARIADB_PORT_WANTED:-3306}"
TIMEOUT="${ENSURE_MARIADB_TIMEOUT:-60}"

log() { printf 'ensure-mariadb: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=(sudo); else SUDO=(); fi
fi

client() {
  if command -v mariadb >/dev/null 2>&1; then echo mariadb; elif command -v mysql >/dev/null 2>&1; then echo mysql; else echo ""; fi
}
CLIENT="$(client)"
[ -n "$CLIENT" ] || die "no mariadb/mysql client installed; install it, e.g. apt-get install -y --no-install-recommends mariadb-server mariadb-client"

accepts_root_over_tcp() {
  "$CLIENT" --protocol=TCP -h "$HOST" -P "$PORT" -u root --connect-timeout=3 -N -e 'select 1' >/dev/null 2>&1
}

server_answers() {
  command -v mariadb-admin >/dev/null 2>&1 && mariadb-admin --protocol=TCP -h "$HOST" -P "$PORT" --connect-timeout=3 ping >/dev/null 2>&1 && return 0
  # `ping` reports "access denied" as alive too; anything answering on the port counts
  (exec 3<>"/dev/tcp/$HOST/$PORT") 2>/dev/null
}

ensure_test_database() {
  "$CLIENT" --protocol=TCP -h "$HOST" -P "$PORT" -u root -e 'CREATE DATABASE IF NOT EXISTS `test`' >/dev/null
}

if accepts_root_over_tcp; then
  ensure_test_database
  log "MariaDB already accepts root@$HOST:$PORT without a password; database test is there"
  exit 0
fi

if ! server_answers; then
  command -v mariadbd >/dev/null 2>&1 || command -v mysqld >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ] || [ -x /usr/sbin/mysqld ] ||
    die "MariaDB is not installed (no mariadbd); install it, e.g. apt-get install -y --no-install-recommends mariadb-server mariadb-client"
  log "starting MariaDB"
  if command -v service >/dev/null 2>&1 && [ -x /etc/init.d/mariadb ]; then
    "${SUDO[@]}" service mariadb start >&2
  elif [ -x /etc/init.d/mysql ]; then
    "${SUDO[@]}" /etc/init.d/mysql start >&2
  else
    "${SUDO[@]}" sh -c 'nohup mysqld_safe >/dev/null 2>&1 &'
  fi
fi

deadline=$((SECONDS + TIMEOUT))
until server_answers; do
  [ "$SECONDS" -lt "$deadline" ] || die "MariaDB not answering on $HOST:$PORT after ${TIMEOUT}s (see /var/log/mysql/ or journalctl -u mariadb)"
  sleep 1
done

# A fresh Debian MariaDB lets root in only over the local socket (unix_socket authentication). Letting
# root in over TCP without a password hands the server to every local process: acceptable on a disposable
# CI machine (or a throwaway dev container) only, hence the explicit opt-in.
if ! accepts_root_over_tcp; then
  if [ "${ENSURE_MARIADB_TRUST:-0}" != "1" ]; then
    die "MariaDB on $HOST:$PORT refuses root without a password; on a disposable machine re-run with ENSURE_MARIADB_TRUST=1, or set TEST_MYSQL_URL for the tests"
  fi
  log "letting root in from $HOST without a password (socket login as root)"
  "${SUDO[@]}" "$CLIENT" -u root <<'SQL'
ALTER USER 'root'@'localhost' IDENTIFIED VIA mysql_native_password USING PASSWORD('') OR unix_socket;
CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY '';
GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;
FLUSH PRIVILEGES;
SQL
fi

until accepts_root_over_tcp; do
  [ "$SECONDS" -lt "$deadline" ] || die "MariaDB is up on $HOST:$PORT but refuses root without a password"
  sleep 1
done
ensure_test_database
log "MariaDB ready on $HOST:$PORT (user root, no password, database test)"
