import { type PiiKind, PiiKinds } from '@assistente/contracts';
import { describe, expect, it } from 'vitest';
import { cpfDigits, seededRandom } from '../test/pii-samples.ts';
import { findPii, type PiiMatch } from './pii.ts';

// The labelled corpus: valid numbers made by computing their check digits here (not with the
// detector's own functions), invalid ones by changing one digit, in pt-BR and English sentences,
// with and without punctuation, and the near-misses a filter must leave alone (dates, order
// numbers, versions, UUIDs, hashes, prose about passwords). Every sample is built from a seed, so
// the figures are the same on every run.

const r = seededRandom(20260718);
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ALNUM = `${UPPER}abcdefghijklmnopqrstuvwxyz0123456789`;
const B64URL = `${ALNUM}-_`;

// ---- Check digits, computed independently of the detector

function cnpjDigits(base12: string): string {
  let d = base12;
  for (const weights of [
    [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2],
    [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2],
  ]) {
    const sum = weights.reduce((s, w, k) => s + (d.charCodeAt(k) - 48) * w, 0);
    const rest = sum % 11;
    d += String(rest < 2 ? 0 : 11 - rest);
  }
  return d;
}

function luhnComplete(partial: string): string {
  for (let c = 0; c < 10; c++) {
    const n = partial + c;
    let sum = 0;
    for (let k = 0; k < n.length; k++) {
      let v = Number(n[n.length - 1 - k]);
      if (k % 2 === 1) v = v * 2 > 9 ? v * 2 - 9 : v * 2;
      sum += v;
    }
    if (sum % 10 === 0) return n;
  }
  throw new Error('unreachable');
}

