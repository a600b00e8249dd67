import { mkdirSync } from 'node:fs';
import { type AppConfig, loadConfig } from '../src/config.ts';
import { openRuntime, type Runtime } from '../src/runtime.ts';

/** What the benchmarks' server children share: their configuration and the password they log in with. */

export const BENCH_PASSWORD = 'bench password 1';

/**
 * In a server child: the panel's configuration from what the parent passed in the environment
 * (BENCH_DATA_DIR, BENCH_DATABASE_URL), without demo data, logs or captcha, and the runtime on it.
 */
export async function openBenchRuntime(
  overrides: Record<string, unknown> = {},
): Promise<{ config: AppConfig; runtime: Runtime; dataDir: string }> {
  const dataDir = process.env.BENCH_DATA_DIR ?? '';
  mkdirSync(dataDir, { recursive: true });
  const config = loadConfig(
    {},
    {
      dataDir,
      databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
      seedDemo: false,
      logLevel: 'silent',
      'captcha.provider': 'none',
      ...overrides,
    },
  );
  return { config, runtime: await openRuntime(config), dataDir };
}
