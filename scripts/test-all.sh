#!/usr/bin/env bash
# Runs every test tier — unit (server + web), API (SQLite and PostgreSQL), real-daemon
# integration, concurrency (two instances, PostgreSQL, PowerDNS), browser e2e — the real-daemon
# tiers beside the others, and ends with one line "N passed, N failed".
# It installs the Debian packages it needs (scripts/install-system-deps.sh) and starts the
# local PostgreSQL when it is installed but stopped.
set -uo pipefail
cd "$(dirname "$0")/.."

out=.test-output
rm -rf "$out" && mkdir -p "$out"

bash scripts/install-system-deps.sh || echo "test-all: could not install system packages; daemon tiers will fail" >&2

if command -v pg_isready >/dev/null 2>&1 && ! pg_isready -q -h 127.0.0.1 -p 5432; then
  cluster=$(ls /etc/postgresql 2>/dev/null | head -n 1)
  [ -n "$cluster" ] && pg_ctlcluster --skip-systemctl-redirect "$cluster" main start || true
fi

[ -d node_modules ] || npm ci

echo "test-all: building the web app (served by the e2e tier) and the server's bundles (run by the installed unit)"
npm run build -w apps/web >"$out/build.log" 2>&1 || { echo "web build failed:"; tail -n 30 "$out/build.log"; }
npm run build:server >"$out/build-server.log" 2>&1 || { echo "server build failed:"; tail -n 30 "$out/build-server.log"; }

status=0
# A tier's console output goes to its log, printed whole when the tier ends, so that two tiers
# running side by side do not interleave their lines.
run_tier() {
  local name=$1
  shift
  local code=0 started=$SECONDS
  npx vitest run "$@" --reporter=default --reporter=json --outputFile="$out/$name.json" >"$out/$name.log" 2>&1 || code=1
  echo
  echo "=== tier: $name ($((SECONDS - started)) s, started at $started s) ==="
  cat "$out/$name.log"
  return $code
}

# Two chains side by side, of about the same length on a 2-core machine (2026-11-27: integration
# 564 s + concurrency 24 s + API 670 s against unit 275 s + e2e 880-1200 s; with the API tier after
# unit, the e2e tier started at minute 16 and the run took 36 minutes; in this order 29 minutes,
# e2e taking 1440 s beside the API tier's 865 s, as both want the CPU). The real-daemon tiers spend
# most of their time waiting on daemons they start for themselves (each on loopback ports of its
# own). No two tiers share a daemon: PostgreSQL serves several, each test file in a database of its
# own, and each e2e file runs its own panel server with MariaDB names of its own.
# 2026-12-02, the chains still even: integration 1700 s + concurrency 69 s + API 2051 s against
# unit 793 s + e2e 2783 s, 67 minutes in all with the servers tier beside them and clean-root
# after; the load average stayed at 6-9 on the 2 cores, so another split would not shorten it, only
# less work would (the web unit tests spend 209 s making jsdom and 185 s importing, per file).
# 2026-12-03, with less work (the unit and API tiers sharing their modules per worker, the web
# tests of plain logic without a jsdom; vitest.config.ts) and nothing else running on the machine:
# unit 210 s, integration 647 s, concurrency 33 s, API 536 s, e2e 922 s, servers 173 s,
# clean-root 321 s: 26 minutes in all.
(
  chain=0
  run_tier integration --project integration || chain=1
  run_tier concurrency --project concurrency || chain=1
  run_tier api --project api || chain=1
  exit $chain
) &
daemons=$!
# The provider's servers in namespaces of their own, beside both chains: they mostly wait on
# daemons starting inside their namespaces (2026-11-30: 7 minutes of the integration tier's 33).
run_tier servers --project servers >"$out/servers.chain" 2>&1 &
servers=$!
run_tier unit --project unit --project web || status=1
run_tier e2e --project e2e || status=1
wait "$daemons" || status=1
wait "$servers" || status=1
cat "$out/servers.chain"
# Alone, after both chains: unpacking and booting a Debian root (about 1.4 GB written, systemd,
# PostgreSQL, every daemon) starved a browser test that ran beside it past its 30 s wait, in CI
# on 2026-11-29 even as the browser tier's last files ran. It takes about 95 s on its own.
run_tier clean-root --project clean-root || status=1

# Adds up the JSON reports; a tier that crashed before writing its report counts as one failure.
node - "$out" unit api integration servers concurrency clean-root e2e <<'NODE'
const fs = require('node:fs');
const [dir, ...tiers] = process.argv.slice(2);
let passed = 0, failed = 0, skipped = 0;
for (const tier of tiers) {
  const file = `${dir}/${tier}.json`;
  if (!fs.existsSync(file)) { console.log(`test-all: tier ${tier} wrote no report`); failed += 1; continue; }
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  // A test file that failed to load has no failed tests but is a failure all the same.
  failed += report.testResults.filter((r) => r.status === 'failed' && r.assertionResults.every((a) => a.status !== 'failed')).length;
  console.log(`test-all: ${tier}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
  // Named here, at the end, because a CI log is often read from its tail.
  for (const file of report.testResults) {
    const failures = file.assertionResults.filter((a) => a.status === 'failed');
    if (file.status === 'failed' && failures.length === 0) console.log(`test-all:   FAILED to load ${file.name}: ${String(file.message).split('\n')[0]}`);
    for (const test of failures) {
      console.log(`test-all:   FAILED ${file.name} > ${test.fullName}`);
      console.log(`test-all:     ${String(test.failureMessages?.[0] ?? '').split('\n').slice(0, 3).join(' | ')}`);
    }
  }
}
if (skipped) console.log(`test-all: ${skipped} skipped`);
// The last line is exactly "N passed, N failed": what CI reads.
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
NODE
summary=$?
[ $status -eq 0 ] && [ $summary -eq 0 ]
