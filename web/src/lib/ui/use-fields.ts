import { useState, type ChangeEvent } from "react";

/**
 * A form's text fields: their values, their error messages, and `bind(field)` to spread onto a
 * Mantine input. `clean` may reshape what is typed into a field (e.g. digits only).
 */
export function useFields<F extends string>(initial: Record<F, string>, clean: Partial<Record<F, (value: string) => string>> = {}) {
  const [values, setValues] = useState<Record<F, string>>(initial);
  const [errors, setErrors] = useState<Partial<Record<F, string>>>({});

  const bind = (field: F) => ({
    value: values[field],
    error: errors[field],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const raw = event.currentTarget.value;
      const value = clean[field]?.(raw) ?? raw;
      setValues((current) => ({ ...current, [field]: value }));
    },
  });

  return { values, setValues, errors, setErrors, bind };
}
