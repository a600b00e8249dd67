import type { BaseLogger, Bindings, LogFn } from 'pino';

/**
 * What the services log with: pino's interface. In the panel it is Fastify's logger (pino, with
 * the request's bindings on a route's children); the node agent, which has no Fastify, makes its
 * own (`createLogger`), so no service needs Fastify to log.
 */
export interface Logger
  extends Pick<BaseLogger, 'level' | 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'> {
  child(bindings: Bindings): Logger;
}

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;
type LevelName = keyof typeof LEVELS;

function serialized(value: unknown): unknown {
  if (!(value instanceof Error)) return value;
  return { type: value.name, message: value.message, stack: value.stack };
}

/**
 * The agent's logger: pino's JSON lines (`level`, `time`, `msg` and the bindings, an `err` with
 * its message and stack) on standard output, written directly. Not pino itself: loading and
 * starting it cost the agent 4-5 MB of its 80 MB idle aim (bench:start); the agent logs a few
 * lines an hour, so nothing of pino's speed is missed.
 */
export function createLogger(level: string, bindings: Bindings = {}): Logger {
  const threshold = LEVELS[level as LevelName] ?? (level === 'silent' ? Number.POSITIVE_INFINITY : LEVELS.info);
  const method = (name: LevelName): LogFn =>
    ((first: unknown, ...rest: unknown[]) => {
      if (LEVELS[name] < threshold) return;
      const fields = typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : {};
      const msg = typeof first === 'string' ? first : typeof rest[0] === 'string' ? rest[0] : undefined;
      const line: Record<string, unknown> = { level: LEVELS[name], time: Date.now(), ...bindings };
      for (const [key, value] of Object.entries(fields)) line[key] = serialized(value);
      if (msg !== undefined) line.msg = msg;
      process.stdout.write(`${JSON.stringify(line)}\n`);
    }) as LogFn;
  return {
    level,
    fatal: method('fatal'),
    error: method('error'),
    warn: method('warn'),
    info: method('info'),
    debug: method('debug'),
    trace: method('trace'),
    silent: (() => undefined) as LogFn,
    child: (more) => createLogger(level, { ...bindings, ...more }),
  };
}
