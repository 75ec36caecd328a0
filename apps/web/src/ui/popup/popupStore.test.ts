import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPopupController, POPUP_AUTO_HIDE_MS, POPUP_SWAP_DELAY_MS } from './popupStore.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('popup', () => {
  it('uses the spec numbers', () => {
    expect(POPUP_AUTO_HIDE_MS).toBe(5000);
    expect(POPUP_SWAP_DELAY_MS).toBe(250);
  });

  it('shows at once when none is open and hides after 5000 ms', async () => {
    const popup = createPopupController();
    await popup.show({ status: 'success', title: 'Salvo', description: 'ok' });
    expect(popup.store.getState()).toMatchObject({ modelValue: true, status: 'success', title: 'Salvo' });
    vi.advanceTimersByTime(4999);
    expect(popup.store.getState().modelValue).toBe(true);
    vi.advanceTimersByTime(1);
    expect(popup.store.getState().modelValue).toBe(false);
  });

  it('hides the open one, waits 250 ms twice, then shows the new one', async () => {
    const popup = createPopupController();
    await popup.show({ status: 'info', title: 'first' });
    const second = popup.show({ status: 'error', title: 'second' });
    expect(popup.store.getState()).toMatchObject({ modelValue: false, title: 'first' });
    await vi.advanceTimersByTimeAsync(250);
    expect(popup.store.getState().modelValue).toBe(false);
    await vi.advanceTimersByTimeAsync(249);
    expect(popup.store.getState().modelValue).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await second;
    expect(popup.store.getState()).toMatchObject({ modelValue: true, title: 'second', status: 'error' });
  });

  it('restarts the 5000 ms for the new popup after a swap', async () => {
    const popup = createPopupController();
    await popup.show({ status: 'info', title: 'first' });
    vi.advanceTimersByTime(4000);
    const second = popup.show({ status: 'info', title: 'second' });
    await vi.advanceTimersByTimeAsync(500);
    await second;
    vi.advanceTimersByTime(4999);
    expect(popup.store.getState()).toMatchObject({ modelValue: true, title: 'second' });
    vi.advanceTimersByTime(1);
    expect(popup.store.getState().modelValue).toBe(false);
  });

  it('lets the latest of several quick calls win', async () => {
    const popup = createPopupController();
    await popup.show({ status: 'info', title: 'a' });
    const b = popup.show({ status: 'info', title: 'b' });
    const c = popup.show({ status: 'info', title: 'c' });
    await vi.advanceTimersByTimeAsync(500);
    await Promise.all([b, c]);
    expect(popup.store.getState()).toMatchObject({ modelValue: true, title: 'c' });
  });

  it('stops the auto-hide while the details dialog is open and restarts it on close', async () => {
    const popup = createPopupController();
    await popup.show({ status: 'error', title: 'Falhou', details: 'stack' });
    vi.advanceTimersByTime(3000);
    popup.openDetails();
    expect(popup.store.getState().dialogOpen).toBe(true);
    vi.advanceTimersByTime(60_000);
    expect(popup.store.getState().modelValue).toBe(true);
    popup.closeDetails();
    vi.advanceTimersByTime(4999);
    expect(popup.store.getState().modelValue).toBe(true);
    vi.advanceTimersByTime(1);
    expect(popup.store.getState().modelValue).toBe(false);
  });

  it('opens the dialog only when there are details or a retry action', async () => {
    const popup = createPopupController();
    await popup.show({ status: 'info', title: 'plain' });
    popup.openDetails();
    expect(popup.store.getState().dialogOpen).toBe(false);
    await vi.advanceTimersByTimeAsync(5000);
    await popup.show({ status: 'error', title: 'with retry', retry: () => {} });
    popup.openDetails();
    expect(popup.store.getState().dialogOpen).toBe(true);
  });

  it('try again runs the retry, hides the popup and closes the dialog', async () => {
    const popup = createPopupController();
    const retry = vi.fn();
    await popup.show({ status: 'error', title: 'Falhou', retry });
    popup.openDetails();
    popup.tryAgain();
    expect(retry).toHaveBeenCalledTimes(1);
    expect(popup.store.getState()).toMatchObject({ modelValue: false, dialogOpen: false });
  });

  it('hide closes it and cancels the timer', async () => {
    const popup = createPopupController();
    await popup.show({ status: 'info', title: 'x' });
    popup.hide();
    expect(popup.store.getState().modelValue).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });
});
