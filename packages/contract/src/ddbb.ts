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

export const ddbbServiceParamsSchema = z.object({ id: idParam });
export const ddbbParamsSchema = z.object({ id: idParam, did: idParam });
export const ddbbCreateParamsSchema = z.object({ id: idParam, password });
export const ddbbPasswordParamsSchema = z.object({ id: idParam, did: idParam, password });

/** Whether the service's database changes are all on its database server (see applyingSchema). */
export const ddbbApplyingSchema = applyingSchema([]);
export type DdbbApplying = z.infer<typeof ddbbApplyingSchema>;

export const ddbbListDataSchema = z.object({
  ddbb: z.array(databaseSchema),
  /** The plan's number of databases; creation is refused once the list has this many. */
  limit: z.number().int().nonnegative(),
  /** (beyond the spec) database changes not yet on the database server. */
  applying: ddbbApplyingSchema,
});
/** The answer of "try again" for the database changes. */
export const ddbbApplyDataSchema = z.object({ applying: ddbbApplyingSchema });
export const ddbbOneDataSchema = z.object({ ddbb: databaseSchema });

/** What phpMyAdmin's hand-off script gets for a token (server to server). */
export const ddbbRedeemDataSchema = z.object({
  user: z.string(),
  password: z.string(),
  host: z.string(),
  port: z.number().int(),
  database: z.string(),
});

// The calls' shapes as types, so the web can import them without zod.
export type DdbbCreateParams = z.infer<typeof ddbbCreateParamsSchema>;
export type DdbbPasswordParams = z.infer<typeof ddbbPasswordParamsSchema>;
export type DdbbListData = z.infer<typeof ddbbListDataSchema>;
export type DdbbOneData = z.infer<typeof ddbbOneDataSchema>;
export type DdbbApplyData = z.infer<typeof ddbbApplyDataSchema>;
