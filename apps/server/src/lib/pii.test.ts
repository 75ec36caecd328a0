import { PiiKinds, PiiSettingsSchema } from '@assistente/contracts';
import { describe, expect, it } from 'vitest';
import { findPii, ibanMod97, isCardNumber, isValidCpf, redactPii } from './pii.ts';

/** The text with every kind redacted. */
const redact = (text: string) => redactPii(text).text;

describe('CPF', () => {
  it.each(['CPF 529.982.247-25 do cliente', 'CPF 52998224725 do cliente', 'CPF 529982247-25 do cliente'])(
    'redacts a CPF whose check digits match: %s',
    (text) => {
      expect(redact(text)).toBe('CPF [CPF] do cliente');
    },
  );

  it.each(['529.982.247-24', '52998224726', '111.111.111-11', '00000000000', '529.982.247-2'])(
    'leaves %s alone (wrong check digits, all the same or short)',
    (cpf) => {
      expect(redact(`CPF ${cpf} do cliente`)).toBe(`CPF ${cpf} do cliente`);
    },
  );

  it('does not take a CPF out of a longer number or a word', () => {
    for (const text of [
      '1529.982.247-25',
      '529.982.247-251',
      'x52998224725',
      '52998224725x',
      '1.529.982.247-25',
    ]) {
      expect(findPii(text, ['cpf'])).toEqual([]);
    }
  });

  it('checks both digits, mod 11', () => {
    expect(isValidCpf('52998224725')).toBe(true);
    expect(isValidCpf('12345678909')).toBe(true);
    expect(isValidCpf('12345678919')).toBe(false);
    expect(isValidCpf('12345678900')).toBe(false);
  });
});

describe('CNPJ', () => {
  it.each(['11.222.333/0001-81', '11222333000181', '12.ABC.345/01DE-35', '12ABC34501DE35'])(
    'redacts %s (numeric or alphanumeric, with or without punctuation)',
    (cnpj) => {
      expect(redact(`Empresa ${cnpj}, filial`)).toBe('Empresa [CNPJ], filial');
    },
  );

  it.each([
    '11.222.333/0001-82',
    '11222333000180',
    '12.ABC.345/01DE-36',
    '11.111.111/1111-11',
    '11.222.333/0001',
  ])('leaves %s alone', (cnpj) => {
    expect(redact(`Empresa ${cnpj}, filial`)).toBe(`Empresa ${cnpj}, filial`);
  });
});

describe('cards', () => {
  it.each([
    ['Visa', '4111 1111 1111 1111'],
    ['Visa, dashes', '4111-1111-1111-1111'],
    ['Visa, bare', '4111111111111111'],
    ['Mastercard', '5555 5555 5555 4444'],
    ['Mastercard 2-series', '2223 0031 2200 3222'],
    ['American Express', '3782 822463 10005'],
    ['Discover', '6011 1111 1111 1117'],
    ['JCB', '3530 1113 3330 0000'],
    ['Diners', '3056 930902 5904'],
    ['Elo', '6362 9700 0045 7013'],
    ['Hipercard', '6062 8256 2425 4001'],
  ])('redacts a %s number', (_brand, card) => {
    expect(redact(`cartão ${card} validade 12/29`)).toBe('cartão [CARD] validade 12/29');
  });

  it.each([
    ['a failed Luhn digit', '4111 1111 1111 1112'],
    ['an unknown issuer', '9111 1111 1111 1111'],
    ['a length the issuer does not use', '5555 5555 5555 44444'],
    ['mixed separators', '4111 1111-1111 1111'],
    ['groups of two', '41 11 11 11 11 11 11 11'],
  ])('leaves a number with %s alone', (_why, card) => {
    expect(findPii(`cartão ${card}`, ['card'])).toEqual([]);
  });

  it('knows issuers by prefix and length', () => {
    expect(isCardNumber('4222222222222')).toBe(true); // Visa, 13 digits
    expect(isCardNumber('378282246310005')).toBe(true);
    expect(isCardNumber('3782822463100050')).toBe(false); // Amex is 15
    expect(isCardNumber('5105105105105100')).toBe(true);
  });
});

describe('IBAN', () => {
  it.each([
    'DE89 3704 0044 0532 0130 00',
    'DE89370400440532013000',
    'GB82 WEST 1234 5698 7654 32',
    'FR14 2004 1010 0505 0001 3M02 606',
    'BR18 0036 0305 0000 1000 9795 493C 1',
    'BR1800360305000010009795493C1',
  ])('redacts %s', (iban) => {
    expect(redact(`IBAN: ${iban}. Obrigado`)).toBe('IBAN: [IBAN]. Obrigado');
  });

  it.each([
    'DE89 3704 0044 0532 0130 01',
    'DE8937040044053201300',
    'XX89370400440532013000',
    'DE89 37040044 0532 0130 00',
  ])('leaves %s alone (check, length, country or grouping)', (iban) => {
    expect(findPii(`IBAN: ${iban}.`, ['iban'])).toEqual([]);
  });

  it('computes mod 97 with letters as 10–35', () => {
    expect(ibanMod97('GB82WEST12345698765432')).toBe(1);
  });
});

