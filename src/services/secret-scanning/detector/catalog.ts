/**
 * The secret types the detector can report. Slugs, display names and provider names follow GitHub's
 * "Supported secret scanning patterns" table wherever GitHub has the same type, so `secret_type`,
 * `exclude_secret_types`, `providers` and `exclude_providers` filters mean what they mean on GitHub.
 * Four types are ours, as GitHub has no such slug: gateway_personal_access_token (this gateway's own
 * tokens), url_basic_auth_credentials, hashicorp_vault_recovery_token and generic_secret (the fallback for
 * a secretlint message this module does not know, e.g. after a preset upgrade).
 *
 * Provider slugs are the provider name lowercased with every run of other characters turned into one
 * underscore ("Amazon AWS" -> amazon_aws, "Hugging Face" -> hugging_face, "1Password" -> 1password).
 */

export interface SecretTypeInfo {
  /** GitHub-style secret type slug: lowercase letters, digits and single underscores. */
  readonly slug: string;
  /** Human-readable name, e.g. "Amazon AWS Access Key ID". */
  readonly displayName: string;
  /** Provider name, e.g. "Amazon AWS", or "Generic" for patterns tied to no provider. */
  readonly provider: string;
  /** Provider slug used by the providers / exclude_providers filters, e.g. "amazon_aws". */
  readonly providerSlug: string;
}

