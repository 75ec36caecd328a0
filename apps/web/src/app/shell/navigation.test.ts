import { describe, expect, it } from 'vitest';
import { visibleNavItems } from './navigation.ts';

const keys = (role: Parameters<typeof visibleNavItems>[0]['role'], premium: boolean) =>
  visibleNavItems({ role, premium }).map((item) => item.key);

/** Every item of the navigation, in its order. */
const EVERYTHING = [
  'home',
  'chats',
  'santitos',
  'users',
  'departments',
  'integration',
  'usage',
  'domains',
  'settings',
];

describe('main navigation', () => {
  it('shows a Viewer home, chats and settings, plus santitos when premium', () => {
    expect(keys('Viewer', false)).toEqual(['home', 'chats', 'settings']);
    expect(keys('Viewer', true)).toEqual(['home', 'chats', 'santitos', 'settings']);
    expect(keys('Editor', false)).toEqual(['home', 'chats', 'settings']);
  });

  it('adds users, departments, usage, their own domain and (premium) integration for Admins', () => {
    expect(keys('Admin', false)).toEqual([
      'home',
      'chats',
      'users',
      'departments',
      'usage',
      'domains',
      'settings',
    ]);
    expect(keys('Admin', true)).toEqual(EVERYTHING);
  });

  it('shows SuperAdmins everything', () => {
    expect(keys('SuperAdmin', true)).toEqual(EVERYTHING);
  });
});
