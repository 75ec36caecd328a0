import { type ChangeEvent, type FormEvent, useState } from 'react';

type Validators<V> = { [K in keyof V]?: (value: V[K], values: V) => string | null };

/**
 * Controlled fields with validation on submit (then live, once shown): enough for the auth forms,
 * and far lighter than a form library on the page with the tightest JavaScript budget.
 */
export function useFormFields<V extends Record<string, string>>(initial: V, validators: Validators<V>) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof V, string>>>({});
  const [submitted, setSubmitted] = useState(false);

  const validate = (next: V) => {
    const found: Partial<Record<keyof V, string>> = {};
    for (const key of Object.keys(validators) as (keyof V)[]) {
      const message = validators[key]?.(next[key], next);
      if (message) found[key] = message;
    }
    return found;
  };

  const field = <K extends keyof V>(key: K) => ({
    value: values[key],
    error: errors[key],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const next = { ...values, [key]: event.currentTarget.value };
      setValues(next);
      if (submitted) setErrors(validate(next));
    },
  });

  const onSubmit = (handler: (values: V) => void | Promise<void>) => (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const found = validate(values);
    setErrors(found);
    if (Object.keys(found).length === 0) void handler(values);
  };

  return { values, field, onSubmit };
}
