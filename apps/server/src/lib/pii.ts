import { isValidCnpj, type PiiKind, PiiKinds } from '@assistente/contracts';
import { RE2JS } from 're2js';

/**
 * The PII and credential detector of docs/ARCHITECTURE.md#pii-filter: what a person sends is
 * searched for CPFs, CNPJs, cards, IBANs, e-mails, phones, JWTs and credentials, and each match is
 * replaced by its kind (`[CPF]`). Numbers count only when their check digits do (CPF and CNPJ mod 11,
 * cards by Luhn, IBANs mod 97), so an order number or a mistyped CPF is left alone.
 *
 * Everything here is linear in the text: token shapes with a fixed prefix go through one `re2js`
 * pattern (a DFA, no backtracking); numbers, IBANs, e-mails and `password=…` assignments are found
 * by small scanners that look at most a few dozen characters past each place a number or a word
 * starts. (re2js costs about 1 ms per 10 KB for each pattern that may start at any digit, and the
 * budget is 2 ms p99 for all of them.)
 */

export interface PiiMatch {
  kind: PiiKind;
  /** UTF-16 offsets into the text, `end` exclusive. */
  start: number;
  end: number;
}

export interface PiiRedaction {
  text: string;
  /** How many of each kind were replaced; kinds not found are absent. */
  found: Partial<Record<PiiKind, number>>;
}

/** When two matches start at the same place and are as long, the lower rank is kept. */
const RANK: Record<PiiKind, number> = {
  jwt: 0,
  credential: 1,
  card: 2,
  iban: 3,
  cnpj: 4,
  cpf: 5,
  email: 6,
  phone: 7,
};

/** What redaction writes in place of a match: `[CPF]`, `[EMAIL]`, … */
export function piiPlaceholder(kind: PiiKind): string {
  return `[${kind.toUpperCase()}]`;
}

/**
 * The matches of the given kinds in `text`, in order and never overlapping: the leftmost wins,
 * then the longest, then the kind ranked first (jwt, credential, card, iban, cnpj, cpf, email, phone).
 */
export function findPii(text: string, kinds: Iterable<PiiKind> = PiiKinds): PiiMatch[] {
  const want = new Set(kinds);
  const found: PiiMatch[] = [];
  if (want.has('jwt')) findJwts(text, found);
  if (want.has('credential')) findCredentials(text, found);
  if (want.has('email')) findEmails(text, found);
  if (want.has('card') || want.has('iban') || want.has('cnpj') || want.has('cpf') || want.has('phone')) {
    findNumbers(text, want, found);
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end || RANK[a.kind] - RANK[b.kind]);
  const kept: PiiMatch[] = [];
  let end = 0;
  for (const m of found) {
    if (m.start < end) continue;
    kept.push(m);
    end = m.end;
  }
  return kept;
}

/** `text` with each match of the given kinds replaced by its placeholder, and how many of each. */
export function redactPii(text: string, kinds: Iterable<PiiKind> = PiiKinds): PiiRedaction {
  const matches = findPii(text, kinds);
  if (matches.length === 0) return { text, found: {} };
  const found: Partial<Record<PiiKind, number>> = {};
  let out = '';
  let at = 0;
  for (const m of matches) {
    out += text.slice(at, m.start) + piiPlaceholder(m.kind);
    at = m.end;
    found[m.kind] = (found[m.kind] ?? 0) + 1;
  }
  return { text: out + text.slice(at), found };
}

// ---------------------------------------------------------------------------------------------
// Characters

const PLUS = 43;
const COMMA = 44;
const DASH = 45;
const DOT = 46;
const SLASH = 47;
const SPACE = 32;
const LPAREN = 40;
const RPAREN = 41;
const AT = 64;
const UNDERSCORE = 95;

const isDigit = (c: number) => c >= 48 && c <= 57;
const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;
const isAlnum = (c: number) => isDigit(c) || isUpper(c) || isLower(c);
/** Letters, digits and `_`: a match may not begin or end next to one (ASCII only: `nº123…` starts a number). */
const isWord = (c: number) => isAlnum(c) || c === UNDERSCORE;
const isBase64Url = (c: number) => isAlnum(c) || c === DASH || c === UNDERSCORE;
/** Punctuation that joins the parts of one number: `1.234`, `12-34`, `01/02`, `1,5`. */
const isJoiner = (c: number) => c === DOT || c === DASH || c === SLASH || c === COMMA;

/** How many digits follow `i`, counting at most 20 (anything above 19 is too long for every kind). */
function digitRun(text: string, i: number): number {
  let j = i;
  while (j - i < 20 && isDigit(text.charCodeAt(j))) j++;
  return j - i;
}

