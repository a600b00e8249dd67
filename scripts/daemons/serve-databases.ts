/**
 * MariaDB (scripts/daemons/mariadb.ts) for a databases server in its own network namespace: run
 * inside it (`ip netns exec NAME node --import tsx scripts/daemons/serve-databases.ts ADDRESS`),
 * it starts MariaDB on loopback and ADDRESS, prints one JSON line with the panel's admin login
 * and its port, and stops it on SIGTERM.
 */

import { stopOnSignals, temporaryPlacement } from './daemon-harness.ts';
import { startPrivateMariaDb } from './mariadb.ts';

const [address = ''] = process.argv.slice(2);
if (!/^[0-9.]+$/.test(address)) throw new Error(`not an IPv4 address: ${address}`);
const mariadb = await startPrivateMariaDb(temporaryPlacement, { address });
console.log(JSON.stringify({ adminUrl: mariadb.adminUrl, port: mariadb.port }));
stopOnSignals(async () => {
  await mariadb.stop();
});
