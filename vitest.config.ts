import { defineConfig } from 'vitest/config';

/** The tests that boot a clean Debian root (scripts/daemons/clean-root.ts): a tier of their own. */
const CLEAN_ROOT_TESTS = 'apps/server/test/integration/**/*clean-root.test.ts';
/** The provider's servers, each a network namespace with daemons of its own (scripts/daemons/netns.ts). */
const SERVER_NAMESPACE_TESTS = 'apps/server/test/integration/**/*.netns.test.ts';

/**
 * The server's unit and API tests share one module graph per worker (`isolate: false`): each file
 * builds its own app, database and spies and leaves nothing behind (no `vi.mock`; a spy is
 * restored, an environment variable put back), so importing the server afresh for every file only
 * cost time. Measured alone on this 2-core machine: the API tier 617 s and 518 CPU-seconds
 * isolated, 428 s and 328 without; the unit tier 44 s and 30 against 31 s and 16. A new file in
 * these tiers must leave no module state behind it either. The browser-like web tests keep their
 * isolation: their modules hold the app's singletons (texts, query client, the realtime bridge).
 */
const SHARED_MODULES = { isolate: false } as const;

/**
 * One vitest configuration, one project per test tier. `scripts/test-all.sh` runs the tiers (the
 * real-daemon ones beside the others) and adds up the counts.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['apps/server/test/unit/**/*.test.ts', 'packages/contract/test/**/*.test.ts'],
          environment: 'node',
          ...SHARED_MODULES,
          // No test may depend on the machine's speed: the limit only catches a test that hangs.
          testTimeout: 30_000,
        },
      },
      'apps/web/vitest.config.ts',
      {
        test: {
          name: 'api',
          include: ['apps/server/test/api/**/*.test.ts'],
          environment: 'node',
          ...SHARED_MODULES,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['apps/server/test/integration/**/*.test.ts'],
          exclude: [CLEAN_ROOT_TESTS, SERVER_NAMESPACE_TESTS],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        // The real-daemon tests whose servers live in namespaces of their own (their own addresses,
        // daemons and slots, PostgreSQL databases of their own): a tier apart, so test-all runs it
        // beside the other integration tests, which share loopback daemons with nothing of it.
        test: {
          name: 'servers',
          include: [SERVER_NAMESPACE_TESTS],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        // A whole Debian root booted in namespaces (the production install's proof): the heaviest
        // on disk and CPU, so test-all runs it apart, once the browser tier is nearly done.
        test: {
          name: 'clean-root',
          include: [CLEAN_ROOT_TESTS],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 900_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'concurrency',
          include: ['apps/server/test/concurrency/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/tests/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