function digitsAt(text: string, i: number, n: number): boolean {
  for (let k = 0; k < n; k++) if (!isDigit(text.charCodeAt(i + k))) return false;
  return true;
}

/** A number may start at `i`: it does not continue a word, a longer number (`1.2`) or a `+` prefix. */
function numberStartsAt(text: string, i: number): boolean {
  const p = text.charCodeAt(i - 1);
  if (isWord(p) || p === PLUS) return false;
  return !(isJoiner(p) && isDigit(text.charCodeAt(i - 2)));
}

/** A number may end at `j` (exclusive): it is not followed by a word or by more of the same number. */
function numberEndsAt(text: string, j: number): boolean {
  const n = text.charCodeAt(j);
  if (isWord(n)) return false;
  return !(isJoiner(n) && isDigit(text.charCodeAt(j + 1)));
}

// ---------------------------------------------------------------------------------------------
// Numbers: CPF, CNPJ, cards, phones, IBANs

/** One pass over the places where a number (or an IBAN, or an alphanumeric CNPJ) may start. */
function findNumbers(text: string, want: ReadonlySet<PiiKind>, found: PiiMatch[]): void {
  const n = text.length;
  const cpf = want.has('cpf');
  const cnpj = want.has('cnpj');
  const card = want.has('card');
  const phone = want.has('phone');
  const iban = want.has('iban');
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    // Lowercase letters, spaces and everything beyond ASCII start nothing: one comparison each.
    if (c > 90 || c < LPAREN) continue;
    if (isDigit(c)) {
      if (!numberStartsAt(text, i)) continue;
      const run = digitRun(text, i);
      // Each kind looks further only when the first run of digits fits one of its formats.
      if (cpf && (run === 3 || run === 9 || run === 11)) push(found, 'cpf', i, cpfAt(text, i, run));
      if (cnpj && (run === 2 || run >= 12 || isUpper(text.charCodeAt(i + run))))
        push(found, 'cnpj', i, cnpjAt(text, i));
      if (card && (run === 4 || run >= 13)) push(found, 'card', i, cardAt(text, i, run));
      if (phone && PHONE_RUNS.has(run)) push(found, 'phone', i, phoneAt(text, i));
      i += run - 1;
    } else if (isUpper(c)) {
      if (isWord(text.charCodeAt(i - 1))) continue;
      if (iban) push(found, 'iban', i, ibanAt(text, i));
      if (cnpj) push(found, 'cnpj', i, cnpjAt(text, i));
    } else if (c === PLUS || c === LPAREN) {
      if (phone && !isWord(text.charCodeAt(i - 1))) push(found, 'phone', i, phoneAt(text, i));
    }
  }
}

/**
 * The first run of digits of a phone written from its digits: an area code (`11 `), a North
 * American area code or `11 9 …` (3), a local mobile (`91234-`), an area code and the first part
 * (`113456-`, `1191234-`), or a bare mobile (11).
 */
const PHONE_RUNS = new Set([2, 3, 5, 6, 7, 11]);

function push(found: PiiMatch[], kind: PiiKind, start: number, end: number): void {
  if (end > start) found.push({ kind, start, end });
}

/** `123.456.789-09`, `123456789-09` or `12345678909` with valid check digits; the end, or -1. */
function cpfAt(text: string, i: number, run: number): number {
  let end = -1;
  let digits = '';
  if (run === 11) {
    end = i + 11;
    digits = text.slice(i, end);
  } else if (run === 9 && text.charCodeAt(i + 9) === DASH && digitsAt(text, i + 10, 2)) {
    end = i + 12;
    digits = text.slice(i, i + 9) + text.slice(i + 10, end);
  } else if (
    run === 3 &&
    text.charCodeAt(i + 3) === DOT &&
    digitsAt(text, i + 4, 3) &&
    text.charCodeAt(i + 7) === DOT &&
    digitsAt(text, i + 8, 3) &&
    text.charCodeAt(i + 11) === DASH &&
    digitsAt(text, i + 12, 2)
  ) {
    end = i + 14;
    digits =
      text.slice(i, i + 3) + text.slice(i + 4, i + 7) + text.slice(i + 8, i + 11) + text.slice(i + 12, end);
  }
  if (end < 0 || !numberEndsAt(text, end) || !isValidCpf(digits)) return -1;
  return end;
}

