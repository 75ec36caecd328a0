import { describe, expect, it } from 'vitest';
import {
  editsPrompt,
  movesPrompt,
  type PromptActor,
  type PromptRef,
  seesPrompt,
  writesPromptScope,
} from './policies.ts';
import { fillPrompt, promptVariables } from './prompts.ts';
import { type Role, Roles } from './roles.ts';

const person = (role: Role, department = 'sales', domain = 'acme.com'): PromptActor => ({
  id: `${role.toLowerCase()}-${department}@${domain}`,
  role,
  domain,
  department,
});
const prompt = (scope: PromptRef['scope'], authorId: string, domain = 'acme.com'): PromptRef => ({
  scope,
  authorId,
  domain,
  departmentId: scope === 'department' ? 'sales' : null,
});

const atLeast = (role: Role, min: Role) => Roles.indexOf(role) >= Roles.indexOf(min);

describe('prompt rules, role by role', () => {
  it.each(Roles)('%s of the department, of another department and of another domain', (role) => {
    const me = person(role);
    const legal = person(role, 'legal');
    const outsider = person(role, 'sales', 'other.com');
    const someone = 'viewer-sales@acme.com';

    expect(writesPromptScope(me, 'private')).toBe(true);
    expect(writesPromptScope(me, 'department')).toBe(atLeast(role, 'Editor'));
    expect(writesPromptScope(me, 'domain')).toBe(atLeast(role, 'Admin'));

    // Someone else's private prompt: nobody else sees it, whatever their role.
    expect(seesPrompt(me, prompt('private', someone))).toBe(me.id === someone);
    expect(seesPrompt(me, prompt('private', me.id))).toBe(true);
    expect(editsPrompt(me, prompt('private', me.id))).toBe(true);

    const dept = prompt('department', someone);
    expect(seesPrompt(me, dept)).toBe(true);
    expect(seesPrompt(legal, dept)).toBe(false);
    expect(editsPrompt(me, dept)).toBe(me.id === someone || atLeast(role, 'Editor'));
    expect(editsPrompt(legal, dept)).toBe(false);
    expect(editsPrompt(me, prompt('department', me.id))).toBe(true);

    const dom = prompt('domain', 'admin-sales@acme.com');
    expect(seesPrompt(legal, dom)).toBe(true);
    expect(editsPrompt(legal, dom)).toBe(atLeast(role, 'Admin'));

    for (const scope of ['private', 'department', 'domain'] as const) {
      const p = prompt(scope, outsider.id, 'other.com');
      expect(seesPrompt(outsider, p)).toBe(true);
      expect(seesPrompt(me, p)).toBe(false);
      expect(editsPrompt(me, p)).toBe(false);
    }
  });

  it('a move needs the target scope’s right, and only the author makes a prompt private', () => {
    const editor = person('Editor');
    const own = prompt('private', editor.id);
    expect(movesPrompt(editor, own, 'department')).toBe(true);
    expect(movesPrompt(editor, own, 'domain')).toBe(false);
    expect(movesPrompt(person('Viewer'), prompt('private', person('Viewer').id), 'department')).toBe(false);
    const colleagues = prompt('department', 'viewer-sales@acme.com');
    expect(movesPrompt(editor, colleagues, 'department')).toBe(true);
    expect(movesPrompt(editor, colleagues, 'private')).toBe(false);
    expect(movesPrompt(person('Admin', 'legal'), prompt('domain', 'x@acme.com'), 'department')).toBe(true);
  });
});

describe('prompt variables', () => {
  it('lists each name once, in order, and fills the ones given', () => {
    const content = 'Write to {{ name }} about {{topic}}; sign as {{name}} ({{ção-1}}), not {{bad name}}';
    expect(promptVariables(content)).toEqual(['name', 'topic', 'ção-1']);
    expect(fillPrompt(content, { name: 'Ana', topic: 'prices' })).toBe(
      'Write to Ana about prices; sign as Ana ({{ção-1}}), not {{bad name}}',
    );
  });
});
