import { type PiiKind, PiiKinds } from '@assistente/contracts';
import type { TFunction } from '../../../lib/i18n/index.ts';

/** The kinds as the reader says them, in a sentence: "CPF e e-mail", "CPF and e-mail". */
export function piiKindsText(t: TFunction, language: string, kinds: readonly PiiKind[]): string {
  const names = PiiKinds.filter((k) => kinds.includes(k)).map((k) => t(`pii.kinds.${k}`));
  return new Intl.ListFormat(language, { type: 'conjunction' }).format(names);
}
