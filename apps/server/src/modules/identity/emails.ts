import { DefaultLocale, type Locale, Locales } from '@assistente/contracts';
import type { MailMessage } from '../mail/types.ts';

export type PasswordMailKind = 'reset' | 'invite';

interface Texts {
  subject: string;
  greeting: string;
  intro: (email: string) => string;
  action: (hours: number) => string;
  button: string;
  ignore: string;
  signature: string;
}

const APP = 'Assistente';

const hoursText = (locale: Locale, h: number) => {
  const one = h === 1;
  switch (locale) {
    case 'pt-BR':
      return one ? '1 hora' : `${h} horas`;
    case 'es':
      return one ? '1 hora' : `${h} horas`;
    case 'en':
      return one ? '1 hour' : `${h} hours`;
  }
};

const TEXTS: Record<PasswordMailKind, Record<Locale, Texts>> = {
  reset: {
    'pt-BR': {
      subject: `Redefina sua senha do ${APP}`,
      greeting: 'Olá,',
      intro: (email) => `Recebemos um pedido para redefinir a senha da conta ${email} no ${APP}.`,
      action: (h) =>
        `Para escolher uma nova senha, abra o link abaixo. Ele vale por ${hoursText('pt-BR', h)} e só pode ser usado uma vez.`,
      button: 'Redefinir senha',
      ignore: 'Se você não fez esse pedido, ignore este e-mail: sua senha continua a mesma.',
      signature: `Equipe ${APP}`,
    },
    en: {
      subject: `Reset your ${APP} password`,
      greeting: 'Hello,',
      intro: (email) => `We received a request to reset the password of the ${APP} account ${email}.`,
      action: (h) =>
        `To choose a new password, open the link below. It is valid for ${hoursText('en', h)} and can be used once.`,
      button: 'Reset password',
      ignore: 'If you did not ask for this, ignore this email: your password stays the same.',
      signature: `The ${APP} team`,
    },
    es: {
      subject: `Restablece tu contraseña de ${APP}`,
      greeting: 'Hola:',
      intro: (email) =>
        `Recibimos una solicitud para restablecer la contraseña de la cuenta ${email} en ${APP}.`,
      action: (h) =>
        `Para elegir una nueva contraseña, abre el enlace de abajo. Es válido durante ${hoursText('es', h)} y solo se puede usar una vez.`,
      button: 'Restablecer contraseña',
      ignore: 'Si no hiciste esta solicitud, ignora este correo: tu contraseña sigue siendo la misma.',
      signature: `El equipo de ${APP}`,
    },
  },
  invite: {
    'pt-BR': {
      subject: `Você foi convidado para o ${APP}`,
      greeting: 'Olá,',
      intro: (email) => `Você foi convidado para usar o ${APP} com o e-mail ${email}.`,
      action: (h) =>
        `Para começar, defina sua senha no link abaixo. Ele vale por ${hoursText('pt-BR', h)} e só pode ser usado uma vez.`,
      button: 'Definir senha',
      ignore: 'Se você não esperava este convite, ignore este e-mail.',
      signature: `Equipe ${APP}`,
    },
    en: {
      subject: `You were invited to ${APP}`,
      greeting: 'Hello,',
      intro: (email) => `You were invited to use ${APP} with the email ${email}.`,
      action: (h) =>
        `To get started, set your password with the link below. It is valid for ${hoursText('en', h)} and can be used once.`,
      button: 'Set password',
      ignore: 'If you did not expect this invitation, ignore this email.',
      signature: `The ${APP} team`,
    },
    es: {
      subject: `Te invitaron a ${APP}`,
      greeting: 'Hola:',
      intro: (email) => `Te invitaron a usar ${APP} con el correo ${email}.`,
      action: (h) =>
        `Para empezar, define tu contraseña con el enlace de abajo. Es válido durante ${hoursText('es', h)} y solo se puede usar una vez.`,
      button: 'Definir contraseña',
      ignore: 'Si no esperabas esta invitación, ignora este correo.',
      signature: `El equipo de ${APP}`,
    },
  },
};

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** The set-password mail, in the reader's language; the link comes first so logs and tests find it. */
export function passwordMail(opts: {
  kind: PasswordMailKind;
  locale: Locale;
  to: string;
  link: string;
  validHours: number;
}): MailMessage {
  const t = TEXTS[opts.kind][opts.locale];
  const text = [
    t.greeting,
    '',
    t.intro(opts.to),
    '',
    t.action(opts.validHours),
    '',
    opts.link,
    '',
    t.ignore,
    '',
    `— ${t.signature}`,
    '',
  ].join('\n');
  const link = escapeHtml(opts.link);
  const html = `<!doctype html>
<html lang="${opts.locale}"><head><meta charset="utf-8"><title>${escapeHtml(t.subject)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1f2933">
<p>${escapeHtml(t.greeting)}</p>
<p>${escapeHtml(t.intro(opts.to))}</p>
<p>${escapeHtml(t.action(opts.validHours))}</p>
<p><a href="${link}" style="display:inline-block;padding:10px 18px;border-radius:6px;background:#1c5dbd;color:#ffffff;text-decoration:none">${escapeHtml(t.button)}</a></p>
<p style="font-size:13px;color:#52606d">${link}</p>
<p style="font-size:13px;color:#52606d">${escapeHtml(t.ignore)}</p>
<p>— ${escapeHtml(t.signature)}</p>
</body></html>
`;
  return { to: opts.to, subject: t.subject, text, html };
}

/**
 * The mail language from what the client sent: `pt`, `pt_BR`, `pt-br` → pt-BR; `en-US` → en;
 * `es-419` → es; an Accept-Language list is read in order. Anything else: pt-BR.
 */
export function resolveLocale(...candidates: Array<string | undefined>): Locale {
  for (const candidate of candidates) {
    if (!candidate) continue;
    for (const part of candidate.split(',')) {
      const tag = part.split(';')[0]?.trim().replace('_', '-').toLowerCase();
      if (!tag) continue;
      const exact = Locales.find((l) => l.toLowerCase() === tag);
      if (exact) return exact;
      const lang = tag.split('-')[0];
      if (lang === 'pt') return 'pt-BR';
      if (lang === 'en') return 'en';
      if (lang === 'es') return 'es';
    }
  }
  return DefaultLocale;
}
