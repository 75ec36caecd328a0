// Code comments point at docs/ARCHITECTURE.md, in the repository, never at design documents outside it;
// and every `docs/ARCHITECTURE.md#anchor` they name is a heading there.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const grep = (pattern: string): string[] => {
  try {
    return execFileSync(
      'git',
      [
        'grep',
        '-nE',
        pattern,
        '--',
        'apps',
        'packages',
        'e2e',
        'bench',
        'scripts',
        'README.md',
        ':!*.jpg',
        ':!*.png',
        ':!scripts/docs-references.test.ts',
      ],
      { cwd: root, encoding: 'utf8' },
    )
      .split('\n')
      .filter(Boolean);
  } catch {
    return []; // git grep exits 1 when nothing matches
  }
};

/** GitHub's heading anchors: lowercased, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replaceAll(' ', '-');

describe('references to the design', () => {
  it('name no document outside the repository', () => {
    expect(grep('DESIGN §|[Ss]pec §|\\.\\./shared/|seed-spec|CONVENTIONS')).toEqual([]);
  });

  it('name only anchors docs/ARCHITECTURE.md has', () => {
    const doc = readFileSync(path.join(root, 'docs/ARCHITECTURE.md'), 'utf8');
    const anchors = new Set([...doc.matchAll(/^#+ (.+)$/gm)].map((m) => slug(m[1] ?? '')));
    const used = grep('ARCHITECTURE\\.md#').flatMap((line) =>
      [...line.matchAll(/ARCHITECTURE\.md#([a-z0-9-]+)/g)].map((m) => m[1] ?? ''),
    );
    expect(used.length).toBeGreaterThan(100);
    expect(used.filter((a) => !anchors.has(a))).toEqual([]);
  });
});
