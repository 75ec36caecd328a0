import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { Config } from '../../config.ts';
import type { Mailer, MailMessage } from './types.ts';

export type { Mailer, MailMessage } from './types.ts';

const LINK_RE = /https?:\/\/[^\s<>"')\]]+/;

/** The first http(s) link of a text, e.g. the set-password link of an identity mail. */
export function firstLink(text: string): string | undefined {
  return LINK_RE.exec(text)?.[0];
}

/** nodemailer, loaded by the first mail (docs/ARCHITECTURE.md#build-and-run). */
const loadNodemailer = async () => (await import('nodemailer')).default;

/** Transactional mail never asks for auto-replies (RFC 3834). */
const COMMON_HEADERS = { 'Auto-Submitted': 'auto-generated' };

/**
 * SMTP through `SMTP_URL` when set; otherwise every mail is written as an RFC 822 `.eml` file into
 * `DATA_DIR/outbox/` and its first link is logged, so a single-process install works without a mail server.
 */
export function createMailer(config: Config, log: FastifyBaseLogger): Mailer {
  if (config.SMTP_URL) return createSmtpMailer(config.SMTP_URL, config.MAIL_FROM);
  return createOutboxMailer(path.join(config.dataDir, 'outbox'), config.MAIL_FROM, log);
}

function createSmtpMailer(url: string, from: string): Mailer {
  // Short timeouts: an unreachable server should fail a send in seconds, not minutes.
  // Query parameters of SMTP_URL (e.g. ?pool=true&socketTimeout=60000) still win.
  let transport: Promise<Transporter> | undefined;
  return {
    async send(message: MailMessage) {
      transport ??= loadNodemailer().then((nodemailer) =>
        nodemailer.createTransport({
          url,
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 30_000,
        }),
      );
      await (await transport).sendMail({ from, headers: COMMON_HEADERS, ...message });
    },
    async close() {
      (await transport?.catch(() => undefined))?.close();
    },
  };
}

function createOutboxMailer(dir: string, from: string, log: FastifyBaseLogger): Mailer {
  // Builds the same RFC 822 message SMTP would carry, without sending it anywhere.
  let composer: Promise<Transporter> | undefined;
  let ready: Promise<unknown> | undefined;
  return {
    async send(message: MailMessage) {
      ready ??= mkdir(dir, { recursive: true, mode: 0o700 });
      await ready;
      composer ??= loadNodemailer().then((nodemailer) =>
        nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' }),
      );
      const info = await (await composer).sendMail({ from, headers: COMMON_HEADERS, ...message });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(dir, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
      // Mails carry set-password links: readable by the server's user only.
      await writeFile(file, info.message, { mode: 0o600 });
      const link = firstLink(message.text);
      log.info(
        { mail: { to: message.to, subject: message.subject, file } },
        link
          ? `Mail to ${message.to} written to ${file} (SMTP_URL is not set). Link: ${link}`
          : `Mail to ${message.to} written to ${file} (SMTP_URL is not set)`,
      );
    },
    async close() {
      (await composer?.catch(() => undefined))?.close();
    },
  };
}
