#!/usr/bin/env bash
# Installs the Debian packages the test tiers need, only when some are missing. Safe to run often:
# when everything is there it only checks and returns. Needs root (or sudo) to install.
set -euo pipefail

# The browser for the e2e tier; the daemons of the integration tier; dig and named-checkzone;
# nginx, PHP-FPM and phpMyAdmin for the database sign-on; the MariaDB client tools (dumps) and
# server (the private MariaDB of `npm run stack`);
# Roundcube for the WebMail sign-on plugin (deploy/webmail); OpenDKIM (the DKIM signer) and
# python3-dkim (dkimverify, which checks its signatures in the tests); Pebble, the test ACME CA
# the certificate tests order from. dovecot-sieve (Pigeonhole) runs the mailboxes' autoresponder and
# forwarding scripts. xmllint (libxml2-utils) checks the mail client set-up documents. swaks (with
# libnet-ssleay-perl for its TLS) is the mail client of the submission tests; openssl makes the mail
# harness's self-signed certificate and checks the IMAP handshake. debootstrap makes the clean
# Debian 12 root the install's proof boots in its own namespaces (scripts/daemons/clean-root.ts).
# xmllint also checks every EPP frame against the RFCs' schemas, and libnet-epp-perl (Net::EPP) is
# the independent EPP client that drives the test registry the panel's own client is tested with.
PACKAGES=(
  chromium
  fonts-dejavu-core
  postfix
  postfix-sqlite
  postfix-pgsql
  dovecot-imapd
  dovecot-lmtpd
  dovecot-sqlite
  dovecot-pgsql
  dovecot-sieve
  proftpd-core
  proftpd-mod-sqlite
  proftpd-mod-pgsql
  proftpd-mod-crypto
  openssh-client
  pdns-server
  pdns-backend-sqlite3
  pdns-backend-pgsql
  restic
  goaccess
  rspamd
  bind9-dnsutils
  bind9-utils
  curl
  swaks
  libnet-ssleay-perl
  openssl
  nginx
  php8.2-fpm
  php8.2-cli
  php8.2-curl
  php8.2-mysql
  phpmyadmin
  mariadb-client
  mariadb-server
  roundcube-core
  roundcube-sqlite3
  opendkim
  opendkim-tools
  python3-dkim
  pebble
  libxml2-utils
  libnet-epp-perl
  debootstrap
)

missing=()
for package in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-system-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "install-system-deps: missing ${missing[*]} and not root (no sudo): install them and run again" >&2
    exit 1
  fi
fi

echo "install-system-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# Postfix asks how it should be configured: it should not configure itself at all, the tests
# start it with the project's own config from deploy/.
echo "postfix postfix/main_mailer_type select No configuration" | $SUDO debconf-set-selections
# ProFTPD likewise: standalone, started by the tests with the project's config.
echo "proftpd-core shared/proftpd/inetd_or_standalone select standalone" | $SUDO debconf-set-selections
# phpMyAdmin: no database of its own (dbconfig) and no web server wiring; the tests serve it
# through the project's nginx and PHP-FPM configs from deploy/phpmyadmin.
echo "phpmyadmin phpmyadmin/dbconfig-install boolean false" | $SUDO debconf-set-selections
echo "phpmyadmin phpmyadmin/reconfigure-webserver multiselect" | $SUDO debconf-set-selections
# Roundcube likewise: the tests give it a SQLite database and PHP's web server of their own.
echo "roundcube-core roundcube/dbconfig-install boolean false" | $SUDO debconf-set-selections
echo "roundcube-core roundcube/reconfigure-webserver multiselect" | $SUDO debconf-set-selections
$SUDO apt-get update -o DPkg::Lock::Timeout=120 >/dev/null
$SUDO apt-get install -y --no-install-recommends -o DPkg::Lock::Timeout=120 "${missing[@]}"