function ibanFor(country: string, bban: string): string {
  const moved = `${bban}${country}00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const ch of moved) rest = (rest * 10 + Number(ch)) % 97;
  return `${country}${String(98 - rest).padStart(2, '0')}${bban}`;
}

/** One digit of the number part changed to another (skipping punctuation). */
function perturb(value: string, at: 'last' | 'any' = 'any'): string {
  const places = [...value].map((c, k) => (/[0-9]/.test(c) ? k : -1)).filter((k) => k >= 0);
  const k = at === 'last' ? (places.at(-1) as number) : r.pick(places);
  const d = Number(value[k]);
  return value.slice(0, k) + String((d + 1 + r.int(9)) % 10) + value.slice(k + 1);
}

// ---- Generators

const cpf = () => cpfDigits(r.digits(9));
const formatCpf = (d: string) =>
  r.pick([
    () => `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`,
    () => d,
    () => `${d.slice(0, 9)}-${d.slice(9)}`,
  ])();

function cnpj(): string {
  if (r.next() < 0.25) return cnpjDigits(r.chars(12, `${UPPER}0123456789`));
  return cnpjDigits(`${r.digits(8)}000${1 + r.int(3)}`);
}
const formatCnpj = (d: string) =>
  r.next() < 0.6 ? `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-${d.slice(12)}` : d;

const CARD_BRANDS: Array<() => string> = [
  () => luhnComplete(`4${r.digits(14)}`), // Visa
  () => luhnComplete(`5${1 + r.int(5)}${r.digits(13)}`), // Mastercard
  () => luhnComplete(`${2221 + r.int(500)}${r.digits(11)}`), // Mastercard 2-series
  () => luhnComplete(`3${r.pick(['4', '7'])}${r.digits(12)}`), // Amex, 15
  () => luhnComplete(`6011${r.digits(11)}`), // Discover
  () => luhnComplete(`${r.pick(['636368', '509066', '506722'])}${r.digits(9)}`), // Elo
  () => luhnComplete(`606282${r.digits(9)}`), // Hipercard
  () => luhnComplete(`35${28 + r.int(62)}${r.digits(11)}`), // JCB
];
const card = () => r.pick(CARD_BRANDS)();
function formatCard(d: string): string {
  const sep = r.pick([' ', '-', '']);
  if (!sep) return d;
  if (d.length === 15) return [d.slice(0, 4), d.slice(4, 10), d.slice(10)].join(sep);
  return d.match(/.{1,4}/g)?.join(sep) ?? d;
}

const IBAN_SHAPES: Record<string, () => string> = {
  BR: () => `${r.digits(23)}${r.pick(['C', 'P'])}${r.chars(1, '123456789')}`,
  DE: () => r.digits(18),
  GB: () => `${r.chars(4, UPPER)}${r.digits(14)}`,
  FR: () => `${r.digits(10)}${r.chars(11, `${UPPER}0123456789`)}${r.digits(2)}`,
  PT: () => r.digits(21),
  ES: () => r.digits(20),
  IT: () => `${r.chars(1, UPPER)}${r.digits(10)}${r.chars(12, `${UPPER}0123456789`)}`,
  NL: () => `${r.chars(4, UPPER)}${r.digits(10)}`,
};
function iban(): string {
  const country = r.pick(Object.keys(IBAN_SHAPES));
  return ibanFor(country, (IBAN_SHAPES[country] as () => string)());
}
const formatIban = (s: string) => (r.next() < 0.6 ? (s.match(/.{1,4}/g)?.join(' ') ?? s) : s);

const NAMES = [
  'maria',
  'joao',
  'ana.souza',
  'pedro_lima',
  'carla+nf',
  'j.silva',
  'ops-team',
  'financeiro',
  'lucas99',
];
const DOMAINS = [
  'empresa.com.br',
  'example.com',
  'mail.example.org',
  'gov.br',
  'uol.com.br',
  'acme.io',
  'sub-d.co.uk',
];
const email = () => `${r.pick(NAMES)}${r.next() < 0.3 ? r.int(100) : ''}@${r.pick(DOMAINS)}`;

const DDDS = ['11', '21', '31', '41', '51', '61', '71', '81', '85', '19', '48', '62'];
function phone(): string {
  const ddd = r.pick(DDDS);
  const mobile = `9${r.chars(1, '6789')}${r.digits(3)}`;
  const tail = r.digits(4);
  const land = `${r.chars(1, '2345')}${r.digits(3)}`;
  return r.pick([
    () => `+55 (${ddd}) ${mobile}-${tail}`,
    () => `+55 ${ddd} ${mobile}-${tail}`,
    () => `+55${ddd}${mobile}${tail}`,
    () => `(${ddd}) ${mobile}-${tail}`,
    () => `(${ddd}) ${mobile.slice(0, 1)} ${mobile.slice(1)}-${tail}`,
    () => `+55 ${ddd} ${mobile.slice(0, 1)} ${mobile.slice(1)} ${tail}`,
    () => `(${ddd}) ${land}-${tail}`,
    () => `${ddd} ${mobile}-${tail}`,
    () => `${ddd}${mobile}${tail}`,
    () => `${mobile}-${tail}`,
    () =>
      `+1 (${r.chars(1, '23456789')}${r.digits(2)}) ${r.chars(1, '23456789')}${r.digits(2)}-${r.digits(4)}`,
    () => `+44 20 ${r.digits(4)} ${r.digits(4)}`,
    () => `+351 9${r.digits(2)} ${r.digits(3)} ${r.digits(3)}`,
    () => `+49 30 ${r.digits(7)}`,
    () => `(${r.chars(1, '23456789')}${r.digits(2)}) ${r.chars(1, '23456789')}${r.digits(2)}-${r.digits(4)}`,
  ])();
}

const b64url = (s: string) => Buffer.from(s).toString('base64url');
function jwt(): string {
  const header = r.pick([
    '{"alg":"HS256","typ":"JWT"}',
    '{"alg":"RS256","kid":"k1"}',
    '{"typ":"JWT","alg":"ES256"}',
  ]);
  const payload = `{"sub":"${r.digits(8)}","exp":${1_700_000_000 + r.int(1e8)}}`;
  return `${b64url(header)}.${b64url(payload)}.${r.chars(43, B64URL)}`;
}

function token(): string {
  return r.pick([
    () => `AKIA${r.chars(16, `${UPPER}234567`)}`,
    () => `ghp_${r.chars(36, ALNUM)}`,
    () => `github_pat_${r.chars(22, ALNUM)}_${r.chars(59, ALNUM)}`,
    () => `sk-proj-${r.chars(20, ALNUM)}${r.digits(4)}`,
    () => `sk-${r.chars(20, ALNUM)}${r.digits(4)}`,
    () => `xoxb-${r.digits(12)}-${r.digits(13)}-${r.chars(24, ALNUM)}`,
    () => `AIza${r.chars(35, B64URL)}`,
    () => `sk_live_${r.chars(24, ALNUM)}`,
    () => `rk_live_${r.chars(24, ALNUM)}`,
  ])();
}
const secret = () =>
  r.pick([`${r.chars(6, ALNUM)}${r.digits(2)}`, `S3nh@${r.digits(4)}`, `${r.chars(12, ALNUM)}1`]);

// ---- Samples

type Part = string | readonly [PiiKind, string];
interface Sample {
  text: string;
  expected: PiiMatch[];
}

function sample(...parts: Part[]): Sample {
  let text = '';
  const expected: PiiMatch[] = [];
  for (const p of parts) {
    if (typeof p === 'string') text += p;
    else {
      expected.push({ kind: p[0], start: text.length, end: text.length + p[1].length });
      text += p[1];
    }
  }
  return { text, expected };
}

/** Sentences around one value, in pt-BR and English, with the label a person would write. */
const AROUND: Array<(label: string) => [string, string]> = [
  (l) => [`Meu ${l} é `, ', pode conferir?'],
  (l) => [`Segue o ${l}: `, '.'],
  () => ['Por favor, cadastre ', ' no sistema até sexta.'],
  () => ['', ''],
  () => ['O cliente informou (', ') ontem à tarde.'],
  (l) => [`My ${l} is `, '.'],
  () => ['Please update the record with ', ' today'],
  () => ['"', '"'],
  (l) => [`${l}:\t`, '\nobrigado'],
];

const LABELS: Record<PiiKind, string> = {
  credential: 'chave',
  jwt: 'token',
  email: 'e-mail',
  phone: 'telefone',
  card: 'cartão',
  iban: 'IBAN',
  cpf: 'CPF',
  cnpj: 'CNPJ',
};

function around(kind: PiiKind, value: string, expected: boolean): Sample {
  const [before, after] = r.pick(AROUND)(LABELS[kind]);
  return sample(before, expected ? [kind, value] : value, after);
}

function corpus(): Sample[] {
  const samples: Sample[] = [];
  const add = (n: number, make: () => Sample) => {
    for (let k = 0; k < n; k++) samples.push(make());
  };

  // Valid numbers and values, in every format.
  add(40, () => around('cpf', formatCpf(cpf()), true));
  add(40, () => around('cnpj', formatCnpj(cnpj()), true));
  add(40, () => around('card', formatCard(card()), true));
  add(30, () => around('iban', formatIban(iban()), true));
  add(30, () => around('email', email(), true));
  add(40, () => around('phone', phone(), true));
  add(15, () => around('jwt', jwt(), true));
  add(5, () => sample('Authorization: Bearer ', ['jwt', jwt()]));
  add(30, () => around('credential', token(), true));
  add(5, () => sample(...pem()));
  add(20, () => {
    const value = secret();
    return r.pick([
      () => sample('password=', ['credential', value]),
      () => sample('DB_PASSWORD=', ['credential', value], '\nDB_HOST=db'),
      () => sample('senha: ', ['credential', value]),
      () => sample('{"api_key": "', ['credential', value], '"}'),
      () => sample("client_secret = '", ['credential', value], "'"),
      () => sample('https://api.example.com/cb?token=', ['credential', value], '&page=2'),
    ])();
  });

  // Invalid numbers: one digit changed, all-same digits, wrong lengths.
  add(30, () => around('cpf', formatCpf(perturb(cpf(), 'last')), false));
  add(5, () => around('cpf', r.pick(['111.111.111-11', '00000000000', '999.999.999-99']), false));
  add(25, () => around('cnpj', formatCnpj(perturb(cnpj(), 'last')), false));
  add(30, () => around('card', formatCard(perturb(card())), false));
  add(20, () => around('iban', formatIban(perturb(iban())), false));

  // Near-misses.
  const nearMisses = [
    () => `Reunião em ${1 + r.int(28)}/0${1 + r.int(9)}/2024 às 1${r.int(10)}:30`,
    () => `Prazo: 2024-0${1 + r.int(9)}-1${r.int(10)}T10:00:00Z`,
    () => `Pedido nº ${r.digits(7)} enviado`,
    () => `Order #${r.digits(10)} shipped`,
    () => `Protocolo ${r.digits(4)}-${r.digits(6)}`,
    () => `NF-e chave ${r.digits(44)}`,
    () => `Versão ${r.int(10)}.${r.int(20)}.${r.int(30)} publicada; build 2024.${r.digits(3)}`,
    () => `IP 192.168.${r.int(255)}.${r.int(255)} na porta 8080`,
    () => `uuid ${crypto.randomUUID()}`,
    () => `commit ${r.chars(40, '0123456789abcdef')}`,
    () => `sha256 ${r.chars(64, '0123456789abcdef')}`,
    () => `CEP 0${r.digits(4)}-${r.digits(3)}`,
    () => `Total: R$ ${r.int(999)}.${r.digits(3)},${r.digits(2)}`,
    () => `Population ${r.int(900) + 100},${r.digits(3)},${r.digits(3)} in 2023`,
    () => 'Instale lodash@4.17.21 e @types/node@20.19.0',
    () => 'Mencione @maria no canal #geral',
    () => 'user at example dot com',
    () => 'A senha: escolha uma difícil e não repita.',
    () => 'Your password: must have at least 8 characters',
    () => 'max_tokens=1000 and temperature=0.2',
    () => 'the risk-assessment-for-the-whole-project document',
    () => 'password=$DB_PASSWORD',
    () => `ISBN 978-85-${r.digits(3)}-${r.digits(4)}-${r.int(10)}`,
    () => `Placa ABC-${r.digits(4)}, RENAVAM ${r.digits(9)}`,
    () => `Pontuação ${r.digits(3)} ${r.digits(3)} ${r.digits(3)}`,
    () => `Matrícula ${r.digits(8)}, turma ${r.digits(3)}`,
    () => `${b64url('{"typ":"JWT"}')}.${b64url('{"sub":"1"}')}.${r.chars(20, B64URL)}`,
    () => `Base64 ${r.chars(60, ALNUM)}==`,
    () => `Código de rastreio BR${r.digits(9)}BR`,
    () => `Coordenadas -23.${r.digits(6)}, -46.${r.digits(6)}`,
  ];
  for (const make of nearMisses) add(4, () => sample(make()));

  // Hard cases, left in so the figures are not flattered: numbers with nothing but their shape to
  // go by. A 16-digit order number with a card prefix passes Luhn one time in ten; an 11-digit
  // protocol number is a Brazilian mobile's shape when its first two digits are an area code and
  // the third is 9, and a CPF one time in a hundred.
  add(20, () => sample(`Pedido ${r.pick(['4', '5'])}${r.digits(15)} confirmado`));
  add(20, () => sample(`Protocolo de atendimento ${1 + r.int(9)}${r.digits(10)}`));

  // Several kinds in one message.
  add(15, () =>
    sample(
      'Cliente Maria Souza, CPF ',
      ['cpf', formatCpf(cpf())],
      ', e-mail ',
      ['email', email()],
      ', tel. ',
      ['phone', phone()],
      '. Empresa ',
      ['cnpj', formatCnpj(cnpj())],
      '; pagar no cartão ',
      ['card', formatCard(card())],
      ' até 15/08/2026.',
    ),
  );
  return samples;
}

