// The editor extension's figures are measured where a real VS Code runs it: the end-to-end journey in
// code-server (e2e/vscode, part of `npm test`) writes them; the bench reports the last run's.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const FIGURES = path.resolve(import.meta.dirname, '../test-results/vscode-e2e/figures.json');

export interface VscodeFigures {
  measuredAt?: string;
  vsixKiB?: number;
  activationCpuMs?: number;
  activationWallMs?: number;
  firstTokenMs?: number;
  budget: { maxVsixKiB: number; maxActivationMs: number; maxFirstTokenMs: number; ok: boolean };
}

export function readVscodeFigures(): VscodeFigures {
  const budget = { maxVsixKiB: 1024, maxActivationMs: 200, maxFirstTokenMs: 50 };
  if (!existsSync(FIGURES)) return { budget: { ...budget, ok: false } };
  const f = JSON.parse(readFileSync(FIGURES, 'utf8')) as Omit<VscodeFigures, 'budget' | 'measuredAt'>;
  const within = (v: number | undefined, max: number) => typeof v === 'number' && v <= max;
  return {
    ...f,
    measuredAt: statSync(FIGURES).mtime.toISOString(),
    budget: {
      ...budget,
      ok:
        within(f.vsixKiB, budget.maxVsixKiB) &&
        within(f.activationCpuMs, budget.maxActivationMs) &&
        within(f.firstTokenMs, budget.maxFirstTokenMs),
    },
  };
}
