import { FILE_MODE_PATTERN, isFileName } from '@panel247/contract/files';
import { folderFromInput } from './file-paths';

/** What is wrong with a name typed for a file or folder (the text's key), or null. */
export function nameProblem(value: string): string | null {
  if (value === '') return 'validation.required';
  return isFileName(value) ? null : 'files.invalid_name';
}

/** What is wrong with typed permission bits, or null: three octal digits, no special bits. */
export function modeProblem(value: string): string | null {
  if (value.trim() === '') return 'validation.required';
  return FILE_MODE_PATTERN.test(value.trim()) ? null : 'files.invalid_mode';
}

/** What is wrong with a typed destination folder, or null ('/' and '' are the root). */
export function folderProblem(value: string): string | null {
  return folderFromInput(value) === null ? 'files.invalid_folder' : null;
}
