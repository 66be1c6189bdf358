/**
 * Real values for the fuzz test, taken from the seeded demo through the public APIs (as a client would
 * learn them): logins, repositories, alert numbers, REST and GraphQL cursors, global ids, ETags,
 * placeholder ids, secret types and providers. The generators build valid requests from these and tamper
 * with one part at a time.
 */
import { RepositoryEntity } from '../../../entities/identity';
import { generateToken } from '../../../src/auth/tokens';
import { seedDemo } from '../../../src/seed/demo';
import { gql, TestApp } from '../app';
import { signedCall } from '../sigv4';

export interface Auth {
  name: string;
  /** The Authorization header, or undefined for anonymous. */
  header?: string;
  /** The user's workflow access key: requests of signing families (AWS JSON) are SigV4-signed with it instead. */
  accessKey?: { accessKeyId: string; secretAccessKey: string };
}

/** A consistent set of path values: a repository, its owner, an organization and (optionally) an alert. */
export interface Binding {
  owner: string;
  repo: string;
  org: string;
  number?: number;
}

export interface FuzzFixtures {
  auths: Auth[];
  /** Alternatives for the `bad-token` credential. */
  badTokens: string[];
  logins: string[];
  orgs: string[];
  bindings: Binding[];
  restCursors: string[];
  gqlCursors: string[];
  nodeIds: string[];
  etags: string[];
  placeholderIds: string[];
  secretTypes: string[];
  providers: string[];
  /** Workflow values a client learns from the wire: definition and job ARNs, paging tokens. */
  workflow: {
    stateMachineArns: string[];
    executionArns: string[];
    nextTokens: string[];
    mapRunArns: string[];
    activityArns: string[];
    /** Stopped jobs (redrivable): the RedriveExecution row's executionArn. */
    redrivableArns: string[];
    /** Task tokens of jobs waiting on a callback, one pool per SendTask* row (a success or failure closes its task). */
    taskTokens: { success: string[]; failure: string[]; heartbeat: string[] };
    versionArns: string[];
    aliasArns: string[];
    /** EXPRESS machines (the StartSyncExecution rows'; not among stateMachineArns, which delete rows get). */
    expressArns: string[];
  };
  /** Calendar values a client learns from the lists: ids and slugs per collection (events, venues, …). */
  calendar: Record<string, { ids: number[]; slugs: string[] }>;
  /** Put the repositories' security settings back as seeded (fuzzed mutations may turn them off). */
  restoreSettings(): Promise<void>;
}

function linkCursors(link: string | null): string[] {
  if (!link) return [];
  return [...link.matchAll(/[?&](?:after|before)=([^&>]+)/g)].map((m) => decodeURIComponent(m[1]));
}

