import { ApiError } from './api-client';
import { notifyError } from './notify';

/** Field name → message, from the positional inputs/errors lists of a failed answer. */
export function fieldErrorRecord(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const record: Record<string, string> = {};
  for (const { field, message } of error.fieldErrors) {
    if (!(field in record)) record[field] = message;
  }
  return record;
}

/** A form's failed submit: an error toast and each named field marked with its own message. */
export function handleFormError(form: { setErrors: (errors: Record<string, string>) => void }, error: unknown): void {
  notifyError(error);
  const errors = fieldErrorRecord(error);
  if (Object.keys(errors).length > 0) form.setErrors(errors);
}
