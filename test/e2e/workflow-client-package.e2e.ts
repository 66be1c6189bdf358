/**
 * The workflow client as a user installs it: `npm pack` the package (from a copy of its own files, so the build
 * uses nothing of the gateway and the repository's dist/ is left alone), `npm install` the tarball into a project
 * in a temporary directory outside the repository (it cannot see the gateway's node_modules; its dependencies come
 * from the registry or npm's cache), and drive a running gateway process (`node dist/src/main.js`) through it:
 * the README's JavaScript example as written, `import` from an ES module, `require` from CommonJS, both sharing one
 * copy of each class, an activity worker (pollActivity), and the package's TypeScript types from both kinds of module.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ROOT, ServerProcess, startServerProcess } from '../helpers/process';
import { seedWorkflowKey, SharedDatabase, sharedDatabase } from '../helpers/shared-db';

const PKG_DIR = path.join(ROOT, 'packages', 'workflow-client');
const PKG = JSON.parse(fs.readFileSync(path.join(PKG_DIR, 'package.json'), 'utf8')) as { name: string; version: string };
const SERVER_KEY = 'client-package-test-key';
// Child processes (npm, node, tsc) on a machine the other test files share.
jest.setTimeout(180_000);

function run(cmd: string, args: string[], cwd: string, env: Record<string, string>): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) =>
    execFile(cmd, args, { cwd, env, maxBuffer: 16 * 1024 * 1024, timeout: 170_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${cmd} ${args.join(' ')} failed in ${cwd}: ${err.message}\n${stdout}\n${stderr}`)) : resolve({ stdout, stderr }),
    ),
  );
}

describe('the workflow client package, packed, installed elsewhere, against a running gateway', () => {
  let db: SharedDatabase;
  let gateway: ServerProcess;
  let key: { accessKeyId: string; secretAccessKey: string };
  let tmp: string;
  let app: string;
  let tarball: string;
  /** What the app's processes get: no NODE_PATH, a HOME without AWS files, the gateway's address and a key. */
  let env: Record<string, string>;

  beforeAll(async () => {
    db = await sharedDatabase('wf-client-pkg');
    key = await seedWorkflowKey(db, 'client-package-user', SERVER_KEY);
    gateway = await startServerProcess({ DATABASE_URL: db.url, GATEWAY_SECRET_KEY: SERVER_KEY, SEED_DEMO: 'false', LOG_LEVEL: 'warn', WORKFLOW_ACTIVITY_POLL_SECONDS: '1' });

    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wf-client-pkg-')));
    const npmEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmp, npm_config_update_notifier: 'false' };

    // npm pack runs prepack (a clean build) in a copy holding only the package's own files; the compiler comes
    // from the repository's node_modules, the one thing the copy is lent.
    const copy = path.join(tmp, 'package-src');
    fs.mkdirSync(copy);
    for (const f of ['package.json', 'README.md', 'tsconfig.json', 'src', 'scripts']) fs.cpSync(path.join(PKG_DIR, f), path.join(copy, f), { recursive: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
    const packed = await run('npm', ['pack', '--json', '--pack-destination', tmp], copy, npmEnv);
    const info = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
    tarball = path.join(tmp, info[0].filename);
    const files = info[0].files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/cjs/index.js', 'dist/cjs/index.d.ts', 'dist/cjs/api/states-2016-11-23.json', 'dist/esm/index.mjs', 'dist/esm/index.d.mts']));
    expect(files.filter((f) => f.startsWith('src/') || f.includes('node_modules') || f.endsWith('.tsbuildinfo'))).toEqual([]);

    app = path.join(tmp, 'app');
    fs.mkdirSync(app);
    fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'client-package-app', version: '1.0.0', private: true }));
    await run('npm', ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline'], app, npmEnv);

    const home = path.join(tmp, 'home');
    fs.mkdirSync(home);
    // The gateway's account (its default WORKFLOW_ACCOUNT_ID): the clients' credentials carry it, as a user's do.
    env = { PATH: process.env.PATH ?? '', HOME: home, WF_ENDPOINT: `${gateway.url}/workflow`, WF_KEY: key.accessKeyId, WF_SECRET: key.secretAccessKey, WF_ACCOUNT_ID: '000000000000' };
  }, 240_000);

  afterAll(async () => {
    if (gateway && gateway.child.exitCode === null && gateway.child.signalCode === null) {
      gateway.child.kill('SIGTERM');
      await gateway.exited;
    }
    await db?.drop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('installs with only its own dependencies, none of the gateway', () => {
    const installed = path.join(app, 'node_modules', ...PKG.name.split('/'));
    expect(JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8')).version).toBe(PKG.version);
    expect(fs.lstatSync(installed).isSymbolicLink()).toBe(false); // a real install, not a link into the repository
    for (const dep of ['@smithy/signature-v4', '@smithy/core', '@jmespath-community/jmespath']) {
      expect(fs.existsSync(path.join(app, 'node_modules', dep, 'package.json'))).toBe(true);
    }
    for (const gatewayDep of ['fastify', 'typeorm', 'graphql', '@apollo/server', 'better-sqlite3', 'pg', '@aws-sdk/client-sfn']) {
      expect({ gatewayDep, installed: fs.existsSync(path.join(app, 'node_modules', gatewayDep)) }).toEqual({ gatewayDep, installed: false });
    }
  });

  it("runs the README's JavaScript example as written", async () => {
    const readme = fs.readFileSync(path.join(app, 'node_modules', ...PKG.name.split('/'), 'README.md'), 'utf8');
    const example = /```js\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toContain(`require('${PKG.name}')`);
    fs.writeFileSync(path.join(app, 'example.js'), example!);
    const { stdout, stderr } = await run(process.execPath, ['example.js'], app, env);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toBe('Hello, world!');
    expect(lines).toContainEqual(expect.stringMatching(/ SUCCEEDED$/));
    expect(lines[lines.length - 1]).toBe('ExecutionDoesNotExist');
    expect(stderr).not.toContain(key.secretAccessKey);
    expect(stderr).not.toContain('Warning');
  });

  it('import (ES module) and require (CommonJS) give the same classes and both drive the gateway', async () => {
    const script = `
      import { createRequire } from 'node:module';
      import * as esm from '${PKG.name}';
      const cjs = createRequire(import.meta.url)('${PKG.name}');
      const same = Object.keys(cjs).filter((k) => k !== '__esModule').every((k) => esm[k] === cjs[k]);
      const { WorkflowClient, WorkflowServiceException } = esm;
      const client = new WorkflowClient({ region: 'us-east-1', version: 'latest', endpoint: process.env.WF_ENDPOINT, credentials: { key: process.env.WF_KEY, secret: process.env.WF_SECRET, accountId: process.env.WF_ACCOUNT_ID } });
      const { stateMachineArn } = await client.createStateMachine({ name: 'esm-' + Date.now(), roleArn: 'arn:aws:iam::000000000000:role/r', definition: JSON.stringify({ StartAt: 'P', States: { P: { Type: 'Pass', End: true } } }) });
      const { executionArn } = await client.startExecution({ stateMachineArn, input: JSON.stringify({ from: 'esm' }) });
      await client.waitUntil('ExecutionSucceeded', { executionArn, '@waiter': { delay: 0.2, maxAttempts: 100 } });
      const described = await client.describeExecution({ executionArn });
      // an error made by the ES module's client is an instance of the class required through CommonJS
      const err = await client.stopExecution({ executionArn: executionArn + '-nope' }).catch((e) => e);
      let deep = 'exported';
      try { createRequire(import.meta.url)('${PKG.name}/dist/cjs/client.js'); } catch (e) { deep = e.code; }
      console.log(JSON.stringify({ same, status: described.status, output: described.output, code: err.code, esmClass: err instanceof WorkflowServiceException, cjsClass: err instanceof cjs.WorkflowServiceException, deep }));
      client.destroy();`;
    fs.writeFileSync(path.join(app, 'both.mjs'), script);
    const { stdout, stderr } = await run(process.execPath, ['both.mjs'], app, env);
    expect(stderr).not.toContain('Warning');
    expect(JSON.parse(stdout)).toEqual({
      same: true,
      status: 'SUCCEEDED',
      output: '{"from":"esm"}',
      code: 'ExecutionDoesNotExist',
      esmClass: true,
      cjsClass: true,
      deep: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
    });
  });

  it('require from CommonJS: list, paginate and a typed service error', async () => {
    const script = `
      const { WorkflowClient, WorkflowServiceException } = require('${PKG.name}');
      const client = new WorkflowClient({ region: 'us-east-1', version: '2016-11-23', endpoint: process.env.WF_ENDPOINT, credentials: { key: process.env.WF_KEY, secret: process.env.WF_SECRET, accountId: process.env.WF_ACCOUNT_ID } });
      (async () => {
        const names = [];
        for await (const m of client.getIterator('ListStateMachines', { maxResults: 1 })) names.push(m.name);
        const bad = await client.describeStateMachine({ stateMachineArn: 'arn:aws:states:us-east-1:000000000000:stateMachine:missing' }).catch((e) => e);
        console.log(JSON.stringify({ names: names.length, code: bad.code, typed: bad instanceof WorkflowServiceException, status: bad.statusCode }));
        client.destroy();
      })();`;
    fs.writeFileSync(path.join(app, 'list.cjs'), script);
    const { stdout, stderr } = await run(process.execPath, ['list.cjs'], app, env);
    expect(stderr).not.toContain('Warning');
    const out = JSON.parse(stdout) as { names: number; code: string; typed: boolean; status: number };
    expect(out.names).toBeGreaterThanOrEqual(2); // the README example's and the ES module's workflows, one page each
    expect([out.code, out.typed, out.status]).toEqual(['StateMachineDoesNotExist', true, 400]);
  });

  it('runs an activity worker (pollActivity) from the installed package', async () => {
    const script = `
      import { WorkflowClient } from '${PKG.name}';
      const client = new WorkflowClient({ region: 'us-east-1', version: 'latest', endpoint: process.env.WF_ENDPOINT, credentials: { key: process.env.WF_KEY, secret: process.env.WF_SECRET, accountId: process.env.WF_ACCOUNT_ID } });
      const { activityArn } = await client.createActivity({ name: 'pkg-' + Date.now() });
      const definition = { StartAt: 'Work', States: { Work: { Type: 'Task', Resource: activityArn, HeartbeatSeconds: 30, End: true } } };
      const { stateMachineArn } = await client.createStateMachine({ name: 'pkg-activity-' + Date.now(), roleArn: 'arn:aws:iam::000000000000:role/r', definition: JSON.stringify(definition) });
      const { executionArn } = await client.startExecution({ stateMachineArn, input: JSON.stringify({ n: 20 }) });
      const worker = client.pollActivity(activityArn, (input) => ({ n: input.n + 1 }), { concurrency: 2, heartbeat: 5 });
      await client.waitUntil('ExecutionSucceeded', { executionArn, '@waiter': { delay: 0.2, maxAttempts: 300 } });
      await worker.stop();
      console.log((await client.describeExecution({ executionArn })).output);
      client.destroy();`;
    fs.writeFileSync(path.join(app, 'worker.mjs'), script);
    const { stdout, stderr } = await run(process.execPath, ['worker.mjs'], app, env);
    expect(stderr).not.toContain('Warning');
    expect(JSON.parse(stdout)).toEqual({ n: 21 });
  });

  it('ships TypeScript types for import and require', async () => {
    fs.writeFileSync(
      path.join(app, 'typed.mts'),
      `import { WorkflowClient, type ActivityTask } from '${PKG.name}';
       const c = new WorkflowClient({ region: 'us-east-1', version: 'latest', credentials: false });
       const w = c.pollActivity('arn:x', async (input: { n: number }, task: ActivityTask) => input.n + task.rawInput.length, { concurrency: 2, heartbeat: 10 });
       const stopped: Promise<void> = w.stop();
       // @ts-expect-error concurrency is a number
       c.pollActivity('arn:x', () => 1, { concurrency: 'many' });
       void stopped; void c.describeExecution({ executionArn: 'a' });\n`,
    );
    fs.writeFileSync(
      path.join(app, 'typed.cts'),
      `import client = require('${PKG.name}');
       const c: client.WorkflowClient = new client.WorkflowClient({ region: 'us-east-1', version: 'latest' });
       // @ts-expect-error no such method
       c.noSuchOperation();
       void c.testState({ definition: '{}' });\n`,
    );
    const tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
    await run(
      process.execPath,
      [tsc, '--noEmit', '--strict', '--module', 'node16', '--moduleResolution', 'node16', '--target', 'es2022', '--typeRoots', path.join(ROOT, 'node_modules', '@types'), '--types', 'node', 'typed.mts', 'typed.cts'],
      app,
      env,
    );
  });
});
