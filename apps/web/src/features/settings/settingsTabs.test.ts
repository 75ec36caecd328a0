import { describe, expect, it } from 'vitest';
import { settingsTabs } from './SettingsPage.tsx';

describe('settingsTabs', () => {
  it('shows retention to Admins and SuperAdmins, and the background jobs to SuperAdmins only', () => {
    for (const role of ['Viewer', 'Editor'] as const) {
      expect(settingsTabs({ role })).not.toContain('retention');
      expect(settingsTabs({ role })).not.toContain('jobs');
    }
    expect(settingsTabs({ role: 'Admin' })).toContain('retention');
    expect(settingsTabs({ role: 'Admin' })).not.toContain('jobs');
    expect(settingsTabs({ role: 'SuperAdmin' })).toEqual(expect.arrayContaining(['retention', 'jobs']));
  });
});
