import { ConfigError, loadConfig } from './config.ts';
import { ConfigSourceError, findConfigSource } from './config-source.ts';
import { startNodeAgent } from './node-agent.ts';
import { openRuntime } from './runtime.ts';
import { loadSecretKey } from './secret-key.ts';

/**
 * The node agent on its own (PANEL_AGENT=separate on the panel's instances): the same
 * configuration as the panel, no HTTP; stops cleanly on SIGINT/SIGTERM, leaving a job it was
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
  const runtime = await openRuntime(config, { seed: false });
  const agent = await startNodeAgent({
    config,
    db: runtime.db,
    events: runtime.events,
    dnsDriver: runtime.dnsDriver,
    jobs: runtime.jobs,
    secretKey: loadSecretKey(config),
  });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`node agent: ${signal}, stopping`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await agent.stop();
    await runtime.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  console.log(`node agent: running (${runtime.kind === 'sqlite' ? `SQLite in ${config.dataDir}` : 'PostgreSQL'})`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
