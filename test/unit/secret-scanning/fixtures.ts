/**
 * Fake secrets for secret scanning tests. Every value is assembled at run time from a prefix and random
 * characters, so no literal that looks like a live credential is ever committed, and every call returns
 * a new secret (alerts are keyed by secret: tests must not see each other's secrets).
 */
import { createHash, randomBytes } from 'node:crypto';
import { generateToken } from '../../../src/auth/tokens';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const HEX = '0123456789abcdef';
const B64 = ALNUM + '+/';

/** `n` random characters of `alphabet`. */
export function randomChars(n: number, alphabet = ALNUM): string {
  let out = '';
  const bytes = randomBytes(n);
  for (let i = 0; i < n; i++) out += alphabet[bytes[i] % alphabet.length];
  return out;
}

/** Mixed-case alphanumerics that surely contain upper, lower and digits. */
function mixed(n: number): string {
  return randomChars(n - 3) + randomChars(1, UPPER) + randomChars(1, LOWER) + randomChars(1, DIGITS);
}

/** A fake secret of one type, and a line of text that carries it. */
export interface FakeSecret {
  secretType: string;
  providerSlug: string;
  secret: string;
  /** The line to put in a file; the secret starts at `column` (1-based). */
  line: string;
  column: number;
}

function fake(secretType: string, providerSlug: string, prefix: string, secret: string, suffix = ''): FakeSecret {
  return { secretType, providerSlug, secret, line: prefix + secret + suffix, column: prefix.length + 1 };
}

export const fakeSecrets = {
  awsAccessKeyId: () => fake('aws_access_key_id', 'amazon_aws', 'AWS_ACCESS_KEY_ID=', 'AK' + 'IA' + randomChars(16, UPPER + '234567')),
  githubPat: () => fake('github_personal_access_token', 'github', 'GITHUB_TOKEN=', 'gh' + 'p_' + mixed(36)),
  slackBot: () =>
    fake('slack_api_token', 'slack', 'SLACK_TOKEN=', 'xo' + 'xb-' + randomChars(12, DIGITS) + '-' + randomChars(12, DIGITS) + '-' + mixed(24)),
  stripeLive: () => fake('stripe_api_key', 'stripe', 'const stripe = "', 'sk' + '_live_' + mixed(24), '";'),
  npm: () => fake('npm_access_token', 'npm', 'NPM_TOKEN=', 'np' + 'm_' + mixed(36)),
  googleApiKey: () => fake('google_api_key', 'google', 'maps_key: ', 'AI' + 'za' + mixed(35)),
  sendgrid: () => fake('sendgrid_api_key', 'sendgrid', 'SENDGRID=', 'S' + 'G.' + mixed(22) + '.' + mixed(43)),
  gateway: () => fake('gateway_personal_access_token', 'graphql_gateway', 'token = ', generateToken('classic')),
  mailchimp: () => fake('mailchimp_api_key', 'mailchimp', 'MAILCHIMP=', randomChars(32, HEX) + '-us' + '12'),
  twilio: () => fake('twilio_api_key', 'twilio', 'TWILIO=', 'S' + 'K' + randomChars(32, HEX)),
};

/** A PEM RSA private key block (multi-line): its secret spans lines. */
export function fakeRsaPrivateKey(): { secretType: string; providerSlug: string; secret: string; lines: string[] } {
  const body: string[] = [];
  body.push('MI' + 'IEow' + randomChars(60, B64));
  for (let i = 0; i < 6; i++) body.push(randomChars(64, B64));
  body.push(randomChars(40, B64) + '==');
  const begin = '-----BEGIN RSA ' + 'PRIVATE KEY-----';
  const end = '-----END RSA ' + 'PRIVATE KEY-----';
  const lines = [begin, ...body, end];
  return { secretType: 'rsa_private_key', providerSlug: 'generic', secret: lines.join('\n'), lines };
}

/** A file made of lines (line i of the array is line i + 1 of the file), ending with a newline. */
export function fileOf(lines: string[]): string {
  return lines.join('\n') + '\n';
}

/** A random commit sha (40 hex). */
export function commitSha(): string {
  return randomChars(40, HEX);
}

/** git's blob id, computed independently of the service: `git hash-object` of the content. */
export function gitBlobId(content: string): string {
  const body = Buffer.from(content, 'utf8');
  return createHash('sha1')
    .update(Buffer.concat([Buffer.from(`blob ${body.length}\u0000`, 'utf8'), body]))
    .digest('hex');
}
