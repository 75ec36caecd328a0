import { describe, expect, it } from 'vitest';
import { accessModelOptions, sameAccess } from './access.ts';

describe('model access editor', () => {
  it('offers listed models, their provider wildcards and models only rules name', () => {
    expect(
      accessModelOptions(['openai:gpt-4o', 'openai:gpt-4o-mini'], [{ model: 'gone:old-model' }]),
    ).toEqual(['gone:old-model', 'openai:*', 'openai:gpt-4o', 'openai:gpt-4o-mini']);
  });

  it('sees unsaved changes, not reordered roles', () => {
    const saved = {
      default: 'allow' as const,
      rules: [{ model: 'openai:gpt-4o', roles: ['Admin' as const, 'Editor' as const] }],
    };
    expect(
      sameAccess({ ...saved, rules: [{ model: 'openai:gpt-4o', roles: ['Editor', 'Admin'] }] }, saved),
    ).toBe(true);
    expect(sameAccess({ ...saved, default: 'deny' }, saved)).toBe(false);
    expect(sameAccess({ ...saved, rules: [] }, saved)).toBe(false);
  });
});