/** Eleven digits whose two check digits (mod 11) match; all-same digits pass the sum but are not CPFs. */
export function isValidCpf(digits: string): boolean {
  if (digits.length !== 11) return false;
  let same = true;
  for (let k = 1; k < 11; k++) if (digits[k] !== digits[0]) same = false;
  if (same) return false;
  for (const n of [9, 10]) {
    let sum = 0;
    for (let k = 0; k < n; k++) sum += (digits.charCodeAt(k) - 48) * (n + 1 - k);
    if (((sum * 10) % 11) % 10 !== digits.charCodeAt(n) - 48) return false;
  }
  return true;
}

const isCnpjChar = (c: number) => isDigit(c) || isUpper(c);

/**
 * `12.345.678/0001-95` or 14 bare characters, numeric or alphanumeric (`12.ABC.345/01DE-35`), whose
 * check digits match (contracts' `isValidCnpj`); the end, or -1.
 */
function cnpjAt(text: string, i: number): number {
  let j = i;
  while (j - i < 14 && isCnpjChar(text.charCodeAt(j))) j++;
  let end = -1;
  if (j - i === 14) end = j;
  else if (j - i === 2 && text.charCodeAt(j) === DOT) {
    // Punctuated: the shape is checked by isValidCnpj on the 18 characters.
    end = i + 18;
    if (
      text.charCodeAt(i + 6) !== DOT ||
      text.charCodeAt(i + 10) !== SLASH ||
      text.charCodeAt(i + 15) !== DASH
    ) {
      return -1;
    }
  }
  if (end < 0 || !numberEndsAt(text, end)) return -1;
  return isValidCnpj(text.slice(i, end)) ? end : -1;
}

/**
 * A card number: 13–19 digits bare, or in groups (the first of 4, then 3–6 each) split by single
 * spaces or dashes, with a known issuer prefix of a length that issuer uses and a valid Luhn digit.
 * The longest such run of groups wins; the end, or -1.
 */
function cardAt(text: string, i: number, run: number): number {
  // Four groups out of a longer run of them (an IBAN that failed its check) are not a card.
  if (text.charCodeAt(i - 1) === SPACE && isDigit(text.charCodeAt(i - 2))) return -1;
  if (run >= 13 && run <= 19) {
    const end = i + run;
    const digits = text.slice(i, end);
    return numberEndsAt(text, end) && isCardNumber(digits) ? end : -1;
  }
  if (run !== 4) return -1;
  const sep = text.charCodeAt(i + 4);
  if (sep !== SPACE && sep !== DASH) return -1;
  let digits = text.slice(i, i + 4);
  let j = i + 4;
  const ends: Array<{ end: number; length: number }> = [];
  while (text.charCodeAt(j) === sep) {
    const g = digitRun(text, j + 1);
    if (g < 3 || g > 6 || digits.length + g > 19) break;
    digits += text.slice(j + 1, j + 1 + g);
    j += 1 + g;
    ends.push({ end: j, length: digits.length });
  }
  for (let k = ends.length - 1; k >= 0; k--) {
    const e = ends[k];
    if (!e || e.length < 13) break;
    if (numberEndsAt(text, e.end) && isCardNumber(digits.slice(0, e.length))) return e.end;
  }
  return -1;
}