function pem(): Part[] {
  const body = Array.from({ length: 3 }, () => r.chars(64, `${ALNUM}+/`)).join('\n');
  const block = `-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----`;
  return ['Chave do servidor:\n', ['credential', block], '\nfim'];
}

// ---- Scoring

interface Score {
  tp: number;
  fp: number;
  fn: number;
}

const same = (a: PiiMatch, b: PiiMatch) => a.kind === b.kind && a.start === b.start && a.end === b.end;
const ratio = (n: number, d: number) => (d === 0 ? 1 : n / d);

function score(samples: Sample[]) {
  const byKind = Object.fromEntries(PiiKinds.map((k) => [k, { tp: 0, fp: 0, fn: 0 }])) as Record<
    PiiKind,
    Score
  >;
  const misses: string[] = [];
  for (const s of samples) {
    const got = findPii(s.text);
    for (const g of got) {
      if (s.expected.some((e) => same(e, g))) byKind[g.kind].tp++;
      else {
        byKind[g.kind].fp++;
        misses.push(
          `FP ${g.kind} ${JSON.stringify(s.text.slice(g.start, g.end))} in ${JSON.stringify(s.text)}`,
        );
      }
    }
    for (const e of s.expected) {
      if (got.some((g) => same(e, g))) continue;
      byKind[e.kind].fn++;
      misses.push(
        `FN ${e.kind} ${JSON.stringify(s.text.slice(e.start, e.end))} in ${JSON.stringify(s.text)}`,
      );
    }
  }
  const total = Object.values(byKind).reduce(
    (t, k) => ({ tp: t.tp + k.tp, fp: t.fp + k.fp, fn: t.fn + k.fn }),
    {
      tp: 0,
      fp: 0,
      fn: 0,
    },
  );
  return { byKind, total, misses };
}

