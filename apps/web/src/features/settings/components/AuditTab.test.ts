import { describe, expect, it } from 'vitest';
import { auditActionKey, changedRows, dayStart, targetLabel } from './AuditTab.tsx';

describe('audit log helpers', () => {
  // A stand-in for the translator: the key, so the test sees which texts are asked for.
  const t = (key: string) => `<${key}>`;

  it('lists only the fields a change touched, before → after, named and valued in the reader’s language', () => {
    expect(
      changedRows(t, {
        before: { displayName: 'Ana', role: 'Viewer', active: true },
        after: { displayName: 'Ana', role: 'Admin', active: false },
      }),
    ).toEqual([
      { field: 'role', label: '<audit.fields.role>', before: '<roles.Viewer>', after: '<roles.Admin>' },
      { field: 'active', label: '<audit.fields.active>', before: '<common.yes>', after: '<common.no>' },
    ]);
    expect(changedRows(t, { before: null, after: { displayName: 'Vendas' } })).toEqual([
      { field: 'displayName', label: '<audit.fields.displayName>', before: '—', after: 'Vendas' },
    ]);
    // A santito's change: its visibility translated, its knowledge sources listed by name.
    expect(
      changedRows(t, {
        before: { displayName: 'Suporte', visibility: 'domain', knowledge: [] },
        after: { displayName: 'Suporte', visibility: 'department', knowledge: ['Handbook', 'FAQ'] },
      }),
    ).toEqual([
      {
        field: 'visibility',
        label: '<audit.fields.visibility>',
        before: '<santitos.visibility.domain>',
        after: '<santitos.visibility.department>',
      },
      { field: 'knowledge', label: '<audit.fields.knowledge>', before: '—', after: 'Handbook, FAQ' },
    ]);
    // A field this version does not know still shows, by its name.
    expect(changedRows(t, { before: null, after: { futureField: 'x' } })[0]?.label).toBe('futureField');
  });

  it('names the target by its display name when the change has one', () => {
    const target = { type: 'department' as const, id: 'c0ffee' };
    expect(targetLabel({ target, before: null, after: { displayName: 'Vendas' } })).toBe('Vendas');
    expect(targetLabel({ target, before: null, after: null })).toBe('c0ffee');
  });

  it('turns date inputs into a local-day range (to is exclusive: the day after)', () => {
    expect(dayStart('2026-07-01')).toBe(new Date(2026, 6, 1).toISOString());
    expect(dayStart('2026-07-31', 1)).toBe(new Date(2026, 7, 1).toISOString());
    expect(dayStart('')).toBeUndefined();
  });

  it('has a translation key per action', () => {
    expect(auditActionKey('user.sessions.revoke')).toBe('audit.actions.user_sessions_revoke');
  });
});
