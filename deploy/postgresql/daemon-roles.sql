-- Least privilege for the daemons that read the panel's PostgreSQL database: Dovecot and Postfix
-- log in as panel247_mail, ProFTPD as panel247_ftp, and each may read its views and nothing else
-- (a view reads its tables with its owner's rights, so no table is granted). Run it as the
-- database's owner after the panel's first start (the views come with its migrations), and again
-- after an upgrade that adds a view; it is safe to run twice:
--
--   psql -d panel247 -v mail_password="$MAIL_DB_PASSWORD" -v ftp_password="$FTP_DB_PASSWORD" \
--        -f deploy/postgresql/daemon-roles.sql
--
-- Then put the role and its password in the `CONNECT`/`CONNECTION` of the Dovecot, Postfix and
-- ProFTPD templates (docs/OPERATIONS.md, "Template placeholders").
\set ON_ERROR_STOP on

SELECT 'CREATE ROLE panel247_mail LOGIN' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'panel247_mail')
\gexec
SELECT 'CREATE ROLE panel247_ftp LOGIN' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'panel247_ftp')
\gexec
ALTER ROLE panel247_mail LOGIN PASSWORD :'mail_password' NOSUPERUSER NOCREATEDB NOCREATEROLE;
ALTER ROLE panel247_ftp LOGIN PASSWORD :'ftp_password' NOSUPERUSER NOCREATEDB NOCREATEROLE;

-- nothing of the database's by default, then exactly the views each daemon reads
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM panel247_mail, panel247_ftp;
GRANT USAGE ON SCHEMA public TO panel247_mail, panel247_ftp;
GRANT SELECT ON mail_domains_view, mail_users_view, mail_aliases_view, mail_senders_view TO panel247_mail;
GRANT SELECT ON ftp_users_view TO panel247_ftp;
