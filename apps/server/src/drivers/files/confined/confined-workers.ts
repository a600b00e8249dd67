import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { repoPath } from '../../../paths.ts';
import type { FileWorkers, WorkerMessage, WorkerRequest } from './protocol.ts';
import { failureError } from './worker-errors.ts';

/**
 * Starts and runs the confined file workers (worker-main.ts): one process per operation, so an
 * operation holds only its service's rights, a crash or a stuck call ends that operation alone,
 * and nothing a customer's tree does can block the panel's event loop or thread pool.
 *
 * The worker is bundled once per panel process with esbuild (already the panel's TypeScript
 * loader, through tsx) into one plain script: it starts in about 60 ms instead of tsx's 600 ms.
 * One started worker waits as a spare, so an operation seldom waits for a start at all.
 */
export interface ConfinedWorkersOptions {
  /** Operations running at once; more wait their turn. */
  maxRunning?: number;
  /** Started workers kept waiting for the next operation. */
  spares?: number;
  /** An operation without a byte stream (list, rename, usage…) taking longer is killed. */
  timeoutMs?: number;
}

interface Started {
  child: ChildProcess;
  /** Messages after `ready`, in order. */
  messages: WorkerMessage[];
  wake: (() => void) | undefined;
  exited: Promise<number | null>;
  ended: boolean;
}

/** A request's worker, once sent: its messages and its end. */
interface Running {
  meta: Promise<Record<string, unknown> | undefined>;
  done: Promise<unknown>;
  output: Readable;
  kill: () => void;
}

/** How long a worker told its input failed may take to clean up before it is killed. */
const ABORT_GRACE_MS = 10_000;

const WORKER_ENTRY = repoPath('apps/server/src/drivers/files/confined/worker-main.ts');

/** Whether a worker (its process, IPC channel and pipes) keeps the panel's event loop alive. */
function setHeld(child: ChildProcess, held: boolean): void {
  for (const handle of [child, child.channel, child.stdin, child.stdout, child.stderr] as (
    | { ref?: () => void; unref?: () => void }
    | null
    | undefined
  )[])
    held ? handle?.ref?.() : handle?.unref?.();
}

export class ConfinedWorkers implements FileWorkers {
  holdsHome(): Promise<boolean> {
    return Promise.resolve(true);
  }
  private script: Promise<{ dir: string; file: string }> | undefined;
  private scriptDir: string | undefined;
  private readonly spares: Promise<Started>[] = [];
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private closed = false;
  private readonly maxRunning: number;
  private readonly spareCount: number;
  private readonly timeoutMs: number;

  constructor(options: ConfinedWorkersOptions = {}) {
    this.maxRunning = options.maxRunning ?? 8;
    this.spareCount = options.spares ?? 1;
    this.timeoutMs = options.timeoutMs ?? 120_000;
  }

  /**
   * Runs an operation to its end and answers its result. `input` makes the bytes the worker
   * reads; it is called once the worker is there, so that nothing is read (or fails) unheard.
   */
  async call<T>(request: WorkerRequest, input?: () => Readable): Promise<T> {
    const run = await this.start(request, input, true);
    run.output.resume();
    return (await run.done) as T;
  }

  /**
   * Starts an operation that sends bytes: answers what it announced (a download's name and
   * size) and its bytes. The stream fails when the operation does; destroying it kills the worker.
   */
  async stream(request: WorkerRequest): Promise<{ meta: Record<string, unknown>; output: Readable }> {
    const run = await this.start(request, undefined, false);
    const meta = await run.meta;
    if (!meta) {
      await run.done;
      throw new Error(`file worker: ${request.op} announced nothing`);
    }
    return { meta, output: run.output };
  }

  /** Kills the spare workers; running operations end on their own. */
  async close(): Promise<void> {
    this.closed = true;
    const spares = this.spares.splice(0);
    for (const spare of spares)
      spare.then(
        (worker) => worker.child.kill('SIGKILL'),
        () => undefined,
      );
    const script = this.script;
    this.script = undefined;
    if (script)
      await script.then(
        ({ dir }) => rm(dir, { recursive: true, force: true }),
        () => undefined,
      );
  }

  /** At the process's exit (synchronous): the bundled script goes. */
  removeScript(): void {
    if (this.scriptDir) rmSync(this.scriptDir, { recursive: true, force: true });
  }

