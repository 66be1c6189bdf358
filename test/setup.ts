import 'reflect-metadata';
process.env.TZ = 'UTC';
/**
 * The AWS SDK warns on Node 20 that its releases after January 2027 need Node 22; the suite runs on Node 20 on
 * purpose (the oldest Node the gateway supports). The SDK's documented switch silences it, here and in the
 * processes tests spawn, which inherit this environment (aws/aws-sdk-js-v3#7983).
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/**
 * The workflow client warns once per client when credentials carry no accountId (account_id_endpoint_mode
 * "preferred", as the AWS SDKs do). Test credentials are anonymous fixtures, so that warning says nothing here;
 * the test of the warning itself spies on process.emitWarning and still sees it.
 */
const emitWarning = process.emitWarning.bind(process) as (...args: unknown[]) => void;
process.emitWarning = ((warning: unknown, ...rest: unknown[]) => {
  const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
  if (type === 'AccountIdWarning') return;
  emitWarning(warning, ...rest);
}) as typeof process.emitWarning;

/**
 * Node's default stack depth instead of the 100 frames jest's environment sets: every error the app makes during a
 * test captures its stack, and jest maps each frame through source maps when a stack is read (the GraphQL and
 * REST error paths read them). Two error-heavy e2e files took 10-20 % less CPU; failures still show 10 frames.
 */
Error.stackTraceLimit = 10;