/** An issuer's prefix with one of its lengths, and a valid Luhn check digit. */
export function isCardNumber(digits: string): boolean {
  const n = digits.length;
  const p2 = Number(digits.slice(0, 2));
  const p3 = Number(digits.slice(0, 3));
  const p4 = Number(digits.slice(0, 4));
  let lengthOk: boolean;
  if (digits[0] === '4')
    lengthOk = n === 13 || n === 16 || n === 19; // Visa, Elo's 4xxx
  else if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720))
    lengthOk = n === 16; // Mastercard
  else if (p2 === 34 || p2 === 37)
    lengthOk = n === 15; // American Express
  else if ((p3 >= 300 && p3 <= 305) || p2 === 36 || p2 === 38 || p2 === 39)
    lengthOk = n >= 14; // Diners, Hipercard 38
  else if (p4 === 6011 || (p3 >= 644 && p3 <= 649) || p2 === 65 || p2 === 62 || (p4 >= 3528 && p4 <= 3589)) {
    lengthOk = n >= 16; // Discover, Elo 65xx, UnionPay and Elo 62xx, JCB
  } else if (
    p4 === 5041 ||
    p4 === 5066 ||
    p4 === 5067 ||
    p3 === 509 ||
    p4 === 6362 ||
    p4 === 6363 ||
    p3 === 606
  ) {
    lengthOk = n === 16 || n === 19; // Elo, Hipercard
  } else lengthOk = false;
  return lengthOk && n >= 13 && n <= 19 && luhn(digits);
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let k = digits.length - 1, double = false; k >= 0; k--, double = !double) {
    let d = digits.charCodeAt(k) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Brazil's area codes (DDD), by number: a two-digit number that is not one does not start a phone. */
const DDD: readonly boolean[] = (() => {
  const valid = Array.from({ length: 100 }, () => false);
  const codes =
    '11 12 13 14 15 16 17 18 19 21 22 24 27 28 31 32 33 34 35 37 38 41 42 43 44 45 46 47 48 49 51 53 54 55 ' +
    '61 62 63 64 65 66 67 68 69 71 73 74 75 77 79 81 82 83 84 85 86 87 88 89 91 92 93 94 95 96 97 98 99';
  for (const code of codes.split(' ')) valid[Number(code)] = true;
  return valid;
})();

/** The two digits at `i` are a Brazilian area code. */
function dddAt(text: string, i: number): boolean {
  return digitsAt(text, i, 2) && DDD[(text.charCodeAt(i) - 48) * 10 + text.charCodeAt(i + 1) - 48] === true;
}

/** A phone may end at `j`: not followed by a word or by more digits, even after a space. */
function phoneEndsAt(text: string, j: number): boolean {
  const n = text.charCodeAt(j);
  if (isWord(n)) return false;
  return !((isJoiner(n) || n === SPACE) && isDigit(text.charCodeAt(j + 1)));
}

/**
 * A phone number starting at `i` (a digit, `+` or `(`); the end, or -1.
 * - Brazilian, with its area code: `+55 (11) 91234-5678`, `(11) 3456-7890`, `11 91234-5678`,
 *   `11912345678` (bare only for mobiles: ten bare digits are more often something else);
 * - a mobile without its area code when written `91234-5678`;
 * - North American `(415) 555-2671`, `415-555-2671`;
 * - any other with its country code, E.164 style: `+44 20 7946 0958`, `+14155552671` (8–15 digits).
 */
function phoneAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (i > 0 && text.charCodeAt(i - 1) === SPACE && isDigit(text.charCodeAt(i - 2))) return -1;
  if (c === PLUS) {
    if (text.startsWith('55', i + 1)) {
      let j = i + 3;
      const s = text.charCodeAt(j);
      if (s === SPACE || s === DASH) j++;
      const end = brazilianAt(text, j, true);
      if (end > 0) return end;
    }
    return internationalAt(text, i);
  }
  if (c === LPAREN && digitsAt(text, i + 1, 3) && text.charCodeAt(i + 4) === RPAREN) {
    return northAmericanAt(text, i + 1, i + 5);
  }
  const br = brazilianAt(text, i, false);
  if (br > 0) return br;
  if (isDigit(c) && digitRun(text, i) === 3 && text.charCodeAt(i + 3) === text.charCodeAt(i + 7)) {
    const s = text.charCodeAt(i + 3);
    if (s === DASH || s === DOT) return northAmericanAt(text, i, i + 4);
  }
  // A mobile without its area code: 9XXXX-XXXX, the dash required.
  if (c === 57 && digitRun(text, i) === 5 && text.charCodeAt(i + 5) === DASH && digitRun(text, i + 6) === 4) {
    return phoneEndsAt(text, i + 10) ? i + 10 : -1;
  }
  return -1;
}

/**
 * A Brazilian number from its area code at `i`: `(11) `, `11 `, `11-` or `11`, then `9XXXX-XXXX`
 * (or `9 XXXX-XXXX`) or `[2-5]XXX-XXXX` (dash or space optional). With no punctuation at all and no `+55`, only a
 * mobile (11 digits with the 9) counts.
 */
function brazilianAt(text: string, i: number, afterCountry: boolean): number {
  let j = i;
  let punctuated = afterCountry;
  if (text.charCodeAt(j) === LPAREN) {
    if (!dddAt(text, j + 1) || text.charCodeAt(j + 3) !== RPAREN) return -1;
    j += 4;
    if (text.charCodeAt(j) === SPACE) j++;
    punctuated = true;
  } else {
    if (!dddAt(text, j)) return -1;
    j += 2;
    const s = text.charCodeAt(j);
    if (s === SPACE || s === DASH) {
      j++;
      punctuated = true;
    }
  }
  const first = text.charCodeAt(j);
  const mobile = first === 57;
  if (mobile) {
    // 9XXXX, also written 9 XXXX or 9.XXXX
    j++;
    const s = text.charCodeAt(j);
    if ((s === SPACE || s === DOT) && digitsAt(text, j + 1, 4)) {
      j++;
      punctuated = true;
    }
    if (!digitsAt(text, j, 4)) return -1;
    j += 4;
  } else if (first >= 50 && first <= 53 && digitsAt(text, j, 4))
    j += 4; // [2-5]XXX landline
  else return -1;
  const s = text.charCodeAt(j);
  if (s === DASH || s === SPACE) {
    j++;
    punctuated = true;
  }
  if (!digitsAt(text, j, 4)) return -1;
  j += 4;
  if (!punctuated && !mobile) return -1;
  return phoneEndsAt(text, j) ? j : -1;
}

