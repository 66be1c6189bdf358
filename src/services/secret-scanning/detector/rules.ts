/**
 * Our own rules, for well-known types secretlint's recommended preset (12.0.0) lacks. Each is a plain
 * regular expression (plus a check where the format has one) reported as a Finding, like the preset's
 * messages. Checked against the preset before adding:
 *
 * - Stripe keys (sk_/rk_ live and test, whsec_ webhook secrets): no Stripe rule in 12.0.0.
 * - Google API keys (AIza...) and OAuth client secrets (GOCSPX-...): the GCP rule only finds
 *   service-account JSON / p12 files.
 * - Twilio API keys (SK + 32 hex), Mailchimp API keys (32 hex + -usN), Azure storage account keys
 *   (AccountKey=... in a connection string), PyPI API tokens (pypi-AgEIcHlwaS5vcmc...): no rule.
 * - Slack workflow webhook and trigger URLs: the Slack rule knows /services/ incoming webhooks only.
 * - Private keys the preset's key rule misses: it wants the base64 body to start with "MI" or the
 *   OpenSSH magic and to be at least 100 characters with no armor headers, so short EC (SEC1 P-256,
 *   "MHc...") and Ed25519 PKCS#8 ("MC4...") keys and every PGP private key block slip through. Where
 *   both report the same block, it is reported once.
 * - This gateway's own tokens (gwc_ / gwf_ + 40 base62 + 6-character CRC32 checksum), checked with
 *   the same checksum the gateway uses, so a random look-alike string is not reported.
 */
import { isWellFormedToken } from '../../../auth/tokens';
import { privateKeyType, type Finding } from './classify';

interface OwnRule {
  id: string;
  pattern: RegExp;
  /** Capture group holding the secret (0: the whole match). */
  group?: number;
  /** Every catalog type `classify` can return. */
  types: readonly string[];
  /** The catalog type, or undefined to drop the match. */
  classify: (secret: string) => string | undefined;
}

/** Like GitHub: live secret keys are stripe_api_key, the others have their own types. */
const STRIPE_TYPES: Record<string, string> = {
  sk_live: 'stripe_api_key',
  sk_test: 'stripe_test_secret_key',
  rk_live: 'stripe_live_restricted_key',
  rk_test: 'stripe_test_restricted_key',
};

const PRIVATE_KEY_TYPES = ['rsa_private_key', 'ec_private_key', 'openssh_private_key', 'pgp_private_key', 'generic_private_key'];

/** A rule reporting one type. */
function single(id: string, pattern: RegExp, slug: string, group?: number): OwnRule {
  return { id, pattern, group, types: [slug], classify: () => slug };
}

/** A PEM / armored block body is key material when, without armor headers and blanks, it is base64. */
function looksLikeKeyMaterial(block: string): boolean {
  const body = block
    .replace(/^-----BEGIN[^\n]*-----/, '')
    .replace(/-----END[^\n]*-----$/, '')
    // JSON / env files keep keys on one line with escaped newlines
    .replace(/\\[nr]/g, '\n')
    // armor headers (Version:, Comment:, Proc-Type:, DEK-Info:) and the PGP checksum line (=XXXX)
    .replace(/^[ \t]*[A-Za-z][A-Za-z-]*:[^\n]*$/gm, '')
    .replace(/^[ \t]*=[A-Za-z0-9+/]{4}[ \t]*$/gm, '')
    .replace(/\s+/g, '');
  return body.length >= 60 && /^[A-Za-z0-9+/]+={0,2}$/.test(body);
}

export const OWN_RULES: readonly OwnRule[] = [
  {
    id: 'stripe-key',
    types: Object.values(STRIPE_TYPES),
    pattern: /(?<![A-Za-z0-9_])(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{24,247}(?![0-9A-Za-z])/g,
    classify: (s) => STRIPE_TYPES[s.slice(0, 7)],
  },
  single('stripe-webhook-secret', /(?<![A-Za-z0-9_])whsec_[0-9A-Za-z]{32,64}(?![0-9A-Za-z])/g, 'stripe_webhook_signing_secret'),
  single('google-api-key', /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g, 'google_api_key'),
  single('google-oauth-client-secret', /(?<![A-Za-z0-9_-])GOCSPX-[0-9A-Za-z_-]{28}(?![0-9A-Za-z_-])/g, 'google_oauth_client_secret'),
  single('twilio-api-key', /(?<![A-Za-z0-9])SK[0-9a-f]{32}(?![A-Za-z0-9])/g, 'twilio_api_key'),
  single('mailchimp-api-key', /(?<![A-Za-z0-9])[0-9a-f]{32}-us[0-9]{1,2}(?![A-Za-z0-9])/g, 'mailchimp_api_key'),
  single('azure-storage-account-key', /\bAccountKey\s*=\s*([A-Za-z0-9+/]{86}==)(?![A-Za-z0-9+/=])/gi, 'azure_storage_account_key', 1),
  // "AgEIcHlwaS5vcmc" is the base64 macaroon header naming pypi.org
  single('pypi-api-token', /(?<![A-Za-z0-9_-])pypi-AgEIcHlwaS5vcmc[0-9A-Za-z_-]{50,1000}(?![0-9A-Za-z_-])/g, 'pypi_api_token'),
  single('slack-workflow-webhook', /https:\/\/hooks\.slack\.com\/workflows\/T[A-Za-z0-9]{1,40}\/A[A-Za-z0-9]{1,40}\/[0-9]{1,40}\/[A-Za-z0-9]{1,40}/g, 'slack_workflow_webhook_url'),
  single('slack-workflow-trigger', /https:\/\/hooks\.slack\.com\/triggers\/T[A-Za-z0-9]{1,40}\/[0-9]{1,40}\/[A-Za-z0-9]{1,40}/g, 'slack_workflow_trigger_url'),
  {
    id: 'private-key',
    types: PRIVATE_KEY_TYPES,
    // The body cannot run past the next "-----" (BEGIN or END), which keeps this linear; the check
    // below rejects placeholders.
    pattern: /-----BEGIN ((?:RSA|DSA|EC|OPENSSH|PGP) )?PRIVATE KEY( BLOCK)?-----(?:[^-]|-(?!----)){20,16384}-----END \1PRIVATE KEY\2-----/g,
    classify: (block) => (looksLikeKeyMaterial(block) ? privateKeyType(block) : undefined),
  },
  {
    id: 'gateway-token',
    types: ['gateway_personal_access_token'],
    pattern: /(?<![A-Za-z0-9_])gw[cf]_[0-9A-Za-z]{46}(?![0-9A-Za-z])/g,
    classify: (s) => (isWellFormedToken(s) ? 'gateway_personal_access_token' : undefined),
  },
];

/** Runs our rules over the content. */
export function runOwnRules(content: string): Finding[] {
  const out: Finding[] = [];
  for (const r of OWN_RULES) {
    for (const m of content.matchAll(r.pattern)) {
      const group = r.group ?? 0;
      const secret = m[group];
      if (!secret) continue;
      const start = group === 0 ? m.index : m.index + m[0].indexOf(secret);
      const slug = r.classify(secret);
      if (slug) out.push({ slug, start, end: start + secret.length });
    }
  }
  return out;
}
