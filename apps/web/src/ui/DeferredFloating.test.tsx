import * as mantine from '@mantine/core';
import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render.tsx';
import { createDeferredFloating, type FloatingParts, inputIdle } from './DeferredFloating.tsx';
import { lazyModule } from './lazyModule.ts';

/** Stand-ins whose parts arrive when the test says so. */
function deferredParts() {
  let arrive: () => void = () => {};
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  let requested = 0;
  const parts = lazyModule<FloatingParts>(async () => {
    requested += 1;
    await arrived;
    return { Menu: mantine.Menu, Tooltip: mantine.Tooltip };
  });
  const deferred = createDeferredFloating(parts);
  return {
    ...deferred,
    requested: () => requested,
    /** Lets the parts load (once asked) and waits for the stand-ins to become them. */
    async arrive() {
      arrive();
      await act(async () => {
        await parts.load();
      });
    },
  };
}

describe('deferred Tooltip and Menu', () => {
  it('render the wrapped element at once, and become Mantine’s once the parts are loaded', async () => {
    const { Tooltip, load, arrive, requested } = deferredParts();
    renderWithProviders(
      <Tooltip label="Copiar">
        <button type="button">copy</button>
      </Tooltip>,
    );
    const button = screen.getByRole('button', { name: 'copy' });
    await userEvent.hover(button);
    expect(screen.queryByRole('tooltip')).toBeNull();
    expect(requested()).toBe(0);

    load();
    await arrive();
    await userEvent.hover(screen.getByRole('button', { name: 'copy' }));
    expect((await screen.findByRole('tooltip')).textContent).toBe('Copiar');
  });

  it('loads the parts only once the page says its content has been painted', async () => {
    const { useLoadAfterPaint, requested } = deferredParts();
    function Page({ ready }: { ready: boolean }) {
      useLoadAfterPaint(ready);
      return null;
    }
    const { rerender } = renderWithProviders(<Page ready={false} />);
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(requested()).toBe(0);
    rerender(<Page ready />);
    await vi.waitFor(() => expect(requested()).toBe(1));
  });

  it('a menu target clicked before the parts are there opens the menu once they are', async () => {
    const { Menu, arrive, requested } = deferredParts();
    renderWithProviders(
      <Menu>
        <Menu.Target>
          <button type="button">actions</button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>Exportar</Menu.Label>
          <Menu.Item>Markdown</Menu.Item>
        </Menu.Dropdown>
      </Menu>,
    );
    const target = screen.getByRole('button', { name: 'actions' });
    // Until then it is announced as what it is: a closed menu button.
    expect(target.getAttribute('aria-haspopup')).toBe('menu');
    expect(target.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('menu')).toBeNull();

    fireEvent.click(target);
    expect(requested()).toBe(1);
    await arrive();
    expect(await screen.findByRole('menuitem', { name: 'Markdown' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'actions' }).getAttribute('aria-expanded')).toBe('true');
  });

  it('keeps the focus on an element it replaces', async () => {
    const { Tooltip, load, arrive } = deferredParts();
    renderWithProviders(
      <Tooltip label="Enviar">
        <button type="button">send</button>
      </Tooltip>,
    );
    const before = screen.getByRole('button', { name: 'send' });
    before.focus();
    load();
    await arrive();
    const after = screen.getByRole('button', { name: 'send' });
    expect(after).not.toBe(before);
    expect(document.activeElement).toBe(after);
  });

  it('waits for a press to end before the parts replace what is under it', async () => {
    let idle = false;
    fireEvent.pointerDown(window);
    const waiting = inputIdle().then(() => {
      idle = true;
    });
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    expect(idle).toBe(false);
    fireEvent.pointerUp(window);
    await waiting;
    expect(idle).toBe(true);
  });
});
