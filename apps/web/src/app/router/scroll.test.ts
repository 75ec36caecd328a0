import { describe, expect, it } from 'vitest';
import { scrollTarget } from './scroll.ts';

describe('scrollTarget', () => {
  it('scrolls to the top on navigation', () => {
    expect(scrollTarget({ navigationType: 'PUSH', hash: '', savedY: 300, scrollToTop: true })).toEqual({
      kind: 'top',
    });
  });

  it('leaves the scroll alone when the route opts out', () => {
    expect(scrollTarget({ navigationType: 'PUSH', hash: '', savedY: undefined, scrollToTop: false })).toEqual(
      {
        kind: 'none',
      },
    );
  });

  it('goes to the hash anchor when there is one', () => {
    expect(
      scrollTarget({ navigationType: 'PUSH', hash: '#t%C3%ADtulo', savedY: undefined, scrollToTop: true }),
    ).toEqual({ kind: 'anchor', id: 'título' });
    expect(
      scrollTarget({ navigationType: 'PUSH', hash: '#x', savedY: undefined, scrollToTop: false }),
    ).toEqual({
      kind: 'anchor',
      id: 'x',
    });
  });

  it('restores the saved position on back/forward', () => {
    expect(scrollTarget({ navigationType: 'POP', hash: '#x', savedY: 420, scrollToTop: true })).toEqual({
      kind: 'restore',
      y: 420,
    });
    expect(scrollTarget({ navigationType: 'POP', hash: '', savedY: undefined, scrollToTop: true })).toEqual({
      kind: 'top',
    });
  });
});
