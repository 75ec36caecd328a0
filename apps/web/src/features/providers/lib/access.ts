import type { ModelAccess, ModelAccessRule } from '@assistente/contracts';

/**
 * The models a rule can name: those the providers list, each provider's `provider:*`, and the models
 * rules already name (a provider removed since still shows, so its rule can be read and dropped).
 */
export function accessModelOptions(listed: readonly string[], rules: readonly ModelAccessRule[]): string[] {
  const options = new Set<string>();
  for (const id of listed) {
    options.add(id);
    const colon = id.indexOf(':');
    if (colon > 0) options.add(`${id.slice(0, colon)}:*`);
  }
  for (const rule of rules) if (rule.model) options.add(rule.model);
  return [...options].sort();
}

/** Whether two sets of rules say the same (an empty list and none are alike). */
export function sameAccess(a: ModelAccess, b: ModelAccess | undefined): boolean {
  if (!b || a.default !== b.default || a.rules.length !== b.rules.length) return false;
  const norm = (r: ModelAccessRule) =>
    JSON.stringify([r.model, [...(r.roles ?? [])].sort(), [...(r.departments ?? [])].sort()]);
  return a.rules.every((r, i) => norm(r) === norm(b.rules[i] as ModelAccessRule));
}
