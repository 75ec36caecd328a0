import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const src = path.resolve(import.meta.dirname, '..');
const mantineStyles = path.resolve(src, '../../../node_modules/@mantine/core/styles');

/** Components whose look comes from other components' CSS as well. */
const BUILT_ON: Record<string, string[]> = {
  Select: ['Combobox', 'Input'],
  TagsInput: ['Combobox', 'Input', 'Pill', 'PillsInput'],
  NativeSelect: ['Input'],
  TextInput: ['Input'],
  Textarea: ['Input'],
  NumberInput: ['Input'],
  PasswordInput: ['Input'],
  Checkbox: ['CheckboxIndicator', 'InlineInput'],
  Radio: ['RadioIndicator', 'InlineInput'],
  Switch: ['InlineInput'],
  Drawer: ['ModalBase'],
  Modal: ['ModalBase'],
  ColorInput: ['Input', 'ColorPicker', 'ColorSwatch', 'Popover'],
  // Its moving highlight; without it the highlight sits a padding off the chosen label.
  SegmentedControl: ['FloatingIndicator'],
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

describe('Mantine styles', () => {
  // The app imports Mantine's CSS component by component; a component used without its CSS
  // renders unstyled (a slider without a track, a drawer without a panel).
  it('are imported for every Mantine component the app uses', () => {
    const used = new Set<string>();
    for (const file of sources(src)) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/import\s*\{([^}]+)\}\s*from\s*'@mantine\/core'/g))
        for (const part of (m[1] ?? '').split(',')) {
          const name = part.replace(/^\s*type\s+/, '').trim();
          if (/^[A-Z]/.test(name)) used.add(name);
        }
    }
    const needed = new Set<string>();
    for (const name of used) for (const n of [name, ...(BUILT_ON[name] ?? [])]) needed.add(n);
    const imported = readFileSync(path.join(src, 'app/styles.ts'), 'utf8');
    const missing = [...needed].filter(
      (n) => existsSync(path.join(mantineStyles, `${n}.layer.css`)) && !imported.includes(`/${n}.layer.css'`),
    );
    expect(used.size).toBeGreaterThan(20);
    expect(missing).toEqual([]);
  });
});