describe('e-mail', () => {
  it.each(['maria@example.com', 'joao.silva+nf@empresa.com.br', 'First.Last_1@sub.domain-x.org'])(
    'redacts %s',
    (email) => {
      expect(redact(`Escreva para ${email}.`)).toBe('Escreva para [EMAIL].');
    },
  );

  it.each([
    'lodash@4.17.21',
    '@maria',
    'maria@localhost',
    'maria@ex..com',
    'maria@-ex.com',
    'maria @ example.com',
  ])('leaves %s alone', (text) => {
    expect(findPii(`veja ${text} aqui`, ['email'])).toEqual([]);
  });
});

describe('phones', () => {
  it.each([
    '+55 (11) 91234-5678',
    '+55 11 91234-5678',
    '+5511912345678',
    '(11) 91234-5678',
    '(11) 3456-7890',
    '(11)3456-7890',
    '11 91234-5678',
    '11 3456-7890',
    '11912345678',
    '91234-5678',
    '+1 (415) 555-2671',
    '+14155552671',
    '(415) 555-2671',
    '415-555-2671',
    '+44 20 7946 0958',
    '+351 912 345 678',
  ])('redacts %s', (phone) => {
    expect(redact(`Ligue ${phone} amanhã`)).toBe('Ligue [PHONE] amanhã');
  });

  it.each([
    ['a date', '15/03/2024'],
    ['an ISO date', '2024-03-15'],
    ['a year range', '2019-2020'],
    ['a time', '10:30'],
    ['an order number', 'pedido 4821937'],
    ['a ten-digit order number', 'pedido 1134567890'],
    ['a CEP', '01310-100'],
    ['a version', 'v2.10.0'],
    ['money', 'R$ 1.234.567,89'],
    ['an area code that does not exist', '(10) 3456-7890'],
    ['a short number after a plus', '+3 pontos'],
    ['a number among others', 'lote 2024 11 91234-5678'],
  ])('leaves %s alone', (_what, text) => {
    expect(findPii(text, ['phone'])).toEqual([]);
  });
});

describe('JWT', () => {
  const jwt =
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';

  it('redacts a JWT, also after Bearer', () => {
    expect(redact(`token ${jwt} fim`)).toBe('token [JWT] fim');
    expect(redact(`Authorization: Bearer ${jwt}`)).toBe('Authorization: Bearer [JWT]');
  });

  it('redacts an unsigned one (alg none, empty signature)', () => {
    const header = Buffer.from('{"alg":"none"}').toString('base64url');
    expect(redact(`t=${header}.eyJzdWIiOiIxIn0. ok`)).toContain('[JWT]');
  });

  it('needs a header that decodes to JSON with an alg', () => {
    const noAlg = `${Buffer.from('{"typ":"JWT"}').toString('base64url')}.eyJzdWIiOiIxIn0.abc`;
    expect(findPii(noAlg, ['jwt'])).toEqual([]);
    expect(findPii('eyJub3QganNvbg.eyJzdWIiOiIxIn0.abc', ['jwt'])).toEqual([]);
    expect(findPii(`x${jwt}`, ['jwt'])).toEqual([]);
  });
});

