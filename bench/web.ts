import { gzipSync } from 'node:zlib';
import { launchChromium, startPageServer, waitReady } from './browser.ts';

/** Serves the built app and loads /auth/login in Chromium with 4× CPU throttling. */
export interface PageWeight {
  gzipJsKB: number;
  jsFiles: number;
  loadMs: number;
  files: Array<{ url: string; gzipKB: number }>;
}

export async function measureLoginPage(): Promise<PageWeight> {
  const port = 3290;
  const server = startPageServer('web', port, {
    ADMIN_EMAIL: 'bench@bench.test',
    ADMIN_PASSWORD: 'bench-password-Q9x!',
  });
  try {
    await waitReady(`http://127.0.0.1:${port}`, 'web');
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ locale: 'pt-BR' });
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      const js: Array<{ url: string; body: Buffer }> = [];
      page.on('response', async (res) => {
        if (res.request().resourceType() === 'script')
          js.push({ url: new URL(res.url()).pathname, body: await res.body() });
      });
      const t0 = Date.now();
      await page.goto(`http://127.0.0.1:${port}/auth/login`, { waitUntil: 'networkidle' });
      await page.getByRole('button', { name: 'Entrar', exact: true }).waitFor();
      const loadMs = Date.now() - t0;
      const files = js
        .map((f) => ({ url: f.url, gzipKB: gzipSync(f.body).length / 1024 }))
        .sort((a, b) => b.gzipKB - a.gzipKB);
      const gzipJsKB = files.reduce((n, f) => n + f.gzipKB, 0);
      return { gzipJsKB, jsFiles: files.length, loadMs, files };
    } finally {
      await browser.close();
    }
  } finally {
    server.kill('SIGTERM');
  }
}
