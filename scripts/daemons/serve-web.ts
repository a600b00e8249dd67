/**
 * nginx and PHP-FPM (scripts/daemons/web.ts) for a server in its own network namespace: run
 * inside it (`ip netns exec NAME node --import tsx scripts/daemons/serve-web.ts ADDRESS
 * [DATABASE_URL NODE]`), it starts them listening on ADDRESS and, given the panel's PostgreSQL
 * and the server's name, ProFTPD there too (logging in the FTP accounts of the homes placed on
 * NODE); it prints one JSON line with what the web driver and an FTP client need, and stops them
 * on SIGTERM.
 */
import { stopOnSignals } from './daemon-harness.ts';
import { type ProFtpd, startProFtpd } from './proftpd.ts';
import { startWebServers } from './web.ts';

const [address = '127.0.0.1', url = '', node = ''] = process.argv.slice(2);
if (!/^[0-9.]+$/.test(address)) throw new Error(`not an IPv4 address: ${address}`);
if (url !== '' && !url.startsWith('postgres://')) throw new Error('the panel’s PostgreSQL URL is needed for FTP');
const servers = await startWebServers(undefined, address);
let ftp: ProFtpd | undefined;
if (url !== '') ftp = await startProFtpd({ kind: 'postgres', url }, undefined, node, address);
console.log(
  JSON.stringify({
    httpPort: servers.httpPort,
    driverOptions: servers.driverOptions,
    dir: servers.dir,
    ftpPort: ftp?.port ?? 0,
  }),
);
stopOnSignals(async () => {
  await ftp?.stop();
  await servers.stop();
});
