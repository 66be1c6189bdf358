/**
 * Turns secretlint messages into findings: which catalog type, and exactly which characters are the
 * secret. Shared helpers (token prefixes, private-key headers) are used by our own rules too.
 */
import type { EngineMessage } from './engine';

/** A secret found in a file: its catalog type and its [start, end) offsets in the scanned content. */
export interface Finding {
  slug: string;
  start: number;
  end: number;
}

// ------------------------------------------------------------------ shared classifiers

/** GitHub token type by prefix (https://github.blog/2021-04-05-behind-githubs-new-authentication-token-formats/). */
export function githubTokenType(token: string): string | undefined {
  if (token.startsWith('ghp_') || token.startsWith('github_pat_')) return 'github_personal_access_token';
  // gho_ are OAuth app tokens; ghu_ are GitHub App user access tokens, also issued through OAuth.
  if (token.startsWith('gho_') || token.startsWith('ghu_')) return 'github_oauth_access_token';
  if (token.startsWith('ghs_')) return 'github_app_installation_access_token';
  if (token.startsWith('ghr_')) return 'github_refresh_token';
  return undefined;
}

/** Private key type by its PEM / armor header; PKCS#8 ("PRIVATE KEY") and DSA keys are generic. */
export function privateKeyType(block: string): string {
  const kind = /-----BEGIN ?(RSA|DSA|EC|OPENSSH|PGP)? ?PRIVATE KEY/.exec(block)?.[1];
  switch (kind) {
    case 'RSA':
      return 'rsa_private_key';
    case 'EC':
      return 'ec_private_key';
    case 'OPENSSH':
      return 'openssh_private_key';
    case 'PGP':
      return 'pgp_private_key';
    default:
      return 'generic_private_key';
  }
}

const SHOPIFY_TYPES: Record<string, string> = {
  shpat: 'shopify_access_token',
  shpca: 'shopify_custom_app_access_token',
  shppa: 'shopify_private_app_password',
  shpss: 'shopify_app_shared_secret',
};

/**
 * AWS unique-ID prefixes (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html#identifiers-prefixes):
 * secretlint's AWS rule matches all of them, but only AKIA (and the old A3T form) are access key IDs and
 * ASIA temporary ones; AIDA, AROA, AGPA, AIPA, ANPA and ANVA name users, roles, groups... and are not
 * secrets.
 */
function awsKeyIdType(id: string): string | undefined {
  if (id.startsWith('AKIA') || id.startsWith('A3T')) return 'aws_access_key_id';
  if (id.startsWith('ASIA')) return 'aws_temporary_access_key_id';
  return undefined;
}

// ------------------------------------------------------------------ secretlint messages

type Classifier = string | ((secret: string) => string | undefined);

const rule = (name: string) => `@secretlint/secretlint-rule-${name}`;

/**
 * Every (rule, message id) of @secretlint/secretlint-rule-preset-recommend 12.0.0, keyed
 * `ruleId#messageId`, and the catalog type it reports (undefined: not a secret we alert on).
 * A message missing here (a newer preset) is reported as generic_secret.
 */
export const PRESET_MESSAGE_TYPES: Readonly<Record<string, Classifier>> = {
  [`${rule('aws')}#AWSAccessKeyID`]: awsKeyIdType,
  [`${rule('aws')}#AWSSecretAccessKey`]: 'aws_secret_access_key',
  // Not a secret, and suppressed in the engine configuration; listed so it is known, not generic.
  [`${rule('aws')}#AWSAccountID`]: () => undefined,
  [`${rule('gcp')}#PrivateKeyJSON`]: 'google_cloud_service_account_credentials',
  [`${rule('gcp')}#PrivateKeyP12`]: 'google_cloud_service_account_credentials',
  [`${rule('npm')}#PackageJSON_xOauthToken`]: (s) => githubTokenType(s) ?? 'github_oauth_access_token',
  [`${rule('npm')}#Npmrc_authToken`]: 'npm_access_token',
  [`${rule('npm')}#NPM_ACCESS_TOKEN`]: 'npm_access_token',
  [`${rule('slack')}#SLACK_TOKEN`]: 'slack_api_token',
  [`${rule('slack')}#IncomingWebhook`]: 'slack_incoming_webhook_url',
  [`${rule('basicauth')}#BasicAuth`]: 'url_basic_auth_credentials',
  [`${rule('openai')}#OPENAI_TOKEN`]: 'openai_api_key',
  [`${rule('anthropic')}#ANTHROPIC_API_KEY`]: 'anthropic_api_key',
  [`${rule('groq')}#GROQ_API_KEY`]: 'groq_api_key',
  [`${rule('huggingface')}#HUGGINGFACE_USER_ACCESS_TOKEN`]: 'hf_user_access_token',
  [`${rule('linear')}#LINEAR_API_TOKEN`]: 'linear_api_key',
  [`${rule('notion')}#NOTION_INTEGRATION_TOKEN`]: 'notion_integration_token',
  [`${rule('privatekey')}#PrivateKey`]: privateKeyType,
  [`${rule('sendgrid')}#SENDGRID_KEY`]: 'sendgrid_api_key',
  [`${rule('shopify')}#SHOPIFY_KEY`]: (s) => SHOPIFY_TYPES[s.slice(0, 5)],
  [`${rule('github')}#GITHUB_TOKEN`]: githubTokenType,
  [`${rule('gitlab')}#GITLAB_PERSONAL_ACCESS_TOKEN`]: 'gitlab_access_token',
  [`${rule('grafana')}#GRAFANA_CLOUD_API_TOKEN`]: 'grafana_cloud_api_token',
  [`${rule('grafana')}#GRAFANA_SERVICE_ACCOUNT_TOKEN`]: 'grafana_project_service_account_token',
  [`${rule('1password')}#OPS_TOKEN`]: '1password_service_account_token',
  [`${rule('database-connection-string')}#MongoDBConnection`]: 'mongodb_connection_string',
  [`${rule('database-connection-string')}#MySQLConnection`]: 'mysql_connection_url',
  [`${rule('database-connection-string')}#PostgreSQLConnection`]: 'postgres_connection_string',
  [`${rule('hashicorp-vault')}#HASHICORP_VAULT_SERVICE_TOKEN`]: 'hashicorp_vault_service_token',
  [`${rule('hashicorp-vault')}#HASHICORP_VAULT_BATCH_TOKEN`]: 'hashicorp_vault_batch_token',
  [`${rule('hashicorp-vault')}#HASHICORP_VAULT_RECOVERY_TOKEN`]: 'hashicorp_vault_recovery_token',
  [`${rule('vercel')}#VERCEL_PERSONAL_ACCESS_TOKEN`]: 'vercel_personal_access_token',
  [`${rule('vercel')}#VERCEL_INTEGRATION_TOKEN`]: 'vercel_integration_access_token',
  [`${rule('vercel')}#VERCEL_APP_ACCESS_TOKEN`]: 'vercel_app_user_access_token',
  [`${rule('vercel')}#VERCEL_APP_REFRESH_TOKEN`]: 'vercel_app_refresh_token',
  [`${rule('vercel')}#VERCEL_AI_GATEWAY_API_KEY`]: 'vercel_api_key',
  [`${rule('databricks')}#DATABRICKS_PERSONAL_ACCESS_TOKEN`]: 'databricks_access_token',
  [`${rule('docker')}#DOCKER_PERSONAL_ACCESS_TOKEN`]: 'docker_personal_access_token',
  [`${rule('figma')}#FIGMA_PERSONAL_ACCESS_TOKEN`]: 'figma_pat',
};