/** `415) 555-2671` from the area code's digits at `i`, the exchange at `j` (after `) ` or `-`). */
function northAmericanAt(text: string, i: number, j: number): number {
  const area = text.charCodeAt(i);
  let k = j;
  if (text.charCodeAt(k) === SPACE) k++;
  const exchange = text.charCodeAt(k);
  if (area < 50 || exchange < 50 || digitRun(text, k) !== 3) return -1;
  const s = text.charCodeAt(k + 3);
  if (s !== DASH && s !== DOT && s !== SPACE) return -1;
  if (digitRun(text, k + 4) !== 4) return -1;
  return phoneEndsAt(text, k + 8) ? k + 8 : -1;
}

/** `+` and 8–15 digits in groups split by one or two of ` -.()`; the country code does not start with 0. */
function internationalAt(text: string, i: number): number {
  let j = i + 1;
  if (!isDigit(text.charCodeAt(j)) || text.charCodeAt(j) === 48) return -1;
  let digits = 0;
  let end = -1;
  while (j - i < 32) {
    const c = text.charCodeAt(j);
    if (isDigit(c)) {
      if (++digits > 15) return -1;
      end = ++j;
      continue;
    }
    let k = j;
    while (k - j < 2 && isPhoneSeparator(text.charCodeAt(k))) k++;
    if (k === j || !isDigit(text.charCodeAt(k))) break;
    j = k;
  }
  if (digits < 8 || end < 0) return -1;
  // A closing parenthesis written after the last digit belongs to the prose, not the number.
  return phoneEndsAt(text, end) ? end : -1;
}

const isPhoneSeparator = (c: number) =>
  c === SPACE || c === DASH || c === DOT || c === LPAREN || c === RPAREN;

/** IBAN lengths by country (the SWIFT registry): the check is mod 97, the length is the country's. */
const IBAN_LENGTH = new Map(
  (
    'AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BI27 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DJ27 DK18 DO28 ' +
    'EE20 EG29 ES24 FI18 FK18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 GT28 HN28 HR21 HU28 IE22 IL23 IQ23 IS26 ' +
    'IT27 JO30 KW30 KZ20 LB28 LC32 LI21 LT20 LU20 LV21 LY25 MC27 MD24 ME22 MK19 MN20 MR27 MT31 MU30 NI28 ' +
    'NL18 NO15 OM23 PK24 PL28 PS29 PT25 QA29 RO24 RS22 RU33 SA24 SC31 SD18 SE24 SI19 SK24 SM27 SO23 ST25 ' +
    'SV28 TL23 TN24 TR26 UA29 VA22 VG24 XK20 YE30'
  )
    .split(' ')
    .map((e) => [e.slice(0, 2), Number(e.slice(2))] as const),
);

/**
 * An IBAN at `i`: country, two check digits and the BBAN, bare or in groups of four split by single
 * spaces (`BR15 0000 0000 0000 1093 2840 814P 2`), as long as the country's and valid mod 97.
 */
function ibanAt(text: string, i: number): number {
  if (!isUpper(text.charCodeAt(i + 1)) || !digitsAt(text, i + 2, 2)) return -1;
  const length = IBAN_LENGTH.get(text.slice(i, i + 2));
  if (!length) return -1;
  const spaced = text.charCodeAt(i + 4) === SPACE;
  let iban = text.slice(i, i + 4);
  let j = i + 4;
  while (iban.length < length) {
    if (spaced && iban.length % 4 === 0) {
      if (text.charCodeAt(j) !== SPACE) return -1;
      j++;
    }
    const c = text.charCodeAt(j);
    if (!isDigit(c) && !isUpper(c)) return -1;
    iban += text.charAt(j);
    j++;
  }
  if (isWord(text.charCodeAt(j))) return -1;
  return ibanMod97(iban) === 1 ? j : -1;
}

