/**
 * The secret detector: secretlint's recommended preset plus our rules, mapped to the catalog.
 *
 * Every secret below is fake and built at run time (prefix + generated characters with the right shape,
 * or a key pair generated on the spot), so this file holds no literal that looks like a live secret.
 */
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { generateToken } from '../../../src/auth/tokens';
import { detectSecrets, SECRET_TYPES, secretTypeBySlug, type DetectedSecret } from '../../../src/services/secret-scanning/detector';
import { providerSlugOf } from '../../../src/services/secret-scanning/detector/catalog';
import { PRESET_MESSAGE_TYPES } from '../../../src/services/secret-scanning/detector/classify';
import { engineKind, engineRules, FILTER_COMMENTS_RULE } from '../../../src/services/secret-scanning/detector/engine';
import { OWN_RULES } from '../../../src/services/secret-scanning/detector/rules';

// ------------------------------------------------------------------ fake secrets

/** Deterministic generator (mulberry32), so a failure reproduces. */
function generator(seed: number): (alphabet: string, n: number) => string {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return (alphabet, n) => Array.from({ length: n }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
}
const gen = generator(20261122);
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
const ALNUM = UPPER + UPPER.toLowerCase() + DIGITS;
const HEX = '0123456789abcdef';
const B64 = ALNUM + '+/';

const fake = {
  awsAccessKeyId: () => 'AK' + 'IA' + gen(UPPER + '234567', 16),
  awsSecretAccessKey: () => gen(B64, 40),
  githubPat: () => 'gh' + 'p_' + gen(ALNUM, 36),
  githubFineGrainedPat: () => 'github' + '_pat_' + gen(ALNUM, 22) + '_' + gen(ALNUM, 59),
  slackBotToken: () => ['xo' + 'xb', gen(DIGITS, 12), gen(DIGITS, 13), gen(ALNUM, 24)].join('-'),
  slackWebhook: () => 'https://hooks.slack.com/' + 'services/T' + gen(UPPER + DIGITS, 8) + '/B' + gen(UPPER + DIGITS, 10) + '/' + gen(ALNUM, 24),
  stripeLive: () => 'sk' + '_live_' + gen(ALNUM, 99),
  stripeTest: () => 'sk' + '_test_' + gen(ALNUM, 99),
  npm: () => 'np' + 'm_' + gen(ALNUM, 36),
  sendgrid: () => 'S' + 'G.' + gen(ALNUM + '_', 22) + '.' + gen(ALNUM + '_', 43),
  googleApiKey: () => 'AI' + 'za' + gen(ALNUM + '_-', 35),
  openai: () => 'sk-' + 'proj-' + gen(ALNUM + '_-', 74) + 'T3Blbk' + 'FJ' + gen(ALNUM + '_-', 74),
  anthropic: () => 'sk-' + 'ant-api03-' + gen(ALNUM + '_-', 93) + 'AA',
  gitlab: () => 'gl' + 'pat-' + gen(ALNUM, 20),
  twilio: () => 'S' + 'K' + gen(HEX, 32),
  mailchimp: () => gen(HEX, 32) + '-us' + '21',
  postgresPassword: () => gen(ALNUM, 20),
  gateway: () => generateToken('classic'),
};

function rsaPem(): string {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
}
function ecPem(): string {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'sec1', format: 'pem' }).toString();
}
function ed25519Pem(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}
function wrap64(s: string): string {
  return s.replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
}
function opensshPem(): string {
  // "b3BlbnNzaC1rZXktdjE" is base64 of the OpenSSH key magic "openssh-key-v1"
  return `-----BEGIN OPENSSH PRIVATE KEY-----\n${wrap64('b3BlbnNzaC1rZXktdjEA' + randomBytes(300).toString('base64'))}\n-----END OPENSSH PRIVATE KEY-----\n`;
}
function pgpBlock(): string {
  return `-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n${wrap64('lQOYBF' + randomBytes(420).toString('base64'))}\n=${gen(ALNUM, 4)}\n-----END PGP PRIVATE KEY BLOCK-----\n`;
}