export const UNKNOWN_MESSAGE_TYPE = 'generic_secret';

/** Message data keys under which the preset's rules put the secret itself. */
const SECRET_DATA_KEYS = ['KEY', 'TOKEN', 'ID', 'URL', 'URI', 'CREDENTIAL'];

/** How far past the reported range a secret named in the data may start (see locateSecret). */
const SEARCH_WINDOW = 1024;

/**
 * Where the secret is. The reported range is usually the secret itself, but some rules report the
 * start of the whole match with the length of a captured group (AWS secret access key, npm's
 * `_authToken=` and `x-oauth-basic` URLs), so the range alone would cut the wrong characters. The
 * message data carries the secret text: find it at, or just after, the range start; fall back to the
 * range when the data has none (the GCP JSON message covers the whole file) or was masked.
 */
function locateSecret(content: string, m: EngineMessage): { start: number; end: number } | undefined {
  const [from, to] = m.range;
  if (!(from >= 0 && to > from && to <= content.length)) return undefined;
  for (const key of SECRET_DATA_KEYS) {
    const value = m.data[key];
    if (typeof value !== 'string' || value.length === 0) continue;
    if (content.startsWith(value, from)) return { start: from, end: from + value.length };
    const at = content.slice(from, to + SEARCH_WINDOW + value.length).indexOf(value);
    if (at >= 0) return { start: from + at, end: from + at + value.length };
  }
  return { start: from, end: to };
}

/** Trims what a `key=value` rule captured with the value: quotes, trailing blanks and a CR. */
function trimValue(content: string, loc: { start: number; end: number }): { start: number; end: number } {
  let { start, end } = loc;
  while (end > start && /\s/.test(content[end - 1])) end--;
  const q = content[start];
  if ((q === '"' || q === "'") && end - start >= 2 && content[end - 1] === q) {
    start++;
    end--;
  }
  return { start, end };
}

/**
 * Trims what a connection-string match ran into: its database and options parts stop only at blanks,
 * so `connect('postgres://u:p@h/db')` would end in `')`.
 */
function trimUrlEnd(content: string, loc: { start: number; end: number }): { start: number; end: number } {
  let { end } = loc;
  while (end > loc.start && `'"\`),;]}>.`.includes(content[end - 1])) end--;
  return { start: loc.start, end };
}

/** The finding a secretlint message stands for, or undefined when it is not one we alert on. */
export function classifyMessage(content: string, m: EngineMessage): Finding | undefined {
  let loc = locateSecret(content, m);
  if (!loc) return undefined;
  const key = `${m.ruleId}#${m.messageId}`;
  if (key === `${rule('npm')}#Npmrc_authToken`) loc = trimValue(content, loc);
  if (m.ruleId === rule('database-connection-string')) loc = trimUrlEnd(content, loc);
  if (loc.end - loc.start < 8) return undefined;
  const classifier = Object.prototype.hasOwnProperty.call(PRESET_MESSAGE_TYPES, key) ? PRESET_MESSAGE_TYPES[key] : UNKNOWN_MESSAGE_TYPE;
  const slug = typeof classifier === 'string' ? classifier : classifier(content.slice(loc.start, loc.end));
  return slug ? { slug, start: loc.start, end: loc.end } : undefined;
}
