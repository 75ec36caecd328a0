import type { Export } from '@assistente/contracts';
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { routeHttp } from '../../../test/fakeHttp.ts';
import { installFakeServices, resetSession, signInSession } from '../../../test/fakeServices.ts';
import { loadTestTexts } from '../../../test/render.tsx';
import { renderFeature } from '../../../test/renderFeature.tsx';
import { MyDataTab } from './MyDataTab.tsx';

beforeAll(async () => {
  await loadTestTexts();
});
afterEach(() => {
  resetSession();
  vi.unstubAllGlobals();
});

const made: Export = {
  exportId: 'exp_1',
  scope: 'me',
  subjectId: 'ana@acme.com',
  createdAt: '2026-11-29T12:00:00.000Z',
  expiresAt: '2026-11-30T12:00:00.000Z',
  downloadUrl: '/api/v1/me/export/exp_1',
};

/** Asks for the export; the ZIP's download answers `respond`. */
function serve(respond: (url: string, init?: RequestInit) => Promise<Response>) {
  const services = installFakeServices();
  signInSession();
  const asked: string[] = [];
  routeHttp(services.accountHttp, {
    'POST /api/v1/me/export': () => {
      asked.push('POST');
      return { body: made };
    },
  });
  const fetched: Array<{ url: string; init?: RequestInit }> = [];
  vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
    fetched.push({ url, ...(init ? { init } : {}) });
    return respond(url, init);
  });
  renderFeature(<MyDataTab />);
  return { asked, fetched };
}

/** A body sent in two pieces, as a stream arrives. */
const zipResponse = () =>
  new Response(
    new ReadableStream({
      start(controller) {
        controller.enqueue(new Uint8Array(1500));
        controller.enqueue(new Uint8Array(600));
        controller.close();
      },
    }),
    {
      status: 200,
      headers: { 'content-disposition': 'attachment; filename="assistente-ana-2026-11-29.zip"' },
    },
  );

describe('Settings → My data', () => {
  it('lists what the ZIP holds, asks for the export and saves it with the bytes received', async () => {
    const saved: Blob[] = [];
    const created = URL.createObjectURL;
    URL.createObjectURL = (blob: Blob) => {
      saved.push(blob);
      return 'blob:export';
    };
    try {
      const { asked, fetched } = serve(async () => zipResponse());
      expect(await screen.findByText(/cada uma em JSON/)).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: 'Baixar todos os meus dados' }));
      const status = await screen.findByText(
        /Pronto: assistente-ana-2026-11-29\.zip/,
        {},
        { timeout: 5_000 },
      );
      expect(status.textContent).toContain('2,1');
      expect(asked).toEqual(['POST']);
      // With the caller's credentials, in the screen's language and time zone.
      expect(fetched[0]?.url).toContain('/api/v1/me/export/exp_1?');
      expect(fetched[0]?.url).toContain('timeZone=');
      expect((fetched[0]?.init?.headers as Record<string, string> | undefined)?.Authorization).toMatch(
        /^Bearer /,
      );
      expect(saved).toHaveLength(1);
      expect(saved[0]?.size).toBe(2100);
    } finally {
      URL.createObjectURL = created;
    }
  });

  it('says clearly when the download is refused or breaks off, and saves nothing', async () => {
    const created = URL.createObjectURL;
    const save = vi.fn(() => 'blob:x');
    URL.createObjectURL = save;
    try {
      serve(async () => new Response('{}', { status: 404 }));
      fireEvent.click(await screen.findByRole('button', { name: 'Baixar todos os meus dados' }));
      const alert = await screen.findByRole('alert', {}, { timeout: 5_000 });
      expect(alert.textContent).toContain('expirou ou não é seu');
      expect(save).not.toHaveBeenCalled();
    } finally {
      URL.createObjectURL = created;
    }
  });
});
