import { describe, expect, it } from 'vitest';
import './jitless.ts';
import { z } from 'zod';
import { globalConfig } from 'zod/v4/core';

describe('jitless', () => {
  it('is the configuration zod reads, set before zod loads', () => {
    expect(globalConfig.jitless).toBe(true);
  });

  it('builds and parses object schemas without compiling them', () => {
    const compile = globalThis.Function;
    let compiled = 0;
    globalThis.Function = new Proxy(compile, {
      construct(target, args) {
        compiled += 1;
        return Reflect.construct(target, args);
      },
    });
    try {
      expect(z.object({ a: z.string() }).parse({ a: 'x' })).toEqual({ a: 'x' });
    } finally {
      globalThis.Function = compile;
    }
    expect(compiled).toBe(0);
  });
});
