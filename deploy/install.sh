#!/bin/bash
# Panel247's production installer for Debian 12: run as root from the panel's folder
# (/opt/panel247, with `npm ci` done), e.g.
#   deploy/install.sh --provider "Example Hosting" --panel-host panel.example.com \
#     --mail-host mail.example.com --nameservers ns1.example.com,ns2.example.com \
#     --ipv4 198.18.0.10 --acme-email hostmaster@example.com
# It checks the machine, then runs scripts/install/main.ts (docs/OPERATIONS.md, "Installing on
# Debian 12"). Safe to run again: each step checks before it changes; an upgrade is the same command.
set -euo pipefail

die() {
  printf 'install.sh: %s\n' "$1" >&2
  exit 1
}

[ "$(id -u)" -eq 0 ] || die 'run it as root (sudo deploy/install.sh …)'

# shellcheck disable=SC1091
[ -r /etc/os-release ] && . /etc/os-release
[ "${ID:-}" = debian ] && [ "${VERSION_ID:-}" = 12 ] ||
  die "Debian 12 (bookworm) only; this is ${PRETTY_NAME:-an unknown system}"

command -v node >/dev/null || die 'Node.js 20.19 or newer is needed (Debian 12 ships 18: use NodeSource or a Node binary)'
node_version=$(node -p 'process.versions.node')
IFS=. read -r major minor _ <<<"$node_version"
if [ "$major" -lt 20 ] || { [ "$major" -eq 20 ] && [ "$minor" -lt 19 ]; }; then
  die "Node.js 20.19 or newer is needed; this one is $node_version"
fi
if [ "$major" -lt 22 ] || { [ "$major" -eq 22 ] && [ "$minor" -lt 13 ]; }; then
  printf 'install.sh: Node.js %s runs the panel, but only 22.13+ and 24 are supported (README.md)\n' "$node_version" >&2
fi

checkout=$(cd "$(dirname "$0")/.." && pwd)
[ -d "$checkout/node_modules/tsx" ] || die "$checkout has no node_modules: run npm ci there first"
# the unit runs the server's bundle (apps/server/dist), not the sources through a loader
[ -f "$checkout/apps/server/dist/main.js" ] || die "$checkout has no server build: run npm run build there first"

cd "$checkout"
exec node --import tsx scripts/install/main.ts "$@"
