import { describe, expect, it } from 'vitest';
import { auditActionKey, changedRows, dayStart, targetLabel } from './AuditTab.tsx';

describe('audit log helpers', () => {
  it('lists only the fields a change touched, before → after', () => {
    expect(
      changedRows({
        before: { displayName: 'Ana', role: 'Viewer', active: true },
        after: { displayName: 'Ana', role: 'Admin', active: false },
      }),
    ).toEqual([
      { field: 'role', before: 'Viewer', after: 'Admin' },
      { field: 'active', before: 'true', after: 'false' },
    ]);
    expect(changedRows({ before: null, after: { displayName: 'Vendas' } })).toEqual([
      { field: 'displayName', before: '—', after: 'Vendas' },
    ]);
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
