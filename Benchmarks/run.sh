#!/usr/bin/env bash
# This source file is part of the swift-keychain open source project
# Copyright (c) 2026 the swift-keychain project authors
# Licensed under Apache License v2.0; see LICENSE.txt. SPDX-License-Identifier: Apache-2.0
#
# The whole benchmark in one command: builds keychain-bench and the security CLI in release, runs
# ../shared/peers (gnome-keyring, secret-tool, SQLite, disk flush, spawn) beside them, and writes
# BENCHMARKS.md at the repository's root.
#
#   Benchmarks/run.sh            full run: 1k, 10k, 100k and 1M items (about 20 minutes)
#   Benchmarks/run.sh --smoke    1,000 items, debug build, no peers; report under $RESULTS_DIR only (CI)
#
# Environment: SIZES (comma-separated), SAMPLE (timed operations per phase), CLI_N (processes per CLI
# phase), PEERS_DIR (default ../shared/peers beside the repository), PEERS=0 to skip the peers,
# RESULTS_DIR (default /var/tmp/keychain-bench/results/<stamp>).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
SMOKE=0
[ "${1:-}" = "--smoke" ] && SMOKE=1
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
RESULTS=${RESULTS_DIR:-/var/tmp/keychain-bench/results/$STAMP}
mkdir -p "$RESULTS"
log(){ echo "[$(date -u +%H:%M:%S)] $*" >&2; }

if [ $SMOKE = 1 ]; then
  CONFIG=debug; SIZES=${SIZES:-1000}; SAMPLE=${SAMPLE:-1000}; CLI_N=${CLI_N:-20}; PEERS=${PEERS:-0}
  PROTECTED=${PROTECTED:-50}; AES=${AES:-2000}; REKEY=${REKEY:-1000}; KEYS=${KEYS:-100}; BACKUP=${BACKUP:-1000}
  TPM_ITEMS=${TPM_ITEMS:-200}
else
  CONFIG=release; SIZES=${SIZES:-1000,10000,100000,1000000}; SAMPLE=${SAMPLE:-10000}; CLI_N=${CLI_N:-300}
  PEERS=${PEERS:-1}; PROTECTED=${PROTECTED:-1000}; AES=${AES:-100000}; REKEY=${REKEY:-10000,100000}; KEYS=${KEYS:-5000}
  BACKUP=${BACKUP:-100000}; TPM_ITEMS=${TPM_ITEMS:-1000}
fi
PEERS_DIR=${PEERS_DIR:-$ROOT/../shared/peers}

log "building keychain-bench and security ($CONFIG, static Swift runtime)"
# The build plan is made afresh: a cached one misses files added to the main package since.
BUILD=(swift build --package-path "$HERE" -c "$CONFIG" --disable-build-manifest-caching)
[ $CONFIG = release ] && BUILD+=(--static-swift-stdlib)
"${BUILD[@]}" --product keychain-bench
"${BUILD[@]}" --product security
"${BUILD[@]}" --product security-lookup
"${BUILD[@]}" --product securityd
BIN=$("${BUILD[@]}" --show-bin-path)
# The CLI as Scripts/install.sh lays it out: bin/security is the launcher, which runs
# libexec/swift-keychain/security-lookup for password look-ups (answered through securityd by that
# small program itself) and libexec/swift-keychain/security, the full tool, for everything else;
# the launcher compiled with the C compiler, as install.sh compiles it.
INSTALLED=$RESULTS/installed
mkdir -p "$INSTALLED/bin" "$INSTALLED/libexec/swift-keychain"
CC=${CC:-$(command -v cc || command -v clang || true)}
[ -n "$CC" ] || { log "no C compiler (cc or clang) for the security launcher; set CC"; exit 1; }
$CC -O2 -o "$INSTALLED/bin/security" "$ROOT/Sources/SecurityLauncher/main.c"
cp "$BIN/security" "$INSTALLED/libexec/swift-keychain/security"
cp "$BIN/security-lookup" "$INSTALLED/libexec/swift-keychain/security-lookup"
ln -sf "$BIN/securityd" "$INSTALLED/bin/securityd"

{
  echo "date (UTC): $STAMP"
  echo "command: Benchmarks/run.sh${1:+ $1} (SIZES=$SIZES SAMPLE=$SAMPLE CLI_N=$CLI_N, $CONFIG build)"
  echo "commit: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "cpu: $(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo) x $(nproc)"
  echo "memory: $(awk '/MemTotal/{printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
  echo "kernel: $(uname -r); os: $(. /etc/os-release; echo "$PRETTY_NAME")"
  echo "filesystem of the work directory: $(df -T /var/tmp | awk 'NR==2{print $2}')"
  echo "swift: $(swift --version 2>/dev/null | head -1)"
  echo "sqlite: $(dpkg-query -W -f='${Version}' libsqlite3-0 2>/dev/null || echo unknown)"
} >"$RESULTS/env.txt"