/** The IBAN's remainder mod 97 once its first four characters move to the end and letters become 10–35. */
export function ibanMod97(iban: string): number {
  let r = 0;
  const s = iban.slice(4) + iban.slice(0, 4);
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    r = isDigit(c) ? (r * 10 + (c - 48)) % 97 : (r * 100 + (c - 55)) % 97;
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// E-mails

const isLocalChar = (c: number) =>
  isAlnum(c) || c === DOT || c === UNDERSCORE || c === DASH || c === PLUS || c === 37; /* % */
const isDomainChar = (c: number) => isAlnum(c) || c === DOT || c === DASH;

/**
 * `local@domain.tld` around each `@`: at most 64 characters before it and 253 after, at least one dot
 * in the domain, no empty or dash-edged label, a top-level label of two or more letters (so
 * `lodash@4.17.21` and `@someone` are not addresses). Each `@` looks no further than the next one.
 */
function findEmails(text: string, found: PiiMatch[]): void {
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    let s = at;
    while (at - s < 64 && isLocalChar(text.charCodeAt(s - 1))) s--;
    if (isLocalChar(text.charCodeAt(s - 1))) continue;
    while (text.charCodeAt(s) === DOT) s++;
    if (s === at || text.charCodeAt(at - 1) === DOT) continue;
    let e = at + 1;
    while (e - at <= 253 && isDomainChar(text.charCodeAt(e))) e++;
    if (isDomainChar(text.charCodeAt(e))) continue;
    while (e > at + 1 && (text.charCodeAt(e - 1) === DOT || text.charCodeAt(e - 1) === DASH)) e--;
    if (text.charCodeAt(e) === AT || !isDomain(text, at + 1, e)) continue;
    found.push({ kind: 'email', start: s, end: e });
  }
}

function isDomain(text: string, from: number, to: number): boolean {
  let labelStart = from;
  let labels = 0;
  for (let k = from; k <= to; k++) {
    if (k < to && text.charCodeAt(k) !== DOT) continue;
    if (k === labelStart || text.charCodeAt(labelStart) === DASH || text.charCodeAt(k - 1) === DASH)
      return false;
    labels++;
    if (k === to) {
      if (k - labelStart < 2) return false;
      for (let t = labelStart; t < k; t++) {
        const c = text.charCodeAt(t);
        if (!isUpper(c) && !isLower(c)) return false;
      }
    }
    labelStart = k + 1;
  }
  return labels >= 2;
}

// ---------------------------------------------------------------------------------------------
// JWTs

/**
 * `header.payload.signature` in base64url where the header (it starts `eyJ`, which is `{"`) decodes
 * to a JSON object with an `alg`. The signature may be empty (`alg: none`).
 */
function findJwts(text: string, found: PiiMatch[]): void {
  let from = 0;
  for (let p = text.indexOf('eyJ'); p !== -1; p = text.indexOf('eyJ', from)) {
    from = p + 3;
    if (isBase64Url(text.charCodeAt(p - 1))) continue;
    const a = base64UrlEnd(text, p);
    from = a;
    if (text.charCodeAt(a) !== DOT) continue;
    const b = base64UrlEnd(text, a + 1);
    if (b - a < 3 || text.charCodeAt(b) !== DOT) continue;
    const c = base64UrlEnd(text, b + 1);
    if (!hasAlg(text.slice(p, a))) continue;
    found.push({ kind: 'jwt', start: p, end: c });
    from = c;
  }
}

function base64UrlEnd(text: string, i: number): number {
  let j = i;
  while (isBase64Url(text.charCodeAt(j))) j++;
  return j;
}

