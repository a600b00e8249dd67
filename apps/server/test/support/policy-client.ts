import net from 'node:net';

/**
 * A Postfix-like client of the policy protocol: one connection, requests sent one at a time and
 * each answer read to its empty line. `closed` settles when the server ends the connection.
 */
export async function connectPolicyClient(to: number | { path: string }, host = '127.0.0.1') {
  const socket = net.connect(typeof to === 'number' ? { host, port: to } : to);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let received = '';
  const replies: string[] = [];
  const waiting: ((reply: string) => void)[] = [];
  const deliver = () => {
    while (replies.length > 0 && waiting.length > 0) waiting.shift()?.(replies.shift() as string);
  };
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined);
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('utf8');
    for (let end = received.indexOf('\n\n'); end !== -1; end = received.indexOf('\n\n')) {
      replies.push(received.slice(0, end));
      received = received.slice(end + 2);
    }
    deliver();
  });
  const next = () =>
    new Promise<string>((resolve) => {
      waiting.push(resolve);
      deliver();
    });
  return {
    socket,
    closed,
    /** Sends raw bytes (a request, or something that is not one). */
    write: (text: string) => socket.write(text),
    /** The next answer, without its closing empty line (`action=…`). */
    reply: next,
    /** Sends the attributes as one request and returns the answer's action. */
    async ask(attributes: Record<string, string>): Promise<string> {
      const answer = next();
      socket.write(
        `${Object.entries(attributes)
          .map(([name, value]) => `${name}=${value}\n`)
          .join('')}\n`,
      );
      const line = await answer;
      return line.replace(/^action=/, '');
    },
    close: () => {
      socket.end();
      return closed;
    },
  };
}

/** The attributes Postfix sends at DATA for an authenticated message (shortened). */
export function dataRequest(login: string, recipients = 1, client = '192.0.2.7'): Record<string, string> {
  return {
    request: 'smtpd_access_policy',
    protocol_state: 'DATA',
    protocol_name: 'ESMTP',
    client_address: client,
    client_name: 'unknown',
    sender: login,
    recipient: recipients === 1 ? 'someone@example.org' : '',
    recipient_count: String(recipients),
    sasl_method: 'PLAIN',
    sasl_username: login,
    queue_id: '',
    size: '0',
  };
}
