import path from 'node:path';
import { DEPLOY, type Step } from './context.ts';
import { run } from './system.ts';

/** What a psql variable may hold here: generated hex passwords, names, Debian's schema paths. */
const PLAIN_VALUE = /^[A-Za-z0-9_./-]*$/;

/**
 * psql as the postgres superuser, reading SQL from standard input: the variables first, as `\set`
 * lines (so no password is in a process's arguments, which every user may list), then the SQL
 * text or one of deploy/'s files. psql quotes a `:'name'` value itself.
 */
async function psql(
  source: { sql: string } | { file: string },
  variables: Record<string, string> = {},
  database = 'postgres',
): Promise<string> {
  const lines = Object.entries(variables).map(([name, value]) => {
    if (!PLAIN_VALUE.test(value)) throw new Error(`psql variable ${name}: unexpected characters`);
    return `\\set ${name} '${value}'`;
  });
  if ('file' in source) {
    if (!PLAIN_VALUE.test(source.file)) throw new Error(`${source.file}: unexpected characters`);
    lines.push(`\\i ${source.file}`);
  } else lines.push(source.sql);
  const args = ['-u', 'postgres', '--', 'psql', '-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-d', database];
  return (await run('runuser', args, { input: `${lines.join('\n')}\n` })).stdout;
}

async function exists(catalog: 'pg_roles' | 'pg_database', column: 'rolname' | 'datname', name: string) {
  const answer = await psql({ sql: `SELECT 1 FROM ${catalog} WHERE ${column} = :'name';\n` }, { name });
  return answer.trim() === '1';
}

export const panelDatabaseStep: Step = {
  title: "The panel's PostgreSQL role and database",
  async run({ secrets, say }) {
    await run('systemctl', ['enable', '--now', 'postgresql']);
    if (await exists('pg_roles', 'rolname', 'panel247')) say('role panel247 exists (its password is kept)');
    else {
      await psql(
        { sql: "CREATE ROLE panel247 LOGIN PASSWORD :'password';\n" },
        { password: secrets.PANEL_DB_PASSWORD },
      );
      say('made the role panel247');
    }
    if (await exists('pg_database', 'datname', 'panel247')) say('database panel247 exists');
    else {
      // CREATE DATABASE cannot run in a transaction block; psql sends this line alone
      await psql({ sql: 'CREATE DATABASE panel247 OWNER panel247;\n' });
      say('made the database panel247');
    }
  },
};

/** A daemon's own role, database and schema (deploy/postgresql/daemon-database.sql, safe to run again). */
function daemonDatabaseStep(
  name: 'pdns' | 'roundcube',
  probe: string,
  schema: string,
  secret: 'PDNS_DB_PASSWORD' | 'ROUNDCUBE_DB_PASSWORD',
): Step {
  return {
    title: `${name}'s PostgreSQL role, database and schema`,
    async run({ secrets, say }) {
      const before = await exists('pg_database', 'datname', name);
      await psql(
        { file: path.join(DEPLOY, 'postgresql/daemon-database.sql') },
        {
          name,
          password: secrets[secret],
          probe,
          schema,
        },
      );
      say(before ? `database ${name} exists (its tables are left alone)` : `made the database ${name} with its schema`);
    },
  };
}

export const pdnsDatabaseStep = daemonDatabaseStep(
  'pdns',
  'domains',
  '/usr/share/pdns-backend-pgsql/schema/schema.pgsql.sql',
  'PDNS_DB_PASSWORD',
);
export const roundcubeDatabaseStep = daemonDatabaseStep(
  'roundcube',
  'users',
  '/usr/share/roundcube/SQL/postgres.initial.sql',
  'ROUNDCUBE_DB_PASSWORD',
);

/**
 * The read-only roles of Dovecot, Postfix and ProFTPD on the panel's views: after the panel's
 * migrations made them, and again on each upgrade (new views); an existing role keeps its password.
 */
export const daemonRolesStep: Step = {
  title: "The daemons' read-only roles",
  async run({ secrets, say }) {
    await psql(
      { file: path.join(DEPLOY, 'postgresql/daemon-roles.sql') },
      { mail_password: secrets.MAIL_ROLE_PASSWORD, ftp_password: secrets.FTP_ROLE_PASSWORD },
      'panel247',
    );
    say('panel247_mail and panel247_ftp may read their views');
  },
};

/**
 * The panel's first start runs its migrations, which make the views the daemons read; the roles
 * that read them can only be given rights once they exist. Waits for them (the migrations' time
 * depends on the machine: no fixed deadline shorter than the unit's own restarts would allow).
 */
export const panelMigratedStep: Step = {
  title: "The panel's migrations",
  async run({ say }) {
    // the last migration's view too: the grants that follow name it
    const views = ['mail_users_view', 'ftp_users_view', 'sftp_keys_view'];
    for (let attempt = 1; ; attempt++) {
      const found = await psql(
        { sql: `SELECT count(*) FROM pg_views WHERE viewname IN ('${views.join("','")}');\n` },
        {},
        'panel247',
      );
      if (Number(found.trim()) === views.length) break;
      if (attempt === 300) throw new Error('the panel has not made its views after 10 minutes: journalctl -u panel247');
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
    say("the panel's tables and views exist");
  },
};
