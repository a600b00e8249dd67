import { buildApp } from './app.ts';
import { ConfigError, loadConfig, unknownPanelVariables } from './config.ts';
import { type ConfigSource, ConfigSourceError, describeConfigSource, findConfigSource } from './config-source.ts';
import { placeholderRefusal, placeholderSettings } from './dns-placeholders.ts';
import { openRuntime } from './runtime.ts';
import { loadSecretKey } from './secret-key.ts';
import { DEMO } from './seed/demo-seed.ts';

/** Starts the panel: config, database, app, listen; stops cleanly on SIGINT/SIGTERM. */
async function main() {
  let config: ReturnType<typeof loadConfig>;
  let source: ConfigSource;
  try {
    // The same search as the CLI's: started by hand on an installed machine, it is that panel.
    source = findConfigSource(process.env);
    config = loadConfig(source.env);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof ConfigSourceError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const refusal = placeholderRefusal(config, source.env);
  if (refusal) {
    console.error(refusal);
    process.exit(1);
  }
  if (config.dns.allowPlaceholders && placeholderSettings(config).length > 0) {
    console.warn('PANEL_DNS_ALLOW_PLACEHOLDERS: customer zones get documentation values (a trial only)');
  }

  const runtime = await openRuntime(config);
  const { app } = await buildApp({
    config,
    db: runtime.db,
    events: runtime.events,
    dnsDriver: runtime.dnsDriver,
    jobs: runtime.jobs,
    secretKey: loadSecretKey(config),
  });
  if (source.file) app.log.info(describeConfigSource(source, config));
  const unknown = unknownPanelVariables(source.env);
  if (unknown.length > 0)
    app.log.warn({ variables: unknown }, `Unknown PANEL_* variables, ignored: ${unknown.join(', ')}`);
  if (config.captcha.provider === 'none')
    app.log.warn('Captcha disabled (PANEL_CAPTCHA=none): do not run like this in production');
  if (runtime.kind === 'postgres' && !config.secretKey) {
    app.log.warn('PANEL_SECRET_KEY is not set: several instances on one database must share it');
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close();
    await runtime.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  const address = await app.listen({ host: config.host, port: config.port });
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${new URL(address).port}/`;
  const seeded = config.seedDemo ?? runtime.kind === 'sqlite';
  const lines = [
    '',
    `  Panel247 is running at ${url}`,
    `  Database: ${runtime.kind === 'sqlite' ? `SQLite in ${config.dataDir}` : 'PostgreSQL'}`,
  ];
  if (seeded) {
    lines.push(
      `  Demo logins (domain ${DEMO.domain}):`,
      `    ${DEMO.admin.username} / ${DEMO.admin.password}   (full access)`,
      `    ${DEMO.viewer.username} / ${DEMO.viewer.password}   (read-only on ${DEMO.domain})`,
    );
  }
  console.log(`${lines.join('\n')}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
