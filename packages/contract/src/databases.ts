import { z } from 'zod';
import { idParam, textAsTyped } from './fields.ts';
import { applyingSchema } from './job.ts';

/** A MariaDB database of a hosting service, with its own user (same name). */
export const databaseSchema = z.object({
  id: z.number().int(),
  /** Database name, generated from the service (e.g. `demotest_3`); never typed by the user. */
  bbdd: z.string(),
  user: z.string(),
  /** Only filled by the single-database call ("show password"); '' in lists. */
  password: z.string(),
  /** Whether the user may connect from anywhere ('%') besides 'localhost'. */
  externalAccess: z.boolean(),
  eliminable: z.boolean(),
  /** Data plus index size from information_schema, in bytes. */
  size: z.number().int().nonnegative(),
});
export type HostedDatabase = z.infer<typeof databaseSchema>;

const password = textAsTyped(128);

export const databasesServiceParamsSchema = z.object({ id: idParam });
export const databasesParamsSchema = z.object({ id: idParam, did: idParam });
export const databasesCreateParamsSchema = z.object({ id: idParam, password });
export const databasesPasswordParamsSchema = z.object({ id: idParam, did: idParam, password });

/** Whether the service's database changes are all on its database server (see applyingSchema). */
export const databasesApplyingSchema = applyingSchema([]);
export type DatabasesApplying = z.infer<typeof databasesApplyingSchema>;

export const databasesListDataSchema = z.object({
  ddbb: z.array(databaseSchema),
  /** The plan's number of databases; creation is refused once the list has this many (null: no limit). */
  limit: z.number().int().nonnegative().nullable(),
  /** (beyond the spec) database changes not yet on the database server. */
  applying: databasesApplyingSchema,
});
/** The answer of "try again" for the database changes. */
export const databasesApplyDataSchema = z.object({ applying: databasesApplyingSchema });
export const databasesOneDataSchema = z.object({ ddbb: databaseSchema });

/** What phpMyAdmin's hand-off script gets for a token (server to server). */
export const databasesRedeemDataSchema = z.object({
  user: z.string(),
  password: z.string(),
  host: z.string(),
  port: z.number().int(),
  database: z.string(),
});

// The calls' shapes as types, so the web can import them without zod.
export type DatabasesCreateParams = z.infer<typeof databasesCreateParamsSchema>;
export type DatabasesPasswordParams = z.infer<typeof databasesPasswordParamsSchema>;
export type DatabasesListData = z.infer<typeof databasesListDataSchema>;
export type DatabasesOneData = z.infer<typeof databasesOneDataSchema>;
export type DatabasesApplyData = z.infer<typeof databasesApplyDataSchema>;
