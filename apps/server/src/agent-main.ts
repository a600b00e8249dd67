import path from 'node:path';
import { ConfigError, loadConfig } from './config.ts';
import { ConfigSourceError, findConfigSource } from './config-source.ts';
import { openDatabase, pendingMigrations } from './db/database.ts';
import { createDnsDriver } from './drivers/dns/create-dns-driver.ts';
import { createJobEngine } from './jobs/create-job-engine.ts';
import { createLogger } from './logger.ts';
import { PostgresEventBus } from './modules/realtime/postgres-event-bus.ts';
import { startNodeAgent } from './node-agent.ts';
import { loadSecretKey } from './secret-key.ts';

/** The agent's own queries are few (the work log has its own pool): a small pool, a small footprint. */
const AGENT_POOL_SIZE = 4;

/**
 * The node agent on its own (PANEL_AGENT=separate on the panel's instances): the same
 * configuration as the panel, no API (only the node channel listens, at PANEL_AGENT_URL); stops cleanly on SIGINT/SIGTERM, leaving a job it was
 * running to the work log (it expires and runs again, once).
 */
async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(findConfigSource(process.env).env);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof ConfigSourceError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  if (!config.databaseUrl) {
    // The embedded work log serves the panel's one process; an agent beside it needs PostgreSQL.
    console.error('The node agent needs PostgreSQL (PANEL_DATABASE_URL): on SQLite the panel is its own agent.');
    process.exit(1);
  }
  // The panel's database and bus opened directly (not through runtime.ts, which brings every
  // service for the demo seed): the agent's memory is its drivers and the work log.
  const { db, kind, url } = openDatabase({
    url: config.databaseUrl,
    sqliteFile: path.join(config.dataDir, 'panel.sqlite'),
    poolSize: AGENT_POOL_SIZE,
    preparedStatements: config.databasePreparedStatements,
  });
  // The panel migrates the database it owns; a server's agent (its own role, no DDL) checks only
  // that it is this version's.
  const pending = await pendingMigrations(db);
  if (pending.length > 0) {
    console.error(
      `The panel's database lacks ${pending.join(', ')}: upgrade and start the panel first, then its servers' agents.`,
    );
    process.exit(1);
  }
  const events = await PostgresEventBus.connect(url as string);
  const agent = await startNodeAgent({
    config,
    db,
    events,
    dnsDriver: createDnsDriver(config),
    jobs: createJobEngine({ db, kind, url, node: config.agent.node }),
    secretKey: loadSecretKey(config),
    log: createLogger(config.logLevel),
  });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`node agent: ${signal}, stopping`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await agent.stop();
    await events.close();
    await db.destroy();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  console.log('node agent: running (PostgreSQL)');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
