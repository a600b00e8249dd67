-- Least privilege for the daemons that read the panel's PostgreSQL database: Dovecot and Postfix
-- log in as panel247_mail, ProFTPD as panel247_ftp, and each may read its views and nothing else
-- (a view reads its tables with its owner's rights, so no table is granted).
--
-- Run it as a superuser (creating roles needs one, or CREATEROLE) on the panel's database, after
-- the panel's first start (the views come with its migrations) and again after an upgrade that
-- adds a view; it is safe to run twice:
--
--   sudo -u postgres psql -X -d panel247 -v mail_password="$MAIL_DB_PASSWORD" \
--        -v ftp_password="$FTP_DB_PASSWORD" -f deploy/postgresql/daemon-roles.sql
--
-- A role that does not exist yet is created with the password given. A role that exists keeps its
-- password (a NOTICE says so): the daemons configured with it keep working. To change the
-- passwords of existing roles, say so: add `-v set_passwords=on`.
--
-- Then put the role and its password in the `CONNECT`/`CONNECTION` of the Dovecot, Postfix and
-- ProFTPD templates (docs/OPERATIONS.md, "Template placeholders").
\set ON_ERROR_STOP on

DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = current_user AND (rolsuper OR rolcreaterole)) THEN
    RAISE EXCEPTION 'daemon-roles.sql: % may not create roles; run it as a superuser (sudo -u postgres psql …)', current_user;
  END IF;
END
$$;

SELECT EXISTS (SELECT FROM pg_roles WHERE rolname = 'panel247_mail') AS mail_role_exists,
       EXISTS (SELECT FROM pg_roles WHERE rolname = 'panel247_ftp') AS ftp_role_exists
\gset

\if :mail_role_exists
  \if :{?set_passwords}
ALTER ROLE panel247_mail PASSWORD :'mail_password';
  \else
\warn 'NOTICE: panel247_mail exists: its password is unchanged (-v set_passwords=on changes it)'
  \endif
\else
CREATE ROLE panel247_mail LOGIN PASSWORD :'mail_password';
\endif

\if :ftp_role_exists
  \if :{?set_passwords}
ALTER ROLE panel247_ftp PASSWORD :'ftp_password';
  \else
\warn 'NOTICE: panel247_ftp exists: its password is unchanged (-v set_passwords=on changes it)'
  \endif
\else
CREATE ROLE panel247_ftp LOGIN PASSWORD :'ftp_password';
\endif

-- Whatever happened to them before, the roles may log in and do nothing else of their own.
ALTER ROLE panel247_mail LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE;
ALTER ROLE panel247_ftp LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE;

-- nothing of the database's by default, then exactly the views each daemon reads
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM panel247_mail, panel247_ftp;
GRANT USAGE ON SCHEMA public TO panel247_mail, panel247_ftp;
GRANT SELECT ON mail_domains_view, mail_users_view, mail_aliases_view, mail_senders_view TO panel247_mail;
GRANT SELECT ON ftp_users_view, sftp_keys_view TO panel247_ftp;