// ------------------------------------------------------------------ helpers

const reportedTypes = new Set<string>();

async function scan(content: string, filePath?: string): Promise<DetectedSecret[]> {
  const found = await detectSecrets(content, { path: filePath });
  for (const f of found) reportedTypes.add(f.secretType);
  return found;
}

/** A one-line secret at (line, column). */
function at(secretType: string, secret: string, line: number, column: number): DetectedSecret {
  return { secretType, secret, startLine: line, endLine: line, startColumn: column, endColumn: column + secret.length - 1, isBase64Encoded: false };
}

function lines(...ls: string[]): string {
  return ls.join('\n') + '\n';
}

// ------------------------------------------------------------------ tests

describe('secret detector', () => {
  it('finds every secret of a .env file, with exact types, text and positions', async () => {
    const akid = fake.awsAccessKeyId();
    const sak = fake.awsSecretAccessKey();
    const ghp = fake.githubPat();
    const live = fake.stripeLive();
    const hook = fake.slackWebhook();
    const db = `postgres://app:${fake.postgresPassword()}@db.internal:5432/app`;
    const content = lines(
      '# production settings, do not commit', // 1
      'NODE_ENV=production', // 2
      'PORT=8080', // 3
      `AWS_ACCESS_KEY_ID=${akid}`, // 4
      `AWS_SECRET_ACCESS_KEY=${sak}`, // 5
      `GITHUB_TOKEN=${ghp}`, // 6
      `STRIPE_SECRET_KEY=${live}`, // 7
      `SLACK_WEBHOOK_URL=${hook}`, // 8
      `DATABASE_URL=${db}`, // 9
    );
    expect(await scan(content, 'services/api/.env')).toEqual([
      at('aws_access_key_id', akid, 4, 19),
      at('aws_secret_access_key', sak, 5, 23),
      at('github_personal_access_token', ghp, 6, 14),
      at('stripe_api_key', live, 7, 19),
      at('slack_incoming_webhook_url', hook, 8, 19),
      at('postgres_connection_string', db, 9, 14),
    ]);
  });

  it('finds secrets in a JS config file, quoted and inside expressions', async () => {
    const xoxb = fake.slackBotToken();
    const sg = fake.sendgrid();
    const gkey = fake.googleApiKey();
    const npm = fake.npm();
    const oai = fake.openai();
    const test = fake.stripeTest();
    const content = lines(
      "'use strict';", // 1
      '', // 2
      'module.exports = {', // 3
      `  slack: { token: '${xoxb}' },`, // 4
      `  sendgrid: { apiKey: "${sg}" },`, // 5
      `  google: { mapsKey: \`${gkey}\` },`, // 6
      `  npmToken: '${npm}',`, // 7
      `  openai: { apiKey: process.env.OPENAI_API_KEY || '${oai}' },`, // 8
      `  stripe: { secretKey: '${test}', webhookPath: '/hooks/stripe' },`, // 9
      '};', // 10
    );
    expect(await scan(content, 'config/production.js')).toEqual([
      at('slack_api_token', xoxb, 4, 20),
      at('sendgrid_api_key', sg, 5, 24),
      at('google_api_key', gkey, 6, 23),
      at('npm_access_token', npm, 7, 14),
      at('openai_api_key', oai, 8, 52),
      at('stripe_test_secret_key', test, 9, 25),
    ]);
  });

  it('finds secrets in a YAML manifest, including our own gateway tokens', async () => {
    const pat = fake.githubFineGrainedPat();
    const glpat = fake.gitlab();
    const ant = fake.anthropic();
    const tw = fake.twilio();
    const mc = fake.mailchimp();
    const gw = fake.gateway();
    const sak = fake.awsSecretAccessKey();
    const content = lines(
      'apiVersion: v1', // 1
      'kind: Secret', // 2
      'metadata:', // 3
      '  name: app-secrets', // 4
      'type: Opaque', // 5
      'stringData:', // 6
      `  github-token: ${pat}`, // 7
      `  gitlab-token: "${glpat}"`, // 8
      `  anthropic-key: ${ant}`, // 9
      `  twilio-key: ${tw}`, // 10
      `  mailchimp-key: '${mc}'`, // 11
      `  gateway-token: ${gw}`, // 12
      `  aws_secret_access_key: "${sak}"`, // 13
    );
    expect(await scan(content, 'deploy/k8s/secrets.yaml')).toEqual([
      at('github_personal_access_token', pat, 7, 17),
      at('gitlab_access_token', glpat, 8, 18),
      at('anthropic_api_key', ant, 9, 18),
      at('twilio_api_key', tw, 10, 15),
      at('mailchimp_api_key', mc, 11, 19),
      at('gateway_personal_access_token', gw, 12, 18),
      at('aws_secret_access_key', sak, 13, 27),
    ]);
  });

  it('reports a PEM private key file as one multi-line secret', async () => {
    const pem = rsaPem();
    const pemLines = pem.trimEnd().split('\n');
    expect(await scan(pem, 'deploy/id_rsa.pem')).toEqual([
      {
        secretType: 'rsa_private_key',
        secret: pem.trimEnd(),
        startLine: 1,
        endLine: pemLines.length,
        startColumn: 1,
        endColumn: '-----END RSA PRIVATE KEY-----'.length,
        isBase64Encoded: false,
      },
    ]);
    expect(pemLines.length).toBeGreaterThan(20);
  });

  it('tells private key kinds apart, including the short and armored ones the preset misses', async () => {
    const keys = [ecPem(), ed25519Pem(), opensshPem(), pgpBlock()];
    const content = ['# keys for the staging hosts\n', ...keys].join('');
    const found = await scan(content, 'ops/keys.txt');
    expect(found.map((f) => f.secretType)).toEqual(['ec_private_key', 'generic_private_key', 'openssh_private_key', 'pgp_private_key']);
    expect(found.map((f) => f.secret)).toEqual(keys.map((k) => k.trimEnd()));
    let line = 2;
    for (const [i, f] of found.entries()) {
      const n = keys[i].trimEnd().split('\n').length;
      expect([f.startLine, f.startColumn, f.endLine]).toEqual([line, 1, line + n - 1]);
      line += n;
    }
  });

  it('reports a secret on line 3 at column 10', async () => {
    const ghp = fake.githubPat();
    const content = `first line\nsecond line\nconst t=\"${ghp}\";\n`;
    expect(await scan(content)).toEqual([at('github_personal_access_token', ghp, 3, 10)]);
  });

  it('returns [] for a file with no secrets', async () => {
    const content = lines(
      '# Deploying the gateway',
      '',
      'Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment, never in a file. The token',
      'looks like `ghp_...` or `github_pat_...`; keep it in the secret store.',
      '',
      '```js',
      "const key = process.env.STRIPE_SECRET_KEY; // sk_live_... in production, sk_test_... elsewhere",
      "const db = process.env.DATABASE_URL ?? 'postgres://localhost:5432/app';",
      "const hash = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';",
      "const uuid = '123e4567-e89b-12d3-a456-426614174000';",
      '```',
      '',
      '-----BEGIN RSA PRIVATE KEY-----',
      '...your key here...',
      '-----END RSA PRIVATE KEY-----',
    );
    expect(await scan(content, 'docs/deploy.md')).toEqual([]);
    expect(await scan('')).toEqual([]);
    expect(await scan('\n\n   \n')).toEqual([]);
  });

  it('keeps several secrets of one line apart, sorted by position', async () => {
    const a = fake.githubPat();
    const b = fake.npm();
    const c = fake.githubPat();
    const found = await scan(`tokens = ["${a}", "${b}", "${c}"]\n`);
    expect(found).toEqual([
      at('github_personal_access_token', a, 1, 12),
      at('npm_access_token', b, 1, 12 + a.length + 4),
      at('github_personal_access_token', c, 1, 12 + a.length + 4 + b.length + 4),
    ]);
  });

  it('reports a secret found by two rules once, and the same secret at two places twice', async () => {
    const npm = fake.npm();
    // .npmrc: both the npm-token rule and the _authToken rule match; quotes are not part of the secret
    const npmrc = `registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken="${npm}"\n`;
    expect(await scan(npmrc, '.npmrc')).toEqual([at('npm_access_token', npm, 2, 35)]);
    const twice = `${npm}\n${npm}\n`;
    expect(await scan(twice)).toEqual([at('npm_access_token', npm, 1, 1), at('npm_access_token', npm, 2, 1)]);
  });

  it('keeps every secret of a file with hundreds of them', async () => {
    const tokens = Array.from({ length: 600 }, () => fake.githubPat());
    const content = tokens.map((t, i) => `token_${String(i).padStart(3, '0')}: ${t}`).join('\n') + '\n';
    const found = await scan(content, 'leaked.yml');
    expect(found).toEqual(tokens.map((t, i) => at('github_personal_access_token', t, i + 1, 12)));
  });

  it('does not count a BOM and keeps a CR out of the secret (CRLF files)', async () => {
    const ghp = fake.githubPat();
    const found = await scan(`\ufeffA=1\r\nTOKEN=${ghp}\r\nB=2\r\n`);
    expect(found).toEqual([at('github_personal_access_token', ghp, 2, 7)]);
  });

  it('avoids false positives: AWS IDs that are not keys, look-alike gateway tokens, placeholders', async () => {
    const gw = fake.gateway();
    const broken = gw.slice(0, 10) + (gw[10] === 'x' ? 'y' : 'x') + gw.slice(11);
    const content = lines(
      `role_id: AR${'OA'}${gen(UPPER + DIGITS, 16)}`,
      `user_id: AI${'DA'}${gen(UPPER + DIGITS, 16)}`,
      `token: ${broken}`,
      `password: ${'x'.repeat(20)}`,
      'url: https://user:password@example.com/',
    );
    expect(await scan(content, 'fixtures.yml')).toEqual([]);
  });

  it('does not let a secretlint-disable comment hide a secret', async () => {
    const ghp = fake.githubPat();
    const content = `// secretlint-disable-next-line\nconst token = '${ghp}';\n/* secretlint-disable */\nconst again = '${ghp}';\n`;
    expect(await scan(content, 'src/client.js')).toEqual([at('github_personal_access_token', ghp, 2, 16), at('github_personal_access_token', ghp, 4, 16)]);
  });

  it('finds 3 secrets in 1 MB of text', async () => {
    const para =
      'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. ' +
      'const value = compute(items.map((item) => item.price * 1.21), { currency: "EUR" });\n';
    const chunk = para.repeat(Math.ceil(350_000 / para.length));
    const a = fake.awsAccessKeyId();
    const b = fake.githubPat();
    const c = fake.stripeLive();
    const content = `${chunk}key: ${a}\n${chunk}token: ${b}\n${chunk}stripe: ${c}\n`;
    expect(content.length).toBeGreaterThan(1_000_000);
    const found = await scan(content, 'data/dump.txt');
    expect(found.map((f) => [f.secretType, f.secret])).toEqual([
      ['aws_access_key_id', a],
      ['github_personal_access_token', b],
      ['stripe_api_key', c],
    ]);
    const chunkLines = chunk.split('\n').length - 1;
    expect(found.map((f) => f.startLine)).toEqual([chunkLines + 1, 2 * chunkLines + 2, 3 * chunkLines + 3]);
  });

  describe('catalog', () => {
    it('has unique, lowercase_underscore slugs and provider slugs', () => {
      const slug = /^[a-z0-9]+(?:_[a-z0-9]+)*$/;
      expect(SECRET_TYPES.length).toBeGreaterThanOrEqual(12);
      expect(new Set(SECRET_TYPES.map((t) => t.slug)).size).toBe(SECRET_TYPES.length);
      for (const t of SECRET_TYPES) {
        expect(Object.keys(t).sort()).toEqual(['displayName', 'provider', 'providerSlug', 'slug']);
        expect(t.slug).toMatch(slug);
        expect(t.providerSlug).toMatch(slug);
        expect(t.providerSlug).toBe(providerSlugOf(t.provider));
        expect(t.displayName.length).toBeGreaterThan(0);
        expect(secretTypeBySlug(t.slug)).toBe(t);
      }
      expect(secretTypeBySlug('aws_access_key_id')).toEqual({
        slug: 'aws_access_key_id',
        displayName: 'Amazon AWS Access Key ID',
        provider: 'Amazon AWS',
        providerSlug: 'amazon_aws',
      });
      expect(secretTypeBySlug('gateway_personal_access_token')?.providerSlug).toBe('graphql_gateway');
      expect(secretTypeBySlug('no_such_type')).toBeUndefined();
      expect(Object.isFrozen(SECRET_TYPES)).toBe(true);
    });

    it('maps every message of every preset rule the engine runs', async () => {
      const rules = await engineRules();
      expect(rules.map((r) => r.ruleId)).not.toContain(FILTER_COMMENTS_RULE);
      expect(rules.length).toBeGreaterThanOrEqual(20);
      const known = new Set(Object.keys(PRESET_MESSAGE_TYPES));
      for (const r of rules) for (const id of r.messageIds) expect(known).toContain(`${r.ruleId}#${id}`);
      for (const v of Object.values(PRESET_MESSAGE_TYPES)) if (typeof v === 'string') expect(secretTypeBySlug(v)).toBeDefined();
    });

    it('lists every type the detector reported in these tests, and the types of our own rules', () => {
      expect(reportedTypes.size).toBeGreaterThanOrEqual(20);
      for (const t of reportedTypes) expect(secretTypeBySlug(t)).toBeDefined();
      for (const r of OWN_RULES) for (const t of r.types) expect(secretTypeBySlug(t)).toBeDefined();
    });
  });

  describe('engine', () => {
    it('runs in a worker under jest and in this thread under plain node, with the same results', async () => {
      // jest's module loader can require() ES modules only from Node 24.9 on; before, the worker is the way.
      const [major, minor] = process.versions.node.split('.').map(Number);
      expect(engineKind()).toBe(major > 24 || (major === 24 && minor >= 9) ? 'in-process' : 'worker');

      // dist/ is built by the jest global setup
      const dist = path.join(__dirname, '..', '..', '..', 'dist', 'src', 'services', 'secret-scanning', 'detector', 'index.js');
      expect(existsSync(dist)).toBe(true);
      // more messages of one rule than secretlint is handed per file (the rest take the runner's own path)
      const many = Array.from({ length: 250 }, () => `- ${fake.npm()}`);
      const content = lines(`AWS_SECRET_ACCESS_KEY=${fake.awsSecretAccessKey()}`, `GITHUB_TOKEN=${fake.githubPat()}`, ecPem(), ...many);
      const script = `
        const d = require(${JSON.stringify(dist)});
        const e = require(${JSON.stringify(dist.replace(/index\.js$/, 'engine.js'))});
        let input = '';
        process.stdin.on('data', (c) => (input += c)).on('end', async () => {
          const found = await d.detectSecrets(JSON.parse(input), { path: '.env' });
          process.stdout.write(JSON.stringify({ kind: e.engineKind(), found }));
        });`;
      const child = spawnSync(process.execPath, ['-e', script], { input: JSON.stringify(content), encoding: 'utf8', timeout: 30_000 });
      expect(child.stderr).toBe('');
      const out = JSON.parse(child.stdout) as { kind: string; found: DetectedSecret[] };
      expect(out.kind).toBe('in-process');
      expect(out.found).toEqual(await scan(content, '.env'));
      expect(out.found.map((f) => f.secretType)).toEqual([
        'aws_secret_access_key',
        'github_personal_access_token',
        'ec_private_key',
        ...many.map(() => 'npm_access_token'),
      ]);
    });
  });
});
