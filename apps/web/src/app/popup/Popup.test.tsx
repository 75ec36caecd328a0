import { act, fireEvent, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { loadTestTexts, renderWithProviders } from '../../test/render.tsx';
import { createPopupController } from '../../ui/popup/popupStore.ts';
import { Popup, popupLook } from './Popup.tsx';

beforeAll(async () => {
  await loadTestTexts();
});

async function shown(options: Parameters<ReturnType<typeof createPopupController>['show']>[0]) {
  const controller = createPopupController();
  renderWithProviders(<Popup controller={controller} />);
  await act(() => controller.show(options));
  return controller;
}

describe('Popup', () => {
  it('shows status, title, description and a close button', async () => {
    const controller = await shown({ status: 'error', title: 'Falhou', description: 'Tente de novo' });
    expect(screen.getByTestId('popup').dataset.status).toBe('error');
    expect(screen.getByText('Falhou')).toBeTruthy();
    expect(screen.getByText('Tente de novo')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Fechar' }));
    expect(controller.store.getState().modelValue).toBe(false);
  });

  it('gives error, success and info their own look and anything else the warning look', () => {
    expect(popupLook('error').color).toBe('error');
    expect(popupLook('success').color).toBe('green');
    expect(popupLook('info').color).toBe('blue');
    expect(popupLook('quota')).toEqual(popupLook('warning'));
    expect(popupLook('quota').color).toBe('accent');
  });

  it('opens the 450 px details dialog with "details: …" and try again', async () => {
    const retry = vi.fn();
    const controller = await shown({ status: 'error', title: 'Falhou', details: 'HTTP 503', retry });
    fireEvent.click(screen.getByRole('button', { name: /Falhou/ }));
    const dialog = await screen.findByTestId('popup-details');
    expect(dialog.textContent).toContain('details: HTTP 503');
    expect(controller.store.getState().dialogOpen).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(retry).toHaveBeenCalledTimes(1);
    expect(controller.store.getState()).toMatchObject({ modelValue: false, dialogOpen: false });
  });

  it('falls back to a text saying the details are unavailable', async () => {
    await shown({ status: 'error', title: 'Falhou', retry: () => {} });
    fireEvent.click(screen.getByRole('button', { name: /Falhou/ }));
    const dialog = await screen.findByTestId('popup-details');
    expect(dialog.textContent).toContain('details: Os detalhes do erro não estão disponíveis.');
  });

  it('is not clickable without details or retry', async () => {
    const controller = await shown({ status: 'success', title: 'Salvo' });
    expect(screen.getByRole('status')).toBeTruthy();
    fireEvent.click(screen.getByText('Salvo'));
    expect(controller.store.getState().dialogOpen).toBe(false);
  });

  it('is dismissed by a horizontal swipe of 50 px, not less', async () => {
    const controller = await shown({ status: 'info', title: 'Oi' });
    const surface = screen.getByRole('status');
    fireEvent.touchStart(surface, { touches: [{ clientX: 100 }] });
    fireEvent.touchMove(surface, { touches: [{ clientX: 149 }] });
    fireEvent.touchEnd(surface, { changedTouches: [{ clientX: 149 }] });
    expect(controller.store.getState().modelValue).toBe(true);
    fireEvent.touchStart(surface, { touches: [{ clientX: 100 }] });
    fireEvent.touchMove(surface, { touches: [{ clientX: 40 }] });
    fireEvent.touchEnd(surface, { changedTouches: [{ clientX: 50 }] });
    expect(controller.store.getState().modelValue).toBe(false);
  });
});
