import 'reflect-metadata';
process.env.TZ = 'UTC';
/**
 * The AWS SDK warns on Node 20 that its releases after January 2027 need Node 22; the suite runs on Node 20 on
 * purpose (the oldest Node the gateway supports). The SDK's documented switch silences it, here and in the
 * processes tests spawn, which inherit this environment (aws/aws-sdk-js-v3#7983).
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/**
 * Node's default stack depth instead of the 100 frames jest's environment sets: every error the app makes during a
 * test captures its stack, and jest maps each frame through source maps when a stack is read (the GraphQL and
 * REST error paths read them). Two error-heavy e2e files took 10-20 % less CPU; failures still show 10 frames.
 */
Error.stackTraceLimit = 10;
