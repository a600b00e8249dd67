import { connect, isIP, type Socket } from 'node:net';
import { connect as connectTls, type TLSSocket } from 'node:tls';

/**
 * A line-based conversation with a daemon (IMAP, FTP): send a command, read reply lines up to the
 * one that ends the reply, switch to TLS after the daemon agreed to STARTTLS / AUTH TLS. Made for
 * `panel doctor`'s probes: what it sends is never kept or logged, and an abort closes the socket.
 */
export class LineConversation {
  private buffer = '';
  private readonly lines: string[] = [];
  private waiter: (() => void) | undefined;
  private failure: Error | undefined;

  private constructor(
    private socket: Socket | TLSSocket,
    readonly where: string,
  ) {
    this.listen(socket);
  }

  /** Connects to host:port; the signal's abort closes the conversation. */
  static open(host: string, port: number, signal: AbortSignal): Promise<LineConversation> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port });
      const where = `${host}:${port}`;
      const onError = (error: Error) => reject(new Error(`${where}: ${error.message}`));
      socket.once('error', onError);
      socket.once('connect', () => {
        socket.off('error', onError);
        const conversation = new LineConversation(socket, where);
        signal.addEventListener('abort', () => conversation.close());
        resolve(conversation);
      });
    });
  }

  private listen(socket: Socket | TLSSocket): void {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      let end = this.buffer.indexOf('\n');
      while (end >= 0) {
        this.lines.push(this.buffer.slice(0, end).replace(/\r$/, ''));
        this.buffer = this.buffer.slice(end + 1);
        end = this.buffer.indexOf('\n');
      }
      this.waiter?.();
    });
    socket.on('error', (error) => this.fail(new Error(`${this.where}: ${error.message}`)));
    socket.on('close', () => this.fail(new Error(`${this.where} closed the connection`)));
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.waiter?.();
  }

  /** Reads lines until `last` accepts one, and returns that line (a reply's final line). */
  async reply(last: (line: string) => boolean): Promise<string> {
    for (;;) {
      const line = this.lines.shift();
      if (line !== undefined) {
        if (last(line)) return line;
        continue;
      }
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
      });
      this.waiter = undefined;
    }
  }

  send(line: string): void {
    if (/[\r\n]/.test(line)) throw new Error('a line break in a command');
    this.socket.write(`${line}\r\n`);
  }

  /**
   * Continues over TLS on the same connection. The certificate is not verified here: the probe
   * asks whether customers can log in; `panel certs` is where certificates are checked.
   */
  upgrade(servername: string): Promise<void> {
    const plain = this.socket;
    plain.removeAllListeners('data');
    plain.removeAllListeners('close');
    plain.removeAllListeners('error');
    return new Promise((resolve, reject) => {
      const secure = connectTls({
        socket: plain,
        // SNI takes a name, never an address
        ...(isIP(servername) ? {} : { servername }),
        rejectUnauthorized: false,
      });
      secure.once('error', (error) => reject(new Error(`${this.where}: TLS: ${error.message}`)));
      secure.once('secureConnect', () => {
        this.socket = secure;
        this.listen(secure);
        resolve();
      });
    });
  }

  close(): void {
    this.socket.destroy();
  }
}