function hasAlg(header: string): boolean {
  if (header.length > 4096) return false;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    return (
      typeof parsed === 'object' && parsed !== null && typeof (parsed as { alg?: unknown }).alg === 'string'
    );
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Credentials

/**
 * Token shapes that say what they are by their prefix: AWS access key ids, GitHub tokens, OpenAI and
 * Anthropic keys, Slack tokens, Google API keys, Stripe secret and restricted keys; with the length
 * of what follows the prefix. One re2js pattern each, led by one literal, so a 10 KB text without
 * them is scanned in microseconds (`(?:AKIA|ASIA)…` alone took 0.1 ms). Kept apart and without
 * counted repetitions (`{36,255}`): joined in one alternation, re2js slowed down with every match
 * (1 s for 250 KB of `ghp_AAAA…` runs, four times as long for twice the text); apart, each stays
 * linear. Lengths are checked in code.
 */
const TOKENS = (
  [
    ['AKIA[A-Z0-9]+', 4, 16, 16],
    ['ASIA[A-Z0-9]+', 4, 16, 16],
    ['ABIA[A-Z0-9]+', 4, 16, 16],
    ['ACCA[A-Z0-9]+', 4, 16, 16],
    ['gh[pousr]_[A-Za-z0-9]+', 4, 36, 255],
    ['github_pat_[A-Za-z0-9_]+', 11, 22, 255],
    ['sk-[A-Za-z0-9_-]+', 3, 20, 255],
    ['xox[abposr]-[A-Za-z0-9-]+', 5, 10, 255],
    ['AIza[0-9A-Za-z_-]+', 4, 35, 35],
    ['[rs]k_(?:live|test)_[0-9A-Za-z]+', 8, 16, 255],
  ] as const
).map(([pattern, prefix, min, max]) => ({ re: RE2JS.compile(pattern), prefix, min, max }));

function findCredentials(text: string, found: PiiMatch[]): void {
  if (text.length === 0) return;
  for (const { re, prefix, min, max } of TOKENS) {
    const m = re.matcher(text);
    while (m.find()) {
      const start = m.start();
      const end = m.end();
      const n = end - start - prefix;
      if (n < min || n > max || isWord(text.charCodeAt(start - 1)) || isWord(text.charCodeAt(end))) continue;
      // `sk-` also starts hyphenated words: a key has letters and digits.
      if (prefix === 3 && !hasLetterAndDigit(text, start + 3, end)) continue;
      found.push({ kind: 'credential', start, end });
    }
  }
  findPrivateKeys(text, found);
  findAssignments(text, found);
  findAuthorizations(text, found);
}

/** `-----BEGIN … PRIVATE KEY-----` (RSA, EC, OPENSSH, ENCRYPTED, PGP … BLOCK) through its END line. */
function findPrivateKeys(text: string, found: PiiMatch[]): void {
  // Where the next `-----END` is (-1: none), kept between BEGIN lines so many of them without an
  // END do not each search to the end of the text.
  let endLine = -2;
  let from = 0;
  for (let p = text.indexOf('-----BEGIN ', from); p !== -1; p = text.indexOf('-----BEGIN ', from)) {
    let k = p + 11;
    while (
      k - p < 60 &&
      (isUpper(text.charCodeAt(k)) || isDigit(text.charCodeAt(k)) || text.charCodeAt(k) === SPACE)
    ) {
      k++;
    }
    from = k;
    const label = text.slice(p + 11, k);
    if (
      !text.startsWith('-----', k) ||
      !(label.endsWith('PRIVATE KEY') || label.endsWith('PRIVATE KEY BLOCK'))
    ) {
      continue;
    }
    const lineEnd = k + 5;
    if (endLine === -2 || (endLine !== -1 && endLine < lineEnd)) endLine = text.indexOf('-----END', lineEnd);
    const end = pemBlockEnd(text, lineEnd, endLine);
    found.push({ kind: 'credential', start: p, end });
    from = end;
  }
}

/**
 * A PEM block from the end of its BEGIN line (`from`) to the end of its END line (at `endLine`) or,
 * when it has none (a key pasted in part), of the base64 lines that follow.
 */
function pemBlockEnd(text: string, from: number, endLine: number): number {
  if (endLine !== -1) {
    const close = text.indexOf('-----', endLine + 8);
    return close === -1 || close - endLine > 80 ? text.length : close + 5;
  }
  let j = from;
  for (;;) {
    let k = j;
    while (text.charCodeAt(k) === 13 || text.charCodeAt(k) === 10) k++;
    const line = k;
    while (isAlnum(text.charCodeAt(k)) || text.charCodeAt(k) === PLUS || text.charCodeAt(k) === SLASH) k++;
    while (text.charCodeAt(k) === 61 /* = */) k++;
    const c = text.charCodeAt(k);
    if (k - line < 16 || !(Number.isNaN(c) || c === 13 || c === 10)) return j;
    j = k;
  }
}

function hasLetterAndDigit(text: string, from: number, to: number): boolean {
  let letter = false;
  let digit = false;
  for (let k = from; k < to && !(letter && digit); k++) {
    const c = text.charCodeAt(k);
    if (isDigit(c)) digit = true;
    else if (isUpper(c) || isLower(c)) letter = true;
  }
  return letter && digit;
}

/** Names whose value is a secret, matched at the end of an identifier (`DB_PASSWORD`, `userPassword`). */
const SECRET_NAMES = [
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'senha',
  'secret',
  'token',
  'apikey',
  'api_key',
  'api-key',
  'accesskey',
  'access_key',
  'privatekey',
  'private_key',
  'credential',
  'credentials',
];

const isNameChar = (c: number) => isAlnum(c) || c === UNDERSCORE || c === DASH || c === DOT;
const isQuote = (c: number) => c === 34 || c === 39 || c === 96;
/** Where an unquoted value stops: whitespace, quotes and the punctuation that ends a value in code or a URL. */
const endsValue = (c: number) =>
  Number.isNaN(c) ||
  c <= SPACE ||
  isQuote(c) ||
  c === COMMA ||
  c === 59 /* ; */ ||
  c === 38 /* & */ ||
  c === 60 /* < */ ||
  c === 62 /* > */ ||
  c === RPAREN ||
  c === 93 /* ] */ ||
  c === 125; /* } */

/**
 * `password=…`, `senha: …`, `"api_key": "…"`, `DB_PASSWORD=…`, `token := …`: the value (not the name)
 * is the match. After a bare `:` the value must look like a secret (six or more characters with a
 * digit, a symbol or mixed case), so prose such as "password: must be long" is left alone.
 */
function findAssignments(text: string, found: PiiMatch[]): void {
  for (let p = text.indexOf(':'); p !== -1; p = text.indexOf(':', p + 1)) p = assignmentAt(text, p, found);
  for (let p = text.indexOf('='); p !== -1; p = text.indexOf('=', p + 1)) p = assignmentAt(text, p, found);
}

/** The value of an assignment whose `:` or `=` is at `p`, if any; where the search goes on from. */
function assignmentAt(text: string, p: number, found: PiiMatch[]): number {
  const op = text.charCodeAt(p);
  // The name before, past up to two spaces and a closing quote.
  let q = p - 1;
  if (op === 61 && text.charCodeAt(q) === 58) q--; // :=
  while (p - q <= 3 && text.charCodeAt(q) === SPACE) q--;
  if (isQuote(text.charCodeAt(q))) q--;
  let s = q;
  while (q - s < 64 && isNameChar(text.charCodeAt(s))) s--;
  if (s === q) return p;
  const name = text.slice(s + 1, q + 1).toLowerCase();
  if (!SECRET_NAMES.some((k) => name.endsWith(k))) return p;
  // The value after, past `>` of `=>` (or `=` of `:=`), up to three spaces and an opening quote.
  let v = p + 1;
  const colon = op === 58 && text.charCodeAt(v) !== 61;
  if (text.charCodeAt(v) === 61 || text.charCodeAt(v) === 62) v++;
  const before = v;
  while (v - before < 3 && (text.charCodeAt(v) === SPACE || text.charCodeAt(v) === 9)) v++;
  const quote = text.charCodeAt(v);
  let start = v;
  let end = v;
  if (isQuote(quote)) {
    start = end = v + 1;
    while (
      end - start < 256 &&
      end < text.length &&
      text.charCodeAt(end) !== quote &&
      text.charCodeAt(end) !== 10
    ) {
      end++;
    }
    if (text.charCodeAt(end) !== quote || end - start < 3) return p;
  } else {
    while (end - start < 256 && !endsValue(text.charCodeAt(end))) end++;
    if (text.charCodeAt(end - 1) === DOT) end--;
    if (end - start < 3 || (colon && !looksSecret(text, start, end))) return p;
  }
  if (isPlaceholder(text, start, end)) return p;
  found.push({ kind: 'credential', start, end });
  return end;
}

/** Six or more characters with a digit, a symbol, or both cases: `hunter22`, `S3nha!`, not `remember`. */
function looksSecret(text: string, from: number, to: number): boolean {
  if (to - from < 6) return false;
  let lower = false;
  let upper = false;
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    if (isLower(c)) lower = true;
    else if (isUpper(c)) upper = true;
    else return true;
  }
  return lower && upper;
}

