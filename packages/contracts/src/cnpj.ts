// Kept free of zod: the web app's domain form validates as the user types.

/**
 * CNPJ (Brazilian company registry number), in both formats the Receita Federal accepts:
 * - numeric: 14 digits, `11.222.333/0001-81` or `11222333000181`;
 * - alphanumeric (in use since July 2026): the first 12 characters are `[0-9A-Z]`, the last 2 are
 *   numeric check digits, `12.ABC.345/01DE-35` or `12ABC34501DE35`.
 * Both use the same check: each character's value is its ASCII code − 48 (so `0`–`9` are 0–9 and
 * `A` is 17), weighted 5,4,3,2,9,8,7,6,5,4,3,2 (then 6,5,…,2 for the second digit), modulo 11.
 */

const W1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;
const W2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;

const PUNCTUATED = /^[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-[0-9]{2}$/;
const BARE = /^[0-9A-Z]{12}[0-9]{2}$/;

function checkDigit(base: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += (base.charCodeAt(i) - 48) * (weights[i] ?? 0);
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

/**
 * The 14 bare characters (uppercased) of a CNPJ written with or without its usual punctuation, or
 * undefined when the shape is wrong. Check digits are not verified here: see `isValidCnpj`.
 */
export function normalizeCnpj(input: string): string | undefined {
  const s = input.trim().toUpperCase();
  if (BARE.test(s)) return s;
  if (PUNCTUATED.test(s)) return s.replace(/[./-]/g, '');
  return undefined;
}

/** The two check digits for the first 12 characters (uppercase alphanumerics). */
export function cnpjCheckDigits(base12: string): string {
  const d1 = checkDigit(base12, W1);
  const d2 = checkDigit(`${base12}${d1}`, W2);
  return `${d1}${d2}`;
}

/** True for a well-formed CNPJ (either format, punctuated or bare) whose check digits match. */
export function isValidCnpj(input: string): boolean {
  const s = normalizeCnpj(input);
  if (!s) return false;
  // All-same numerics (00000000000000, 11111111111111…) pass the arithmetic but are not real.
  if (/^(\d)\1{13}$/.test(s)) return false;
  return cnpjCheckDigits(s.slice(0, 12)) === s.slice(12);
}

/** `12ABC34501DE35` → `12.ABC.345/01DE-35`; anything not a bare or punctuated CNPJ comes back unchanged. */
export function formatCnpj(input: string): string {
  const s = normalizeCnpj(input);
  if (!s) return input;
  return `${s.slice(0, 2)}.${s.slice(2, 5)}.${s.slice(5, 8)}/${s.slice(8, 12)}-${s.slice(12)}`;
}
