import { z } from 'zod';
import { idParam, textAsTyped } from './fields.ts';
import { FILE_EDIT_MAX_BYTES, FILE_PATH_MAX, isFileName, isFilePath } from './file-rules.ts';

/**
 * The file manager of a hosting service: its home, or (as the WebFTP of an FTP account, `ftp`)
 * that account's folder. Paths are relative to that root, `/`-separated, '' being the root
 * itself; the server resolves them again and refuses anything leaving the root.
 */

/** The web app's page of the file manager (the panel's own WebFTP opens it in a new tab). */
export function filesPagePath(serviceId: number): string {
  return `/admin/${serviceId}/service/files/`;
}

export {
  EXTRACTABLE_PATTERN,
  FILE_EDIT_MAX_BYTES,
  FILE_NAME_MAX,
  FILE_PATH_MAX,
  isFileName,
  isFilePath,
  UPLOAD_CHUNK_BYTES,
} from './file-rules.ts';

export const filePath = textAsTyped(FILE_PATH_MAX).refine(isFilePath, { error: 'files.error.path' });
export const fileName = z
  .string({ error: 'validation.required' })
  .min(1, { error: 'validation.required' })
  .refine(isFileName, { error: 'files.error.name' });

/** Which root: the service home, or an FTP account's folder (its WebFTP). */
const rootParams = {
  id: idParam,
  ftp: idParam.optional(),
};

export const filesPathParamsSchema = z.object({ ...rootParams, path: filePath.optional().default('') });
export const filesCreateFolderParamsSchema = z.object({
  ...rootParams,
  path: filePath.optional().default(''),
  name: fileName,
});
export const filesRenameParamsSchema = z.object({ ...rootParams, path: filePath, name: fileName });
export const filesSaveParamsSchema = z.object({
  ...rootParams,
  path: filePath,
  content: z.string().max(FILE_EDIT_MAX_BYTES, { error: 'files.error.too_large_to_edit' }),
});
/** One chunk of an upload into folder `path`: the body is the bytes, `offset` where they go. */
export const filesUploadParamsSchema = z.object({
  ...rootParams,
  path: filePath.optional().default(''),
  name: fileName,
  offset: z.coerce.number().int().min(0),
  /** The file's whole size: the upload ends with the chunk that reaches it. */
  size: z.coerce.number().int().min(0),
});
/** Copy or move the entry at `path` into the folder `to` (same name). */
export const filesCopyParamsSchema = z.object({ ...rootParams, path: filePath, to: filePath.optional().default('') });
/** Permission bits as three or four octal digits; no setuid, setgid or sticky bit. */
export const FILE_MODE_PATTERN = /^0?[0-7]{3}$/;
export const filesModeParamsSchema = z.object({
  ...rootParams,
  path: filePath,
  mode: z.string().regex(FILE_MODE_PATTERN, { error: 'files.error.mode' }),
});

export const filesUploadStatusParamsSchema = z.object({
  ...rootParams,
  path: filePath.optional().default(''),
  name: fileName,
});

export const fileEntrySchema = z.object({
  name: z.string(),
  /** `special`: a FIFO, socket or device, listed as what it is and never opened. */
  type: z.enum(['folder', 'file', 'link', 'special']),
  /** Bytes (0 for folders, links and special files). */
  size: z.number(),
  /** Last change, epoch seconds. */
  modified: z.number(),
  /** Permission bits as four octal digits, e.g. `0644`. */
  mode: z.string(),
  /** A file the editor may open (text, within FILE_EDIT_MAX_BYTES). */
  editable: z.boolean(),
  /** An archive `extract` takes (.zip, .tar.gz, .tgz). */
  extractable: z.boolean(),
});
export type FileEntry = z.infer<typeof fileEntrySchema>;

export const filesListDataSchema = z.object({
  /** The folder listed, relative to the root. */
  path: z.string(),
  /** What the root is, for the title: '' for the service home, else the FTP account's login. */
  account: z.string(),
  /** The account's folder relative to the service home ('' for the home). */
  rootFolder: z.string(),
  entries: z.array(fileEntrySchema),
  /** Whether the user may change files here (the FTP right's action). */
  writable: z.boolean(),
});
export type FilesListData = z.infer<typeof filesListDataSchema>;

export const filesReadDataSchema = z.object({ path: z.string(), content: z.string() });
export type FilesReadData = z.infer<typeof filesReadDataSchema>;

/** How much of an upload the server holds: the next chunk starts there. */
export const filesUploadDataSchema = z.object({ received: z.number(), done: z.boolean() });
export type FilesUploadData = z.infer<typeof filesUploadDataSchema>;

export type FilesPathParams = z.input<typeof filesPathParamsSchema>;
export type FilesCreateFolderParams = z.input<typeof filesCreateFolderParamsSchema>;
export type FilesRenameParams = z.input<typeof filesRenameParamsSchema>;
export type FilesSaveParams = z.input<typeof filesSaveParamsSchema>;
export type FilesCopyParams = z.input<typeof filesCopyParamsSchema>;
export type FilesModeParams = z.input<typeof filesModeParamsSchema>;

/** What `extract` made: the new folder's path, relative to the root. */
export const filesExtractDataSchema = z.object({ path: z.string() });
export type FilesExtractData = z.infer<typeof filesExtractDataSchema>;
