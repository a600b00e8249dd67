/**
 * On blur, a field is checked once the user has typed in it (or it is already marked): leaving an
 * untouched field, e.g. to press 'generate', shows no 'required' error that would move the layout
 * under the pointer. Submit still checks everything.
 */
export function blurCheck(
  form: {
    isDirty: (path: string) => boolean;
    validateField: (path: string) => unknown;
    errors: Record<string, unknown>;
  },
  path: string,
): () => void {
  return () => {
    if (form.isDirty(path) || form.errors[path]) form.validateField(path);
  };
}