/** Values that stand for a secret rather than being one: `${DB_PASSWORD}`, `<token>`, `***`, `[CREDENTIAL]`, `null`. */
function isPlaceholder(text: string, from: number, to: number): boolean {
  const c = text.charCodeAt(from);
  if (c === 36 /* $ */ || c === 123 /* { */ || c === 60 /* < */ || c === 42 /* * */ || c === 91 /* [ */)
    return true;
  const v = text.slice(from, to).toLowerCase();
  return v === 'null' || v === 'none' || v === 'true' || v === 'false' || v === 'undefined';
}

/** `Bearer …` and `Basic …` (an Authorization header): 16 or more token characters with a digit. */
function findAuthorizations(text: string, found: PiiMatch[]): void {
  for (const scheme of ['Bearer ', 'bearer ', 'BEARER ', 'Basic ', 'basic ']) {
    for (let p = text.indexOf(scheme); p !== -1; p = text.indexOf(scheme, p + 1)) {
      if (isWord(text.charCodeAt(p - 1))) continue;
      const start = p + scheme.length;
      let end = start;
      while (end - start < 4096 && isTokenChar(text.charCodeAt(end))) end++;
      if (end - start < 16 || isWord(text.charCodeAt(end)) || !hasLetterAndDigit(text, start, end)) continue;
      found.push({ kind: 'credential', start, end });
    }
  }
}

const isTokenChar = (c: number) =>
  isBase64Url(c) || c === DOT || c === 126 /* ~ */ || c === PLUS || c === SLASH || c === 61; /* = */
