import { type ChangeEvent, useCallback, useState } from 'react';

type Validators<T> = Partial<Record<keyof T, (value: string) => string | null>>;

/**
 * A very small controlled form for the login route, whose JS budget has no room for a form
 * library. Other forms use @mantine/form. Errors set by the server (field ↔ message) and by the
 * validators land in the same place and show under each field.
 */
export function useLightForm<T extends Record<string, string>>(initialValues: T, validators: Validators<T>) {
  const [values, setValues] = useState<T>(initialValues);
  const [errors, setErrorsState] = useState<Partial<Record<string, string>>>({});

  const setErrors = useCallback((next: Record<string, string>) => setErrorsState(next), []);

  const inputProps = (name: keyof T & string) => ({
    name,
    value: values[name],
    error: errors[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const value = event.currentTarget.value;
      setValues((current) => ({ ...current, [name]: value }));
      setErrorsState((current) => (current[name] ? { ...current, [name]: undefined } : current));
    },
  });

  /** Runs the validators; returns true when every field passes. */
  const validate = (): boolean => {
    const next: Record<string, string> = {};
    for (const [name, check] of Object.entries(validators) as [string, ((v: string) => string | null) | undefined][]) {
      const message = check?.(values[name] ?? '');
      if (message) next[name] = message;
    }
    setErrorsState(next);
    return Object.keys(next).length === 0;
  };

  return { values, errors, setErrors, inputProps, validate };
}

export type LightForm<T extends Record<string, string>> = ReturnType<typeof useLightForm<T>>;
