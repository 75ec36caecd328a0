import { afterEach, describe, expect, it, vi } from 'vitest';
import { onAppError, reportError, reportWarning } from './reporting.ts';

const removals: Array<() => void> = [];
afterEach(() => {
  for (const remove of removals.splice(0)) remove();
});

describe('error reporting', () => {
  it('hands errors and warnings to every reporter with their level, after a failing one too', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const seen: unknown[] = [];
    removals.push(
      onAppError(() => {
        throw new Error('broken reporter');
      }),
      onAppError((error, source, level) => seen.push([error, source, level])),
    );
    const failure = new Error('refresh failed');
    reportError(failure, 'route');
    reportWarning('Could not refresh the domain', 'auth', failure);
    reportWarning('No Firebase user found', 'auth');
    expect(seen).toEqual([
      [failure, 'route', 'error'],
      [failure, 'auth', 'warning'],
      [new Error('No Firebase user found'), 'auth', 'warning'],
    ]);
    expect(warn).toHaveBeenCalledWith('Could not refresh the domain', failure);
  });
});
