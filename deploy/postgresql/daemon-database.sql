-- A daemon's own PostgreSQL database: PowerDNS and Roundcube keep their data in a database of their
-- own (not the panel's), owned by a login role of the same name, with the schema Debian's package
-- ships. Run it as a superuser; it is safe to run again (an upgrade, a second install):
--
--   sudo -u postgres psql -X -v name=pdns -v password="$PDNS_DB_PASSWORD" \
--        -v schema=/usr/share/pdns-backend-pgsql/schema/schema.pgsql.sql -v probe=domains \
--        -f deploy/postgresql/daemon-database.sql
--   sudo -u postgres psql -X -v name=roundcube -v password="$ROUNDCUBE_DB_PASSWORD" \
--        -v schema=/usr/share/roundcube/SQL/postgres.initial.sql -v probe=users \
--        -f deploy/postgresql/daemon-database.sql
--
-- name: the role and the database (lower-case letters, digits, _); password: the role's password
-- when it is created; schema: the package's schema file, loaded as the role (so the daemon owns
-- its tables) when the database lacks the table `probe`. A role that exists keeps its password (a
-- NOTICE says so) unless `-v set_passwords=on` is given; tables that exist are never touched.
\set ON_ERROR_STOP on

DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = current_user AND rolsuper) THEN
    RAISE EXCEPTION 'daemon-database.sql: % is not a superuser; run it as one (sudo -u postgres psql …)', current_user;
  END IF;
END
$$;

-- The names go into SQL as identifiers: plain ones only (checked by the server, which can refuse).
SELECT set_config('panel247.name', :'name', false), set_config('panel247.probe', :'probe', false) \gset x_
DO $$
BEGIN
  IF current_setting('panel247.name') !~ '^[a-z][a-z0-9_]{0,62}$' THEN
    RAISE EXCEPTION 'daemon-database.sql: name must be lower-case letters, digits and _';
  END IF;
  IF current_setting('panel247.probe') !~ '^[a-z][a-z0-9_]{0,62}$' THEN
    RAISE EXCEPTION 'daemon-database.sql: probe must be a table name';
  END IF;
END
$$;
SELECT EXISTS (SELECT FROM pg_roles WHERE rolname = :'name') AS role_exists
\gset

\if :role_exists
  \if :{?set_passwords}
ALTER ROLE :"name" PASSWORD :'password';
  \else
SELECT format('NOTICE: %s exists: its password is unchanged (-v set_passwords=on changes it)', :'name') AS notice \gset
\warn :notice
  \endif
\else
CREATE ROLE :"name" LOGIN PASSWORD :'password';
\endif
ALTER ROLE :"name" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE;

SELECT format('CREATE DATABASE %I OWNER %I ENCODING %L TEMPLATE template0', :'name', :'name', 'UTF8')
  WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = :'name')
\gexec
SELECT format('REVOKE ALL ON DATABASE %I FROM PUBLIC', :'name')
\gexec
SELECT format('GRANT CONNECT, TEMPORARY ON DATABASE %I TO %I', :'name', :'name')
\gexec

\connect :name
SELECT NOT EXISTS (SELECT FROM pg_tables WHERE schemaname = 'public' AND tablename = :'probe') AS needs_schema
\gset
\if :needs_schema
SET ROLE :"name";
\i :schema
RESET ROLE;
\endif