  private bundle(): Promise<{ dir: string; file: string }> {
    this.script ??= (async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'panel247-files-'));
      this.scriptDir = dir;
      const file = path.join(dir, 'worker.cjs');
      // Loaded when a first worker is needed: esbuild's API alone holds ~15 MB.
      const { build } = await import('esbuild');
      await build({
        entryPoints: [WORKER_ENTRY],
        bundle: true,
        platform: 'node',
        format: 'cjs',
        target: 'node20',
        outfile: file,
        logLevel: 'silent',
      });
      return { dir, file };
    })();
    return this.script;
  }

  private async spawnWorker(): Promise<Started> {
    const { file } = await this.bundle();
    // No inherited environment (NODE_OPTIONS could load code into it) and no flags.
    const child: ChildProcess = spawn(process.execPath, [file], {
      stdio: ['pipe', 'pipe', 'pipe', 'ipc'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    const started: Started = {
      child,
      messages: [],
      wake: undefined,
      // 'close', not 'exit': by then every message the worker sent has been read.
      exited: new Promise((resolve) => child.once('close', (code) => resolve(code))),
      ended: false,
    };
    void started.exited.then(() => {
      started.ended = true;
    });
    child.stderr?.resume();
    child.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => {
      child.on('message', (message: WorkerMessage) => {
        if (message.type === 'ready') return resolve();
        started.messages.push(message);
        started.wake?.();
      });
      started.exited.then(() => {
        reject(new Error('file worker exited before it was ready'));
        started.wake?.();
      });
    });
    // A waiting spare does not keep the panel's process alive (a CLI command ends when it is done).
    setHeld(child, false);
    return started;
  }

  private async take(): Promise<Started> {
    const spare = this.spares.shift();
    while (!this.closed && this.spares.length < this.spareCount) {
      const next = this.spawnWorker();
      next.catch(() => undefined);
      this.spares.push(next);
    }
    if (spare) {
      const ready = await spare.catch(() => undefined);
      if (ready && !ready.ended) return ready;
    }
    return this.spawnWorker();
  }

  private async slot(): Promise<() => void> {
    if (this.running >= this.maxRunning) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= 1;
      this.waiting.shift()?.();
    };
  }

  private async start(
    request: WorkerRequest,
    makeInput: (() => Readable) | undefined,
    timed: boolean,
  ): Promise<Running> {
    const release = await this.slot();
    let worker: Started;
    try {
      worker = await this.take();
    } catch (error) {
      release();
      throw error;
    }
    const { child } = worker;
    setHeld(child, true);
    const kill = () => child.kill('SIGKILL');
    const timer = timed ? setTimeout(kill, this.timeoutMs) : undefined;

    const next = async (): Promise<WorkerMessage | undefined> => {
      while (worker.messages.length === 0) {
        if (worker.ended) return undefined;
        await new Promise<void>((resolve) => {
          worker.wake = resolve;
        });
        worker.wake = undefined;
      }
      return worker.messages.shift();
    };
    let announced: (meta: Record<string, unknown> | undefined) => void = () => undefined;
    const meta = new Promise<Record<string, unknown> | undefined>((resolve) => {
      announced = resolve;
    });
    const output = new PassThrough();
    // The reader of a stream sees its failure; one nobody reads (an answer only) must not crash the panel.
    output.on('error', () => undefined);
    const stdoutEnded = new Promise<void>((resolve) => child.stdout?.once('end', resolve));
    child.stdout?.pipe(output, { end: false });
    output.once('close', () => {
      if (child.exitCode === null) kill();
    });

    let inputError: Error | undefined;
    const done = (async () => {
      try {
        let message = await next();
        if (message?.type === 'meta') {
          announced(message.meta);
          message = await next();
        }
        const code = await worker.exited;
        // The worker's own refusal first (its input then failed only because it stopped reading),
        // unless it failed on the input the panel could not read.
        if (message?.type === 'error' && !(inputError && message.kind === 'system')) throw failureError(message);
        if (inputError) throw inputError;
        if (message?.type === 'error') throw failureError(message);
        if (message?.type !== 'done' || code !== 0)
          throw new Error(`file worker: ${request.op} ended without an answer (exit ${code ?? child.signalCode})`);
        await stdoutEnded;
        return message.result;
      } finally {
        if (timer) clearTimeout(timer);
        announced(undefined);
        release();
      }
    })();
    done.then(
      () => output.end(),
      (error: Error) => output.destroy(error),
    );
    // The caller of `call` or `stream` sees the failure; this keeps it from being unhandled meanwhile.
    done.catch(() => undefined);

    child.send(request);
    if (makeInput) {
      const input = makeInput();
      // Bytes that could not be read (a broken payload) must not reach the worker as a short,
      // well-formed input: the worker is killed before its input could end, and the operation
      // fails with the reading's error. (pipeline() would end the worker's stdin first.)
      const stdin = child.stdin as NodeJS.WritableStream;
      input.pipe(stdin, { end: false });
      input.once('end', () => stdin.end());
      input.on('error', (error: Error) => {
        if (inputError) return;
        inputError = error;
        // The worker fails its input itself and cleans up what it began; killed if it does not.
        child.send({ type: 'abort' });
        setTimeout(kill, ABORT_GRACE_MS).unref();
      });
      child.stdin?.on('error', () => input.destroy());
    } else child.stdin?.end();
    return { meta, done, output, kill };
  }
}

let shared: ConfinedWorkers | undefined;

/**
 * The workers of a process that has no app to close them with (the CLI, drivers made outside
 * the app): its spares never keep the process alive, and its script goes when the process ends.
 */
export function sharedWorkers(): ConfinedWorkers {
  if (!shared) {
    const workers = new ConfinedWorkers();
    process.once('exit', () => workers.removeScript());
    shared = workers;
  }
  return shared;
}
