import pino, { type BaseLogger, type Bindings, type ChildLoggerOptions } from 'pino';

/**
 * What the services log with: pino's interface. In the panel it is Fastify's logger (pino, with
 * the request's bindings on a route's children); the node agent, which has no Fastify, makes its
 * own (`createLogger`), so no service needs Fastify to log.
 */
export interface Logger
  extends Pick<BaseLogger, 'level' | 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'> {
  child(bindings: Bindings, options?: ChildLoggerOptions): Logger;
}

/** A JSON logger on standard output at this level (the agent's; the panel's comes with Fastify). */
export function createLogger(level: string): Logger {
  return pino({ level });
}
