import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { startSmtpSink } from '../../test/smtp-sink.ts';
import { createMailer, firstLink } from './index.ts';

const message = {
  to: 'ana@example.com',
  subject: 'Redefina sua senha — teste',
  text: 'Olá,\n\nAbra https://chat.acme.com/auth/reset-password?oobCode=abc-123_x para continuar.\n\nOutro: https://example.com\n',
  html: '<p>Olá, <a href="https://chat.acme.com/auth/reset-password?oobCode=abc-123_x">abra</a></p>',
};

describe('firstLink', () => {
  it('finds the first http(s) link', () => {
    expect(firstLink(message.text)).toBe('https://chat.acme.com/auth/reset-password?oobCode=abc-123_x');
    expect(firstLink('no links (here)')).toBeUndefined();
    expect(firstLink('(see http://a.b/c?d=e).')).toBe('http://a.b/c?d=e');
  });
});

describe('createMailer without SMTP_URL', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'assistente-mail-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('writes an RFC 822 .eml into DATA_DIR/outbox and logs the first link at info level', async () => {
    const lines: Array<{ level: number; msg: string }> = [];
    const stream = new Writable({
      write(chunk: Buffer, _e, done) {
        for (const l of chunk.toString().split('\n')) if (l.trim()) lines.push(JSON.parse(l));
        done();
      },
    });
    const app = Fastify({ logger: { level: 'info', stream } });
    const mailer = createMailer(
      loadConfig({ DATA_DIR: dataDir, MAIL_FROM: 'Assistente <no-reply@acme.com>' }),
      app.log,
    );
    await mailer.send(message);
    await mailer.send({ ...message, to: 'bia@example.com' });
    await mailer.close();
    await app.close();

    const dir = path.join(dataDir, 'outbox');
    const files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(2);
    const file = path.join(
      dir,
      files.find((f) => readFileSync(path.join(dir, f), 'utf8').includes('ana@')) ?? '',
    );
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const eml = readFileSync(file, 'utf8');
    expect(eml).toMatch(/^From: Assistente <no-reply@acme\.com>\r$/m);
    expect(eml).toMatch(/^To: ana@example\.com\r$/m);
    expect(eml).toMatch(/^Subject: =\?UTF-8\?/m);
    expect(eml).toMatch(/^Message-ID: </m);
    expect(eml).toMatch(/^Date: /m);
    expect(eml).toMatch(/^Auto-Submitted: auto-generated\r$/m);
    expect(eml).toContain('\r\n\r\n');
    const line = lines.find((l) => l.msg.includes('ana@example.com'));
    expect(line?.level).toBe(30);
    expect(line?.msg).toContain('https://chat.acme.com/auth/reset-password?oobCode=abc-123_x');
  });
});

describe('createMailer with SMTP_URL', () => {
  it('delivers through SMTP to a real server', async () => {
    const sink = await startSmtpSink();
    const app = Fastify({ logger: false });
    const dataDir = mkdtempSync(path.join(tmpdir(), 'assistente-mail-'));
    try {
      const mailer = createMailer(
        loadConfig({ DATA_DIR: dataDir, SMTP_URL: sink.url, MAIL_FROM: 'Assistente <no-reply@acme.com>' }),
        app.log,
      );
      await mailer.send(message);
      const mail = await sink.waitFor((m) => m.to.includes('ana@example.com'));
      expect(mail.from).toBe('no-reply@acme.com');
      expect(mail.text).toContain('https://chat.acme.com/auth/reset-password?oobCode=abc-123_x');
      expect(mail.raw).toMatch(/^Auto-Submitted: auto-generated\r$/m);
      await mailer.close();
      expect(() => readdirSync(path.join(dataDir, 'outbox'))).toThrow();
    } finally {
      await sink.close();
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('fails loudly when the SMTP server is unreachable', async () => {
    const app = Fastify({ logger: false });
    const mailer = createMailer(loadConfig({ SMTP_URL: 'smtp://127.0.0.1:1' }), app.log);
    await expect(mailer.send(message)).rejects.toThrow();
    await mailer.close();
  });
});