export async function seedFuzzFixtures(t: TestApp): Promise<FuzzFixtures> {
  const demo = await seedDemo(t.app.dataSource, t.app.deps.services);
  const token = (user: string) => demo.tokens.find((x) => x.user === user)!.token;
  const alice = token('alice');
  const keys = new Map<string, { accessKeyId: string; secretAccessKey: string }>();
  for (const user of new Set(demo.tokens.map((x) => x.user))) {
    const k = await t.app.deps.services.identity.createAccessKey(t.app.dataSource.manager, { user }, t.config.secretKey);
    keys.set(user, { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey });
  }
  const auths: Auth[] = [
    ...demo.tokens.map((x) => ({ name: x.user, header: `Bearer ${x.token}`, accessKey: keys.get(x.user) })),
    { name: 'anonymous' },
    // A bad credential: the test alternates between a well-formed but unknown token and a malformed one.
    { name: 'bad-token', header: 'Bearer gwc_x' },
  ];

  const rest = async (path: string) => {
    const res = await fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${alice}` } });
    return { status: res.status, headers: res.headers, body: (await res.json().catch(() => undefined)) as any };
  };

  const repos = [
    { owner: 'acme', repo: 'api' },
    { owner: 'acme', repo: 'website' },
    { owner: 'acme', repo: 'legacy' },
    { owner: 'alice', repo: 'dotfiles' },
  ];
  const bindings: Binding[] = [];
  const restCursors = new Set<string>();
  const etags = new Set<string>();
  const secretTypes = new Set<string>();
  const providers = new Set<string>();
  for (const r of repos) {
    const org = r.owner === 'alice' ? 'acme' : r.owner;
    bindings.push({ ...r, org });
    const list = await rest(`/repos/${r.owner}/${r.repo}/secret-scanning/alerts?per_page=100`);
    if (list.status !== 200) continue;
    for (const a of list.body as Array<{ number: number; secret_type: string; provider_slug: string | null }>) {
      bindings.push({ ...r, org, number: a.number });
      secretTypes.add(a.secret_type);
      if (a.provider_slug) providers.add(a.provider_slug);
      const one = await fetch(`${t.url}/repos/${r.owner}/${r.repo}/secret-scanning/alerts/${a.number}`, { headers: { authorization: `Bearer ${alice}` } });
      const etag = one.headers.get('etag');
      if (etag) etags.add(etag);
    }
    for (const q of ['per_page=1&after=', 'per_page=1&after=&sort=updated&direction=asc', 'per_page=1&before=']) {
      for (const c of linkCursors((await rest(`/repos/${r.owner}/${r.repo}/secret-scanning/alerts?${q}`)).headers.get('link'))) restCursors.add(c);
    }
  }
  for (const c of linkCursors((await rest('/orgs/acme/secret-scanning/alerts?per_page=1&after=')).headers.get('link'))) restCursors.add(c);

  const g = await gql(
    t.url,
    `{
      viewer { id }
      bob: user(login: "bob") { id }
      carol: user(login: "carol") { id }
      dave: user(login: "dave") { id }
      organization(login: "acme") {
        id
        repositories(first: 10) { edges { cursor node { id } } }
        secretScanningAlerts(first: 10) { edges { cursor node { id locations(first: 5) { edges { cursor } } } } }
      }
      repository(owner: "alice", name: "dotfiles") { id secretScanningAlerts(first: 5, orderBy: { field: UPDATED, direction: ASC }) { edges { cursor node { id } } } }
    }`,
    undefined,
    alice,
  );
  const nodeIds = new Set<string>();
  const gqlCursors = new Set<string>();
  const walk = (v: unknown, key?: string) => {
    if (Array.isArray(v)) return v.forEach((x) => walk(x));
    if (v && typeof v === 'object') return Object.entries(v).forEach(([k, x]) => walk(x, k));
    if (typeof v === 'string' && key === 'id') nodeIds.add(v);
    if (typeof v === 'string' && key === 'cursor') gqlCursors.add(v);
  };
  walk(g.body.data);
  if (g.body.errors?.length || nodeIds.size < 5 || gqlCursors.size < 5 || restCursors.size < 3 || etags.size < 3) {
    throw new Error(`fuzz fixtures incomplete: ${JSON.stringify({ errors: g.body.errors, ids: nodeIds.size, gql: gqlCursors.size, rest: restCursors.size, etags: etags.size })}`);
  }
  const workflow = await seedWorkflow(t, keys.get('alice')!);
  const calendar = await learnCalendar(t, alice);
  const repoRows = t.app.dataSource.getRepository(RepositoryEntity);
  const seeded = (await repoRows.find()).map((r) => ({
    id: r.id,
    settings: { secretScanning: r.secretScanning, pushProtection: r.pushProtection, advancedSecurity: r.advancedSecurity, delegatedAlertDismissal: r.delegatedAlertDismissal },
  }));
  const restoreSettings = async () => {
    for (const r of seeded) await repoRows.update(r.id, r.settings);
  };
  return {
    restoreSettings,
    auths,
    badTokens: [`token ${generateToken('classic')}`, 'Bearer gwc_x', 'Basic YWxpY2U6eA==', 'Bearer', `Bearer ${'x'.repeat(300)}`],
    logins: ['alice', 'bob', 'carol', 'dave', 'acme'],
    orgs: ['acme'],
    bindings,
    restCursors: [...restCursors],
    gqlCursors: [...gqlCursors],
    nodeIds: [...nodeIds],
    etags: [...etags],
    placeholderIds: demo.secretScanning?.blockedPlaceholderId ? [demo.secretScanning.blockedPlaceholderId] : [],
    secretTypes: [...secretTypes],
    providers: [...providers],
    workflow,
    calendar,
  };
}

/** Ids and slugs of the seeded calendar, read from each collection's list as its editor (alice) sees it. */
async function learnCalendar(t: TestApp, token: string): Promise<FuzzFixtures['calendar']> {
  const out: FuzzFixtures['calendar'] = {};
  for (const collection of ['events', 'venues', 'organizers', 'categories', 'tags']) {
    const res = await fetch(`${t.url}/calendar/events/v1/${collection}?per_page=50`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await res.json()) as Record<string, unknown>;
    const items = (Object.values(body).find(Array.isArray) ?? []) as Array<{ id?: number; slug?: string }>;
    out[collection] = { ids: items.map((x) => Number(x.id)).filter((x) => x > 0), slugs: items.map((x) => String(x.slug ?? '')).filter(Boolean) };
    if (!out[collection].ids.length) throw new Error(`fuzz fixtures: no calendar ${collection} (${res.status})`);
  }
  return out;
}

type HistoryItem = { type: string; taskSubmittedEventDetails?: { output: string } };

/** The job's first event of this type, once it is there. */
async function historyHas(call: (op: string, body: unknown) => Promise<any>, executionArn: string, type: string): Promise<HistoryItem> {
  const until = Date.now() + 60_000;
  for (;;) {
    const events = (await call('GetExecutionHistory', { executionArn, maxResults: 100 })).events as HistoryItem[];
    const found = events.find((e) => e.type === type);
    if (found) return found;
    if (Date.now() > until) throw new Error(`fuzz fixtures: ${executionArn} has no ${type} event`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A workflow definition with a few jobs, created over the wire with alice's access key. */
async function seedWorkflow(t: TestApp, key: { accessKeyId: string; secretAccessKey: string }): Promise<FuzzFixtures['workflow']> {
  const call = async (op: string, body: unknown) => {
    const r = await signedCall(t.url, { key, target: `AWSStepFunctions.${op}`, body: JSON.stringify(body) });
    if (r.status !== 200) throw new Error(`fuzz fixtures: ${op} answered ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  // Jobs wait an hour (the runner takes them into the Wait): running ones to stop, with some history.
  const definition = JSON.stringify({ StartAt: 'A', States: { A: { Type: 'Pass', Next: 'W' }, W: { Type: 'Wait', Seconds: 3600, End: true } } });
  const roleArn = 'arn:aws:iam::000000000000:role/fuzz';
  const arns: string[] = [];
  for (const name of ['fuzz-orders', 'fuzz-invoices']) arns.push((await call('CreateStateMachine', { name, definition, roleArn })).stateMachineArn);
  const executionArns: string[] = [];
  // Running jobs enough that every StopExecution row finds some still running; one stopped (with history).
  for (let i = 0; i < 12; i++) executionArns.push((await call('StartExecution', { stateMachineArn: arns[0], name: `fuzz-${i}`, input: `{"i":${i}}` })).executionArn);
  await call('StopExecution', { executionArn: executionArns[2], cause: 'fuzz fixture' });
  const nextTokens = [
    (await call('ListExecutions', { stateMachineArn: arns[0], maxResults: 1 })).nextToken,
    (await call('ListStateMachines', { maxResults: 1 })).nextToken,
    (await call('GetExecutionHistory', { executionArn: executionArns[2], maxResults: 1 })).nextToken,
  ];
  if (nextTokens.some((x) => typeof x !== 'string')) throw new Error('fuzz fixtures: no workflow paging tokens');
  // A Distributed Map whose children wait an hour: its run stays RUNNING (UpdateMapRun, DescribeMapRun, ListExecutions by run).
  const fan = JSON.stringify({
    StartAt: 'Fan',
    States: { Fan: { Type: 'Map', MaxConcurrency: 1, ItemProcessor: { ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' }, StartAt: 'W', States: { W: { Type: 'Wait', Seconds: 3600, End: true } } }, End: true } },
  });
  const fanArn = (await call('CreateStateMachine', { name: 'fuzz-fan', definition: fan, roleArn })).stateMachineArn;
  const parent = (await call('StartExecution', { stateMachineArn: fanArn, name: 'fuzz-fan-0', input: '[1,2,3]' })).executionArn;
  let mapRunArns: string[] = [];
  for (let i = 0; i < 400 && mapRunArns.length === 0; i++) {
    mapRunArns = ((await call('ListMapRuns', { executionArn: parent })).mapRuns as Array<{ mapRunArn: string }>).map((r) => r.mapRunArn);
    if (!mapRunArns.length) await new Promise((r) => setTimeout(r, 50));
  }
  if (!mapRunArns.length) throw new Error('fuzz fixtures: the Distributed Map started no Map Run');

  // Activities (no task scheduled: GetActivityTask answers empty after WORKFLOW_ACTIVITY_POLL_SECONDS).
  const activityArns: string[] = [];
  for (const name of ['fuzz-worker', 'fuzz-worker-2']) activityArns.push((await call('CreateActivity', { name })).activityArn);
  // Stopped jobs to redrive (each redrive makes one run again).
  const redrivableArns: string[] = [];
  for (let i = 0; i < 6; i++) {
    const arn = (await call('StartExecution', { stateMachineArn: arns[0], name: `fuzz-redrive-${i}` })).executionArn as string;
    // stopped once the runner has taken it into the Wait (a job stopped before it ran has nothing to resume)
    await historyHas(call, arn, 'WaitStateEntered');
    await call('StopExecution', { executionArn: arn });
    redrivableArns.push(arn);
  }
  // Jobs waiting on a callback: their tokens, as the callback's receiver reads them (the TaskSubmitted output).
  const callbackArn = (
    await call('CreateStateMachine', {
      name: 'fuzz-callbacks',
      roleArn,
      definition: JSON.stringify({ StartAt: 'Ask', States: { Ask: { Type: 'Task', Resource: 'arn:aws:states:::echo.waitForTaskToken', Parameters: { 'token.$': '$$.Task.Token' }, End: true } } }),
    })
  ).stateMachineArn;
  const waiting: string[] = [];
  for (let i = 0; i < 16; i++) waiting.push((await call('StartExecution', { stateMachineArn: callbackArn, name: `fuzz-callback-${i}` })).executionArn);
  const tokens: string[] = [];
  for (const executionArn of waiting) {
    const submitted = await historyHas(call, executionArn, 'TaskSubmitted');
    tokens.push((JSON.parse(submitted.taskSubmittedEventDetails!.output) as { token: string }).token);
  }
  // Two versions of a third definition and aliases routing to them (not among the ARNs DeleteStateMachine rows
  // get: its aliases must outlive them for the DeleteStateMachineAlias rows).
  const versioned = (await call('CreateStateMachine', { name: 'fuzz-versioned', definition, roleArn, publish: true })) as { stateMachineArn: string; stateMachineVersionArn: string };
  const versionArns = [versioned.stateMachineVersionArn];
  await call('UpdateStateMachine', { stateMachineArn: versioned.stateMachineArn, definition: definition.replace('3600', '3599') });
  versionArns.push((await call('PublishStateMachineVersion', { stateMachineArn: versioned.stateMachineArn })).stateMachineVersionArn);
  // A third version no alias routes to (the DeleteStateMachineVersion rows can delete it), and aliases enough that
  // the DeleteStateMachineAlias rows of both paths find some left.
  await call('UpdateStateMachine', { stateMachineArn: versioned.stateMachineArn, definition: definition.replace('3600', '3598') });
  versionArns.push((await call('PublishStateMachineVersion', { stateMachineArn: versioned.stateMachineArn })).stateMachineVersionArn);
  const aliasArns: string[] = [];
  for (const name of Array.from({ length: 16 }, (_, i) => `fuzz-alias-${i}`)) {
    aliasArns.push((await call('CreateStateMachineAlias', { name, routingConfiguration: [{ stateMachineVersionArn: versionArns[0], weight: 100 }] })).stateMachineAliasArn);
  }
  // An EXPRESS machine per path of the StartSyncExecution row (Pass only: each sync execution ends at once).
  const expressArns: string[] = [];
  for (const name of ['fuzz-express', 'fuzz-express-2']) {
    expressArns.push((await call('CreateStateMachine', { name, type: 'EXPRESS', roleArn, definition: JSON.stringify({ StartAt: 'P', States: { P: { Type: 'Pass', End: true } } }) })).stateMachineArn);
  }
  return {
    versionArns,
    aliasArns,
    expressArns,
    stateMachineArns: arns,
    executionArns: [...executionArns, parent],
    nextTokens,
    mapRunArns,
    activityArns,
    redrivableArns,
    taskTokens: { success: tokens.slice(0, 6), failure: tokens.slice(6, 12), heartbeat: tokens.slice(12) },
  };
}