export function providerSlugOf(provider: string): string {
  return provider
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** Generic patterns (keys, connection strings): when one secret matches twice, the provider type wins. */
const GENERIC = new Set<string>();

function type(slug: string, displayName: string, provider: string, generic = false): SecretTypeInfo {
  if (generic) GENERIC.add(slug);
  return Object.freeze({ slug, displayName, provider, providerSlug: providerSlugOf(provider) });
}

const G = 'Generic';

/** Every type the detector can report, sorted by provider then slug. */
export const SECRET_TYPES: readonly SecretTypeInfo[] = Object.freeze(
  [
    // Generic (GitHub's "Supported generic patterns" plus two of ours)
    type('ec_private_key', 'Elliptic Curve Private Key', G, true),
    type('generic_private_key', 'Private Key', G, true),
    type('openssh_private_key', 'OpenSSH Private Key', G, true),
    type('pgp_private_key', 'PGP Private Key', G, true),
    type('rsa_private_key', 'RSA Private Key', G, true),
    type('mongodb_connection_string', 'MongoDB Connection String', G, true),
    type('mysql_connection_url', 'MySQL Connection URL', G, true),
    type('postgres_connection_string', 'PostgreSQL Connection String', G, true),
    type('url_basic_auth_credentials', 'Credentials in URL (Basic Auth)', G, true),
    type('generic_secret', 'Generic Secret', G, true),

    type('1password_service_account_token', '1Password Service Account Token', '1Password'),
    type('aws_access_key_id', 'Amazon AWS Access Key ID', 'Amazon AWS'),
    type('aws_secret_access_key', 'Amazon AWS Secret Access Key', 'Amazon AWS'),
    type('aws_temporary_access_key_id', 'Amazon AWS Temporary Access Key ID', 'Amazon AWS'),
    type('anthropic_api_key', 'Anthropic API Key', 'Anthropic'),
    type('azure_storage_account_key', 'Azure Storage Account Access Key', 'Azure'),
    type('databricks_access_token', 'Databricks API Token', 'Databricks'),
    type('docker_personal_access_token', 'Docker Personal Access Token', 'Docker'),
    type('figma_pat', 'Figma Personal Access Token', 'Figma'),
    type('github_app_installation_access_token', 'GitHub App Installation Access Token', 'GitHub'),
    type('github_oauth_access_token', 'GitHub OAuth Access Token', 'GitHub'),
    type('github_personal_access_token', 'GitHub Personal Access Token', 'GitHub'),
    type('github_refresh_token', 'GitHub Refresh Token', 'GitHub'),
    type('gitlab_access_token', 'GitLab Access Token', 'GitLab'),
    type('google_api_key', 'Google API Key', 'Google'),
    type('google_cloud_service_account_credentials', 'Google Cloud Service Account Credentials', 'Google'),
    type('google_oauth_client_secret', 'Google OAuth Client Secret', 'Google'),
    type('grafana_cloud_api_token', 'Grafana Cloud API Token', 'Grafana'),
    type('grafana_project_service_account_token', 'Grafana Project Service Account Token', 'Grafana'),
    type('gateway_personal_access_token', 'GraphQL Gateway Personal Access Token', 'GraphQL Gateway'),
    type('groq_api_key', 'Groq API Key', 'Groq'),
    type('hashicorp_vault_batch_token', 'HashiCorp Vault Batch Token', 'HashiCorp'),
    type('hashicorp_vault_recovery_token', 'HashiCorp Vault Recovery Token', 'HashiCorp'),
    type('hashicorp_vault_service_token', 'HashiCorp Vault Service Token', 'HashiCorp'),
    type('hf_user_access_token', 'Hugging Face User Access Token', 'Hugging Face'),
    type('linear_api_key', 'Linear API Key', 'Linear'),
    type('mailchimp_api_key', 'Mailchimp API Key', 'Mailchimp'),
    type('notion_integration_token', 'Notion Integration Token', 'Notion'),
    type('npm_access_token', 'npm Access Token', 'npm'),
    type('openai_api_key', 'OpenAI API Key', 'OpenAI'),
    type('pypi_api_token', 'PyPI API Token', 'PyPI'),
    type('sendgrid_api_key', 'SendGrid API Key', 'SendGrid'),
    type('shopify_access_token', 'Shopify Access Token', 'Shopify'),
    type('shopify_app_shared_secret', 'Shopify App Shared Secret', 'Shopify'),
    type('shopify_custom_app_access_token', 'Shopify Custom App Access Token', 'Shopify'),
    type('shopify_private_app_password', 'Shopify Private App Password', 'Shopify'),
    type('slack_api_token', 'Slack API Token', 'Slack'),
    type('slack_incoming_webhook_url', 'Slack Incoming Webhook URL', 'Slack'),
    type('slack_workflow_trigger_url', 'Slack Workflow Trigger URL', 'Slack'),
    type('slack_workflow_webhook_url', 'Slack Workflow Webhook URL', 'Slack'),
    type('stripe_api_key', 'Stripe API Key', 'Stripe'),
    type('stripe_live_restricted_key', 'Stripe Live API Restricted Key', 'Stripe'),
    type('stripe_test_restricted_key', 'Stripe Test API Restricted Key', 'Stripe'),
    type('stripe_test_secret_key', 'Stripe Test API Secret Key', 'Stripe'),
    type('stripe_webhook_signing_secret', 'Stripe Webhook Signing Secret', 'Stripe'),
    type('twilio_api_key', 'Twilio API Key', 'Twilio'),
    type('vercel_api_key', 'Vercel API Key', 'Vercel'),
    type('vercel_app_refresh_token', 'Vercel App Refresh Token', 'Vercel'),
    type('vercel_app_user_access_token', 'Vercel App User Access Token', 'Vercel'),
    type('vercel_integration_access_token', 'Vercel Integration Access Token', 'Vercel'),
    type('vercel_personal_access_token', 'Vercel Personal Access Token', 'Vercel'),
  ].sort((a, b) => (a.providerSlug === b.providerSlug ? a.slug.localeCompare(b.slug) : a.providerSlug.localeCompare(b.providerSlug))),
);

const BY_SLUG: ReadonlyMap<string, SecretTypeInfo> = new Map(SECRET_TYPES.map((t) => [t.slug, t]));

export function isGenericSecretType(slug: string): boolean {
  return GENERIC.has(slug);
}

/** The catalog entry of a slug, or undefined when the detector never reports that slug. */
export function secretTypeBySlug(slug: string): SecretTypeInfo | undefined {
  return BY_SLUG.get(slug);
}
