/**
 * A panel instance's job worker alone, for the takeover test: it works the test kind and, told so,
 * says "started <id>" on stdout and then hangs inside the job, so the test can kill it mid-run.
 */
import { z } from 'zod';
import { defineJob } from '../../src/jobs/job-kind.ts';
import { PgBossEngine } from '../../src/jobs/pg-boss-engine.ts';

export const TAKEOVER_KIND = defineJob({
  name: 'test.takeover',
  payload: z.object({ object: z.string() }),
  policy: 'ordered',
  key: (p) => p.object,
  retry: { limit: 3, delaySeconds: 1, backoff: false },
  expireSeconds: 600,
});

export const TAKEOVER_HEARTBEAT_SECONDS = 10;

async function main() {
  const [url] = process.argv.slice(2);
  const engine = new PgBossEngine({
    connectionString: url as string,
    heartbeatSeconds: TAKEOVER_HEARTBEAT_SECONDS,
    superviseSeconds: 1,
  });
  await engine.start({ workers: true });
  await engine.work(TAKEOVER_KIND, async (_payload, run) => {
    process.stdout.write(`started ${run.id}\n`);
    await new Promise(() => undefined);
  });
  process.stdout.write('ready\n');
}

if (import.meta.url === `file://${process.argv[1]}`) void main();
