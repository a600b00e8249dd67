import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type Log = (...args: unknown[]) => void;

/**
 * Fastify gives every request a child logger carrying the request id. pino's `child()` costs
 * about a microsecond on each call, although most calls never log anything: this one builds the
 * pino child the first time the request logs (measured with `npm run bench`).
 */
class LazyChildLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Record<string, unknown>,
    private readonly options: object,
  ) {}

  private get real(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.bindings, this.options);
    return this.#child;
  }

  get level(): string {
    return this.real.level;
  }
  set level(level: string) {
    this.real.level = level;
  }
  fatal(...args: unknown[]) {
    (this.real.fatal as Log)(...args);
  }
  error(...args: unknown[]) {
    (this.real.error as Log)(...args);
  }
  warn(...args: unknown[]) {
    (this.real.warn as Log)(...args);
  }
  info(...args: unknown[]) {
    (this.real.info as Log)(...args);
  }
  debug(...args: unknown[]) {
    (this.real.debug as Log)(...args);
  }
  trace(...args: unknown[]) {
    (this.real.trace as Log)(...args);
  }
  silent(...args: unknown[]) {
    (this.real.silent as Log)(...args);
  }
  child(bindings: Record<string, unknown>, options?: object) {
    return this.real.child(bindings, options);
  }
}

export const lazyChildLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  options,
) => new LazyChildLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
