-- A server's own role on the panel's PostgreSQL database: the node agent of server NAME
-- (PANEL_NODE=NAME) logs in as panel247_node_NAME, never as the panel's owner or a superuser.
-- What it may do, and why (docs/OPERATIONS.md, "What a server can read and write"):
--
--   read   the services' data its work applies (resources and their plans, their web, FTP, mail, database and
--          DNS rows, certificates, service users, placements, servers, permission grants to tell
--          pages that work landed, the brands its templates name);
--   write  the work log (pg-boss's schema), the change log's outcome (service_changes), the rows a
--          refused change puts back in its area, the service users it allocates, certificates and
--          installs it finishes, scheduled tasks' runs, mail sending counts, activity entries, and its own heartbeat
--          and hosting root (nodes.last_seen_at and hosting_root only);
--   never  the customers' logins and secrets: users, sessions, API tokens, passkeys, login and
--          sign-on challenges, the outbox, rate limits, captchas; nor any table's structure
--          (the panel migrates; an agent only checks the schema is its version).
--
-- Run it as a superuser on the panel's database after `panel node add NAME` and after an upgrade
-- that adds tables; it is safe to run twice:
--
--   sudo -u postgres psql -X -d panel247 -v node=web1 -v password="$NODE_DB_PASSWORD" \
--        -f deploy/postgresql/node-role.sql
--
-- A role that exists keeps its password unless `-v set_passwords=on` is given. Then, on that
-- server: PANEL_DATABASE_URL=postgres://panel247_node_web1:PASSWORD@CONTROL-PLANE:5432/panel247
\set ON_ERROR_STOP on

DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = current_user AND (rolsuper OR rolcreaterole)) THEN
    RAISE EXCEPTION 'node-role.sql: % may not create roles; run it as a superuser (sudo -u postgres psql …)', current_user;
  END IF;
END
$$;

-- a server's name: lower-case letters, digits and inner hyphens (panel node add checks the same)
SELECT :'node' ~ '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$' AS node_ok \gset
\if :node_ok
\else
  \echo 'node-role.sql: -v node=NAME must be a server name (lower-case letters, digits, inner hyphens)'
  \quit 3
\endif
\set role panel247_node_:node

SELECT EXISTS (SELECT FROM pg_roles WHERE rolname = :'role') AS role_exists \gset
\if :role_exists
  \if :{?set_passwords}
ALTER ROLE :"role" PASSWORD :'password';
  \else
\warn 'NOTICE: the role exists: its password is unchanged (-v set_passwords=on changes it)'
  \endif
\else
CREATE ROLE :"role" LOGIN PASSWORD :'password';
\endif
ALTER ROLE :"role" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE;

-- nothing by default, then exactly what is listed
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM :"role";
REVOKE CREATE ON SCHEMA public FROM :"role";
GRANT USAGE ON SCHEMA public TO :"role";

GRANT SELECT ON
  kysely_migration, brands, accounts, resources, plans, permission_grants, service_placements, service_moves, nodes,
  service_users, service_changes, dns_zones, dns_zone_changes, dns_records, domains,
  mailboxes, mail_aliases, mailbox_rules, mailbox_spam, mail_spam_senders, mail_counts, mail_send_counts, mail_dkim_keys,
  mail_auth_policies, mail_certificates, ftp_accounts, hosted_databases, web_settings, web_sites,
  web_redirections, acme_accounts, site_certificates, install_jobs, backup_jobs, backup_snapshots,
  mail_domains_view, mail_users_view, mail_aliases_view, mail_senders_view, ftp_users_view,
  sftp_keys_view, ssh_keys, cron_tasks, cron_runs, site_stats, stats_refreshes
TO :"role";

-- its work: the outcome of each change, and what a refused change puts back in its area
GRANT UPDATE, DELETE ON service_changes TO :"role";
GRANT INSERT, UPDATE, DELETE ON
  web_settings, web_sites, web_redirections, ftp_accounts, mailboxes, mail_aliases, mailbox_rules,
  hosted_databases, service_users, site_certificates, acme_accounts, install_jobs, mail_send_counts,
  mail_counts, cron_runs, site_stats, stats_refreshes
TO :"role";
GRANT INSERT ON activity_log TO :"role";
-- its own heartbeat, and nothing else of the servers' rows
GRANT UPDATE (last_seen_at, hosting_root) ON nodes TO :"role";
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO :"role";

-- the work log: pg-boss's tables (rows only; the panel made them)
GRANT USAGE ON SCHEMA pgboss TO :"role";
REVOKE CREATE ON SCHEMA pgboss FROM :"role";
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA pgboss TO :"role";
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA pgboss TO :"role";
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA pgboss TO :"role";
