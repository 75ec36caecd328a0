import type { TFunction } from '../i18n/index.ts';

/** One problem a schema found (the structural part of a zod issue this module reads). */
export interface SchemaIssue {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  format?: string;
}

/** Anything with zod's `safeParse`: the contracts' schemas. */
export interface SafeParser<T> {
  safeParse(
    value: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: readonly SchemaIssue[] } };
}

/** The interface's `t`: `(key, vars)` → text. */
export type Translate = TFunction;

/**
 * Translation keys for issues whose meaning only the field knows (a refinement, a pattern), by
 * field name: `{ cnpj: 'validation.cnpj' }`.
 */
export type IssueKeys = Record<string, string>;

/** The translated text of one issue: generic by issue code, or the field's own key. */
function issueText(issue: SchemaIssue, t: Translate, keys: IssueKeys = {}): string {
  const field = issue.path.map(String).join('.');
  const own = keys[field];
  switch (issue.code) {
    case 'too_small':
      if (Number(issue.minimum ?? 0) <= 1) return t('validation.required');
      return t('validation.min_length', { min: Number(issue.minimum) });
    case 'too_big':
      return t('validation.max_length', { max: Number(issue.maximum) });
    case 'invalid_format':
      if (issue.format === 'email') return t('validation.email');
      return t(own ?? 'validation.invalid');
    case 'invalid_type':
      return t('validation.required');
    default:
      return t(own ?? 'validation.invalid');
  }
}

/**
 * Validates `values` with a shared contract schema (the same one the server parses with) and
 * answers either the parsed data or one translated message per field (the first issue of each).
 */
export function validateWith<T>(
  schema: SafeParser<T>,
  values: unknown,
  t: Translate,
  keys: IssueKeys = {},
): { ok: true; data: T } | { ok: false; errors: Record<string, string> } {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.map(String).join('.') || '_form';
    errors[field] ??= issueText(issue, t, keys);
  }
  return { ok: false, errors };
}

/** Just the field errors (for a form library's `validate`). */
export function schemaErrors<T>(
  schema: SafeParser<T>,
  values: unknown,
  t: Translate,
  keys: IssueKeys = {},
): Record<string, string> {
  const result = validateWith(schema, values, t, keys);
  return result.ok ? {} : result.errors;
}