if [ "$PEERS" = 1 ]; then
  if [ -x "$PEERS_DIR/run.sh" ] || [ -f "$PEERS_DIR/run.sh" ]; then
    log "peers: ${PEERS_ONLY:-spawn secretstorage secret-tool sqlite fsync}"
    ONLY=${PEERS_ONLY:-"spawn secretstorage secret-tool sqlite fsync"} N=1000 RESULTS_DIR="$RESULTS/peers" \
      bash "$PEERS_DIR/run.sh" || log "the peers script failed; the report will lack its columns"
  else
    log "no peers script at $PEERS_DIR; the report will lack the peer columns"
  fi
fi

log "keychain-bench (sizes $SIZES)"
"$BIN/keychain-bench" run --sizes "$SIZES" --sample "$SAMPLE" --protected-items "$PROTECTED" \
  --aes-operations "$AES" --rekey-sizes "$REKEY" --key-operations "$KEYS" --backup-items "$BACKUP" --tpm-items "$TPM_ITEMS" \
  --out "$RESULTS/keychain.jsonl"

log "security CLI, one process per operation ($CLI_N items)"
python3 "$HERE/Scripts/cli.py" --security "$INSTALLED/bin/security" --n "$CLI_N" --out "$RESULTS/cli.jsonl"
log "security CLI through securityd, one process per operation ($CLI_N items)"
python3 "$HERE/Scripts/cli.py" --security "$INSTALLED/bin/security" --n "$CLI_N" --engine daemon --out "$RESULTS/cli.jsonl"

log "synchronisation through a PostgreSQL server on loopback"
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -n "$PGBIN" ] && [ "$(id -u)" = 0 ] && id postgres >/dev/null 2>&1; then
  if [ $SMOKE = 1 ]; then SYNC_ARGS=(--changes 20 --initial-items 300 --writes 100); else SYNC_ARGS=(); fi
  PGDIR=$(mktemp -d /tmp/kc-bench-pg.XXXXXX); chown postgres:postgres "$PGDIR"
  PGPORT=$((20000 + RANDOM % 20000))
  as_pg(){ runuser -u postgres -- "$@"; }
  as_pg "$PGBIN/initdb" -D "$PGDIR/data" -U postgres --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  as_pg "$PGBIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/server.log" -w \
    -o "-p $PGPORT -k $PGDIR -c listen_addresses=127.0.0.1" start >/dev/null
  as_pg "$PGBIN/psql" -h "$PGDIR" -p "$PGPORT" -d postgres -q \
    -c "CREATE ROLE bench LOGIN PASSWORD 'bench'" -c "CREATE DATABASE bench OWNER bench"
  "$BIN/keychain-bench" sync --server "postgres://bench:bench@127.0.0.1:$PGPORT/bench" "${SYNC_ARGS[@]}" \
    --out "$RESULTS/keychain.jsonl" || log "the sync benchmark failed; the report will lack it"
  as_pg "$PGBIN/pg_ctl" -D "$PGDIR/data" -m immediate stop >/dev/null || true
  rm -rf "$PGDIR"
else
  log "no PostgreSQL server programs, or not root (runuser): the report will lack synchronisation"
fi

log "the Secret Service: securityd --secret-service beside gnome-keyring, each on a private session bus"
if [ $SMOKE = 1 ]; then SS_SIZES="--n 50 --small 20 --big 100 --searches 10 --processes 3"; else SS_SIZES=""; fi
# shellcheck disable=SC2086
python3 "$HERE/Scripts/secret_service.py" --securityd "$INSTALLED/bin/securityd" $SS_SIZES --out "$RESULTS/secret-service.jsonl" \
  || log "the Secret Service comparison failed; the report will lack it"

log "fingerprint round trip with libfprint's virtual reader, beside fprintd-verify"
FPRINT_N=$([ $SMOKE = 1 ] && echo 3 || echo 20)
python3 "$HERE/Scripts/fprint.py" --security "$INSTALLED/bin/security" --n "$FPRINT_N" --out "$RESULTS/fprint.jsonl" \
  || log "the fingerprint round trip failed; the report will lack it"

if grep -Eq '"errors": ?[1-9]' "$RESULTS/keychain.jsonl" "$RESULTS/cli.jsonl"; then
  log "some operations failed (records with errors > 0 in $RESULTS)"; exit 1
fi

REPORT=$RESULTS/BENCHMARKS.md
python3 "$HERE/Scripts/report.py" --keychain "$RESULTS/keychain.jsonl" --cli "$RESULTS/cli.jsonl" \
  --peers "$RESULTS/peers/results.jsonl" --fprint "$RESULTS/fprint.jsonl" --env "$RESULTS/env.txt" --analysis "$HERE/analysis.md" \
  --command "Benchmarks/run.sh${1:+ $1}" >"$REPORT"
if [ $SMOKE = 0 ]; then
  cp "$REPORT" "$ROOT/BENCHMARKS.md"
  log "wrote $ROOT/BENCHMARKS.md (raw results in $RESULTS)"
else
  grep -q "| 1,000 | lookup |" "$REPORT" || { log "smoke report lacks the look-up row"; exit 1; }
  grep -q "| ECDSA P-256 sign |" "$REPORT" || { log "smoke report lacks the key rows"; exit 1; }
  log "smoke run passed; report in $REPORT"
fi
