import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
describe('load', () => {
  it('worker', async () => {
    const core = pathToFileURL(require.resolve('@secretlint/core')).href;
    const preset = pathToFileURL(require.resolve('@secretlint/secretlint-rule-preset-recommend')).href;
    const code = `
      const { parentPort, workerData } = require('node:worker_threads');
      Promise.all([import(workerData.core), import(workerData.preset)]).then(async ([c, p]) => {
        const res = await c.lintSource({ source: { content: workerData.content, filePath: '/a.env', ext: '.env', contentType: 'text' }, options: { config: { rules: [{ id: p.creator.meta.id, rule: p.creator }] } } });
        parentPort.postMessage(res);
      }, (e) => parentPort.postMessage(String(e)));
    `;
    const t0 = Date.now();
    const w = new Worker(code, { eval: true, workerData: { core, preset, content: 'x = "AKIA' + 'ABCDEFGHIJKLMNOP"\nkey=ghp_' + 'a'.repeat(36) + '\n' } });
    const msg = await new Promise((r) => w.once('message', r));
    console.log(Date.now() - t0, JSON.stringify(msg, null, 1));
    await w.terminate();
  });
});
