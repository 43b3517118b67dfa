#!/usr/bin/env bash
# Check the files of deploy/ with the tools that read them, each when it is installed (otherwise one line
# says what was not checked, and the script still succeeds):
#   - the systemd units (deploy/chidao@.service as the instance chidao@8001, chidao-backup.service and
#     its timer) with `systemd-analyze verify`; any warning fails;
#   - deploy/nginx.conf with `nginx -t`, inside a minimal main configuration. `nginx -t` opens the listening
#     sockets too, so the copy checked listens on free loopback ports instead of 80 and 443 (no root
#     needed, no clash with a web server already running), with a self-signed certificate made for the run
#     in place of the Let's Encrypt paths, and the asset cache in the run's directory.
# Exit status 1 when a check fails. .ci/run calls it; docs/deploy.md lists the files.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf 'check-deploy: %s\n' "$*"; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failed=0

# --- systemd unit ----------------------------------------------------------------------------------
if command -v systemd-analyze >/dev/null 2>&1; then
  mkdir -p "$work/systemd"
  cp deploy/*.service deploy/*.timer "$work/systemd/"
  node_path="$(command -v node || true)"
  if [ ! -x /usr/bin/node ] && [ -n "$node_path" ]; then
    # The units name Debian's /usr/bin/node; on a machine with Node elsewhere the copies name that one.
    log "no /usr/bin/node here: verifying the units with $node_path"
    sed -i "s#^ExecStart=/usr/bin/node #ExecStart=$node_path #" "$work/systemd/"*.service
  fi
  # The template is verified as the instance chidao@8001.
  ln -s 'chidao@.service' "$work/systemd/chidao@8001.service"
  units=("$work/systemd/chidao@8001.service" "$work/systemd/chidao-backup.service" "$work/systemd/chidao-backup.timer")
  if output="$(systemd-analyze verify --man=no "${units[@]}" 2>&1)" && [ -z "$output" ]; then
    log "deploy/chidao@.service, chidao-backup.service, chidao-backup.timer: systemd-analyze verify passed"
  else
    log "deploy/*.service, *.timer: systemd-analyze verify found problems:"
    printf '%s\n' "$output"
    failed=1
  fi
else
  log "systemd-analyze not installed: the systemd units of deploy/ not checked"
fi

# --- nginx site ------------------------------------------------------------------------------------
if command -v nginx >/dev/null 2>&1; then
  if ! command -v openssl >/dev/null 2>&1; then
    log "openssl not installed (needed for the test certificate): deploy/nginx.conf not checked"
    failed=1
  else
    mkdir -p "$work/nginx/logs" "$work/nginx/cache"
    openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj '/CN=survey.example.com' \
      -keyout "$work/nginx/key.pem" -out "$work/nginx/cert.pem" >/dev/null 2>&1
    free_port() { node -e "const s = require('net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })"; }
    http_port="$(free_port)"
    https_port="$(free_port)"
    sed -e "s#/etc/letsencrypt/live/survey.example.com/fullchain.pem#$work/nginx/cert.pem#" \
        -e "s#/etc/letsencrypt/live/survey.example.com/privkey.pem#$work/nginx/key.pem#" \
        -e "s#/var/cache/nginx-chidao#$work/nginx/cache/chidao#" \
        -e "s#^\( *\)listen 80;#\1listen 127.0.0.1:$http_port;#" \
        -e "s#^\( *\)listen 443 #\1listen 127.0.0.1:$https_port #" \
        -e "/^ *listen \[::\]:/d" \
        deploy/nginx.conf > "$work/nginx/chidao.conf"
    cat > "$work/nginx/nginx.conf" <<CONF
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log;
events {}
http {
    access_log off;
    include $work/nginx/chidao.conf;
}
CONF
    if output="$(nginx -t -p "$work/nginx" -e "$work/nginx/logs/error.log" -c "$work/nginx/nginx.conf" 2>&1)"; then
      log "deploy/nginx.conf: nginx -t passed ($(nginx -v 2>&1))"
    else
      log "deploy/nginx.conf: nginx -t failed:"
      printf '%s\n' "$output"
      failed=1
    fi
  fi
else
  log "nginx not installed: deploy/nginx.conf not checked"
fi

exit "$failed"
