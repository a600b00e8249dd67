/**
 * nginx and PHP-FPM (scripts/daemons/web.ts) for a server in its own network namespace: run
 * inside it (`ip netns exec NAME node --import tsx scripts/daemons/serve-web.ts ADDRESS`), it
 * starts them listening on ADDRESS, prints one JSON line with what the web driver needs, and
 * stops them on SIGTERM.
 */
import { startWebServers } from './web.ts';

const address = process.argv[2] ?? '127.0.0.1';
if (!/^[0-9.]+$/.test(address)) throw new Error(`not an IPv4 address: ${address}`);
const servers = await startWebServers(undefined, address);
console.log(JSON.stringify({ httpPort: servers.httpPort, driverOptions: servers.driverOptions, dir: servers.dir }));
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await servers.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
