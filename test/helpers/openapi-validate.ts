/**
 * Validate an OpenAPI document with @apidevtools/swagger-parser. Its dependency json-schema-ref-parser is an
 * ES module, which Jest's CommonJS module system cannot load on Node 20 (Node itself can, since 20.19): the
 * validator runs in a child Node process that reads the document on stdin.
 */
import { spawn } from 'node:child_process';

const SCRIPT = `
const SwaggerParser = require('@apidevtools/swagger-parser');
let text = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => (text += d)).on('end', async () => {
  try {
    await SwaggerParser.validate(JSON.parse(text));
    process.stdout.write('valid');
  } catch (e) {
    process.stdout.write('invalid: ' + e.message);
  }
});`;

/** Resolves to 'valid' or 'invalid: <the validator's message>'. */
export function validateOpenApi(doc: unknown): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--no-warnings', '-e', SCRIPT], { cwd: __dirname, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', () => (out ? resolve(out) : reject(new Error(`validator failed: ${err}`))));
    child.stdin.end(JSON.stringify(doc));
  });
}