describe('credentials', () => {
  it.each([
    ['an AWS access key id', 'AKIAIOSFODNN7EXAMPLE'],
    ['a GitHub token', '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'],
    [
      'a fine-grained GitHub token',
      'github_pat_11ABCDEFG0abcdefghijkl_mnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTU',
    ],
    ['an OpenAI key', 'sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z'],
    ['an Anthropic key', 'sk-ant-api03-abcDEF123456ghiJKL789012mnoPQR'],
    ['a Slack token', 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx'],
    ['a Google API key', 'AIzaSyD-1234567890abcdefghijklmnopqrstu'],
    ['a Stripe secret key', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc'],
    ['a Stripe restricted key', 'rk_live_51H8xYzAbCdEfGhIjKlMnOpQr'],
  ])('redacts %s', (_what, token) => {
    expect(redact(`chave: ${token} (não compartilhe)`)).toBe('chave: [CREDENTIAL] (não compartilhe)');
  });

  it('redacts a whole PEM private key block', () => {
    const pem =
      '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo\n-----END RSA PRIVATE KEY-----';
    expect(redact(`Aqui:\n${pem}\nfim`)).toBe('Aqui:\n[CREDENTIAL]\nfim');
    expect(
      redact('-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n\nfim'),
    ).toBe('[CREDENTIAL]\n\nfim');
  });

  it.each([
    ['password=hunter22', 'password=[CREDENTIAL]'],
    ['DB_PASSWORD=s3cr3t', 'DB_PASSWORD=[CREDENTIAL]'],
    ['senha: Abc@1234', 'senha: [CREDENTIAL]'],
    ['"api_key": "xyz123abc"', '"api_key": "[CREDENTIAL]"'],
    ["secret = 'correct horse'", "secret = '[CREDENTIAL]'"],
    ['https://x.test/cb?token=abc123&page=2', 'https://x.test/cb?token=[CREDENTIAL]&page=2'],
    ['client_secret: 8f9a7b6c5d', 'client_secret: [CREDENTIAL]'],
    ['Authorization: Bearer abcdef0123456789abcdef', 'Authorization: Bearer [CREDENTIAL]'],
  ])('redacts the value of %s', (text, redacted) => {
    expect(redact(text)).toBe(redacted);
  });

  it.each([
    'password: must be at least 8 characters long',
    'A senha: escolha uma difícil',
    'password=$DB_PASSWORD',
    'token: null',
    'max_tokens=1000',
    'the task-force-2024-planning-document',
    'AKIA is how AWS key ids start',
    'basic understanding of the problem',
  ])('leaves %s alone', (text) => {
    expect(findPii(text, ['credential'])).toEqual([]);
  });
});

describe('redactPii', () => {
  const text =
    'Cliente Maria (maria@example.com, +55 11 91234-5678), CPF 529.982.247-25, empresa 11.222.333/0001-81, ' +
    'cartão 4111 1111 1111 1111, IBAN DE89370400440532013000, chave AKIAIOSFODNN7EXAMPLE, ' +
    'jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln.';

  it('replaces each kind with its placeholder and counts them', () => {
    expect(redactPii(text)).toEqual({
      text:
        'Cliente Maria ([EMAIL], [PHONE]), CPF [CPF], empresa [CNPJ], ' +
        'cartão [CARD], IBAN [IBAN], chave [CREDENTIAL], jwt [JWT].',
      found: { email: 1, phone: 1, cpf: 1, cnpj: 1, card: 1, iban: 1, credential: 1, jwt: 1 },
    });
  });

  it('looks only for the kinds asked', () => {
    expect(redactPii(text, ['cpf', 'email'])).toEqual({
      text: text.replace('maria@example.com', '[EMAIL]').replace('529.982.247-25', '[CPF]'),
      found: { cpf: 1, email: 1 },
    });
    expect(redactPii(text, [])).toEqual({ text, found: {} });
  });

  it('leaves redacted text as it is when run again', () => {
    const once = redact(text);
    expect(redact(once)).toBe(once);
  });

  it('keeps the leftmost, then the longest, then the higher-ranked kind', () => {
    // A CPF-shaped local part belongs to the longer e-mail.
    expect(redact('52998224725@example.com')).toBe('[EMAIL]');
    // The same span as credential and as CPF: the credential is ranked first.
    expect(findPii('password=52998224725')).toEqual([{ kind: 'credential', start: 9, end: 20 }]);
    // A valid CPF that is also a Brazilian mobile's shape is a CPF.
    expect(findPii('11987654321', ['cpf', 'phone']).map((m) => m.kind)).toEqual(
      isValidCpf('11987654321') ? ['cpf'] : ['phone'],
    );
  });

  it('gives offsets in UTF-16 units, also after astral characters', () => {
    const s = '😀 olá AKIAIOSFODNN7EXAMPLE e maria@example.com';
    for (const m of findPii(s))
      expect(['AKIAIOSFODNN7EXAMPLE', 'maria@example.com']).toContain(s.slice(m.start, m.end));
  });

  it('takes linear time on hostile input', () => {
    const hostile = ['@'.repeat(100_000), 'a.'.repeat(50_000), '1 '.repeat(50_000), 'eyJ'.repeat(30_000)];
    hostile.push('password='.repeat(10_000), 'password="'.repeat(10_000), ':'.repeat(100_000));
    hostile.push(
      '-----BEGIN PRIVATE KEY-----'.repeat(4_000),
      `ghp_${'A'.repeat(300)} `.repeat(400),
      'AKIA'.repeat(25_000),
    );
    hostile.push('4111 '.repeat(20_000), '(11) '.repeat(20_000), '+'.repeat(100_000), 'BR15 '.repeat(20_000));
    for (const s of hostile) {
      const t0 = performance.now();
      findPii(s);
      expect(performance.now() - t0).toBeLessThan(1_000);
    }
  });
});

describe('PiiSettingsSchema', () => {
  it('accepts a mode and a non-empty set of kinds', () => {
    expect(PiiSettingsSchema.parse({ mode: 'redact', kinds: [...PiiKinds] }).kinds).toHaveLength(8);
    expect(PiiSettingsSchema.safeParse({ mode: 'block', kinds: ['cpf'] }).success).toBe(true);
  });

  it.each([
    { mode: 'redact', kinds: [] },
    { mode: 'redact', kinds: ['cpf', 'cpf'] },
    { mode: 'redact', kinds: ['ssn'] },
    { mode: 'mask', kinds: ['cpf'] },
    { mode: 'off', kinds: ['cpf'], extra: true },
  ])('refuses %j', (value) => {
    expect(PiiSettingsSchema.safeParse(value).success).toBe(false);
  });
});
