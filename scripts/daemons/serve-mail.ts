/**
 * Dovecot and Postfix (scripts/daemons/mail.ts) for a mail server in its own network namespace:
 * run inside it (`ip netns exec NAME node --import tsx scripts/daemons/serve-mail.ts ADDRESS
 * DATABASE_URL NODE`), it starts them on loopback and ADDRESS, reading the panel's PostgreSQL at
 * DATABASE_URL as server NODE (only the mail placed on it), prints one JSON line with what the
 * mail driver and a client need, and stops them on SIGTERM.
 */
import { stopOnSignals } from './daemon-harness.ts';
import { startMailDaemons } from './mail.ts';

const [address = '', url = '', node = ''] = process.argv.slice(2);
if (!/^[0-9.]+$/.test(address)) throw new Error(`not an IPv4 address: ${address}`);
if (!url.startsWith('postgres://')) throw new Error('the panel’s PostgreSQL URL is needed');
const daemons = await startMailDaemons({ kind: 'postgres', url }, undefined, { node, address });
console.log(
  JSON.stringify({
    imapPort: daemons.imapPort,
    smtpPort: daemons.smtpPort,
    submissionPort: daemons.submissionPort,
    mailRoot: daemons.mailRoot,
    doveadmConfig: daemons.doveadmConfig,
  }),
);
stopOnSignals(async () => {
  await daemons.stop();
});