describe('the PII corpus', () => {
  const samples = corpus();
  const { byKind, total, misses } = score(samples);

  it('has a few hundred labelled samples of every kind', () => {
    expect(samples.length).toBeGreaterThan(500);
    for (const kind of PiiKinds) expect(byKind[kind].tp + byKind[kind].fn).toBeGreaterThanOrEqual(20);
  });

  it('is found with precision ≥ 0.95 and recall ≥ 0.9', () => {
    const lines = [...PiiKinds, 'overall' as const].map((kind) => {
      const s = kind === 'overall' ? total : byKind[kind];
      const p = ratio(s.tp, s.tp + s.fp).toFixed(3);
      const rc = ratio(s.tp, s.tp + s.fn).toFixed(3);
      return `${kind.padEnd(10)} precision ${p} recall ${rc} (tp ${s.tp}, fp ${s.fp}, fn ${s.fn})`;
    });
    process.stdout.write(`PII corpus, ${samples.length} samples:\n  ${lines.join('\n  ')}\n`);
    if (misses.length) process.stdout.write(`  ${misses.join('\n  ')}\n`);
    expect(ratio(total.tp, total.tp + total.fp)).toBeGreaterThanOrEqual(0.95);
    expect(ratio(total.tp, total.tp + total.fn)).toBeGreaterThanOrEqual(0.9);
  });
});
