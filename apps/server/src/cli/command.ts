import type { ParseArgsConfig } from 'node:util';
import type { AppConfig } from '../config.ts';
import type { AdminService } from '../modules/admin/admin.service.ts';
import type { Runtime } from '../runtime.ts';

/** A mistake of the caller (bad input, unknown name): printed without a stack, exit code 1. */
export class CliError extends Error {}

/** Where the CLI talks to: injected so unit tests run it in-process. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  readStdin(): Promise<string>;
  env: NodeJS.ProcessEnv;
  /** The installed configuration to look for when the environment names no database (tests move it). */
  installedEnvFile?: string;
}

export interface CommandContext {
  admin: AdminService;
  runtime: Runtime;
  config: AppConfig;
  now: () => number;
}

/** What a command prints: `json` with --json, `text` otherwise. */
export interface CommandResult {
  json: unknown;
  text: string;
  /** 1 when the command did its work but some of it failed (a sync that could not repair). */
  exitCode?: number;
}

export type ArgValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

export interface ParsedArgs {
  values: ArgValues;
  positionals: string[];
  io: CliIo;
}

export interface Command<I> {
  name: string;
  summary: string;
  /** Shown by --help, after `panel <group> <name>`. */
  usage: string;
  options?: NonNullable<ParseArgsConfig['options']>;
  /** Names of the positional arguments, all required. */
  positionals?: string[];
  /** Names of positional arguments that may follow the required ones. */
  optionalPositionals?: string[];
  /** Opens the database with the demo seed (only `seed demo`). */
  seedDemo?: boolean;
  /** Validates every input before the database is opened. */
  parse(args: ParsedArgs): I | Promise<I>;
  run(ctx: CommandContext, input: I): Promise<CommandResult>;
}

export interface CommandGroup {
  name: string;
  summary: string;
  commands: Command<unknown>[];
  /** The command the group's name alone runs (`panel doctor` is `panel doctor check`). */
  defaultCommand?: string;
}

/** Erases the input type so commands of different inputs fit one list. */
export function defineCommand<I>(command: Command<I>): Command<unknown> {
  return command as unknown as Command<unknown>;
}
