import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SunkMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  /** The body with quoted-printable soft breaks undone, for finding links. */
  text: string;
}

export interface SmtpSink {
  url: string;
  mails: SunkMail[];
  waitFor(pred: (m: SunkMail) => boolean, timeoutMs?: number): Promise<SunkMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on a random local port that keeps what it receives, and hands each mail to
 * `onMail` as it arrives (the e2e run writes them to files its specs read).
 */
export async function startSmtpSink(options: { onMail?: (mail: SunkMail) => void } = {}): Promise<SmtpSink> {
  const mails: SunkMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const subject = /^Subject: (.*)$/im.exec(raw)?.[1]?.trim() ?? '';
        const text = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
        const mail: SunkMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          subject,
          text,
        };
        mails.push(mail);
        options.onMail?.(mail);
        for (const w of waiters.splice(0)) w();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(pred, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = mails.find(pred);
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error('No matching mail arrived at the SMTP sink');
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
