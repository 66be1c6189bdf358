/**
 * The README's tour, run as a newcomer runs it: `npm start`'s demo (the built server as a process, seeding a fresh
 * SQLite file, on a free port), then `scripts/tour.sh` with curl, Octokit, the AWS CLI, @aws-sdk/client-sfn and the
 * workflow client package. Each block's output is checked against what the server holds, and the banner the server
 * printed against the README's sample (tokens and keys shortened as the README shows them).
 *
 * The demo is SQLite whatever DATABASE_URL the suite runs with: it is what `npm install && npm start` gives.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, ServerProcess, startServerProcess } from '../helpers/process';

jest.setTimeout(240_000);

/** The banner as the README shows it: secrets shortened, the port npm start uses. */
function shortened(banner: string, port: string): string {
  return banner
    .replace(/gw([cf])_[A-Za-z0-9]+/g, 'gw$1_…')
    .replace(/AKIA[A-Z0-9]{16}/g, 'AKIA…')
    .replace(/ \/ [A-Za-z0-9/+]{40}\b/g, ' / …')
    .replace(/placeholder [A-Za-z0-9_-]+,/g, 'placeholder …,')
    .replaceAll(`:${port}`, ':4000');
}

/** A port nobody listens on now: the server gets a real PORT, as npm start has, so its URLs name localhost. */
async function freePort(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return String(port);
}

describe('the README tour against the demo', () => {
  let dir: string;
  let server: ServerProcess;
  let token: string;
  let run: { code: number; stdout: string; stderr: string };
  const out: Record<string, string> = {};

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gw-tour-'));
    const database = `sqlite:${join(dir, 'gateway.sqlite')}`;
    // HOST and PORT as npm start has them (0.0.0.0, a fixed port): the banner names localhost, as the README shows.
    server = await startServerProcess({ DATABASE_URL: database, HOST: '0.0.0.0', PORT: await freePort() }, 90_000);
    const credentials = join(dir, 'gateway.sqlite.demo-credentials.json');
    token = (JSON.parse(readFileSync(credentials, 'utf8')) as { tokens: Array<{ user: string; token: string }> }).tokens.find((t) => t.user === 'alice')!.token;
    run = await new Promise((resolve) => {
      execFile(
        'bash',
        [join(ROOT, 'scripts/tour.sh')],
        {
          cwd: dir,
          timeout: 200_000,
          env: {
            PATH: process.env.PATH,
            HOME: dir,
            GW: server.url.replace('127.0.0.1', 'localhost'),
            CREDENTIALS: credentials,
            DATABASE_URL: database, // the admin CLI's access key goes into the demo's database
            AWS_CONFIG_FILE: '/dev/null',
            AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
          },
        },
        (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
    for (const m of run.stdout.matchAll(/^== (\S+)\n([\s\S]*?)(?=^== |(?![\s\S]))/gm)) out[m[1]] = m[2].trim();
  });

  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    rmSync(dir, { recursive: true, force: true });
  });

  const get = async (path: string, auth = `token ${token}`) => {
    const res = await fetch(server.url + path, { headers: auth ? { authorization: auth } : {} });
    expect(res.status).toBe(200);
    return res;
  };

  it('runs every block of the tour without an error', () => {
    expect({ code: run.code, stderr: run.stderr.split('\n').filter((l) => /error|exception|denied|not found/i.test(l)) }).toEqual({ code: 0, stderr: [] });
    expect(Object.keys(out)).toEqual([
      'setup',
      'secret-scanning-graphql',
      'octokit',
      'calendar-graphql',
      'calendar-rest',
      'ics',
      'aws-cli',
      'sdk',
      'workflow-client',
      'workflow-graphql',
    ]);
  });

  it("prints npm start's banner as the README shows it", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const sample = /^<!-- banner -->\n```\n([\s\S]*?)^```$/m.exec(readme)![1];
    // stdout carries the JSON log lines too (pino).
    const banner = server.stdout().split('\n').filter((l) => !l.startsWith('{')).join('\n');
    expect(shortened(banner, new URL(server.url).port).trim()).toBe(sample.trim());
  });

  it('secret scanning: GraphQL and Octokit list the open alerts the REST API has', async () => {
    const open = (await (await get('/orgs/acme/secret-scanning/alerts?state=open&per_page=100')).json()) as Array<{
      number: number;
      secret_type: string;
      secret_type_display_name: string;
      repository: { name: string; full_name: string };
    }>;
    expect(open.length).toBeGreaterThan(0);
    const graphql = JSON.parse(out['secret-scanning-graphql']).data;
    expect(graphql.viewer.login).toBe('alice');
    expect(graphql.organization.secretScanningAlerts).toEqual({
      totalCount: open.length,
      nodes: open.slice(0, 3).map((a) => ({ number: a.number, secretType: a.secret_type, repository: { name: a.repository.name } })),
    });
    const lines = out.octokit.split('\n');
    expect(lines.map((l) => l.slice(0, l.indexOf(':')))).toEqual(
      open.slice(0, 5).map((a) => `#${a.number} ${a.secret_type_display_name} in ${a.repository.full_name}`),
    );
    // Each alert's locations: a commit's as path:line (the demo's pushes), other kinds by their type.
    for (const [i, a] of open.slice(0, 5).entries()) {
      const locations = (await (await get(`/repos/${a.repository.full_name}/secret-scanning/alerts/${a.number}/locations`)).json()) as Array<{
        type: string;
        details: { path?: string; start_line?: number };
      }>;
      const shown = locations.map((l) => (l.type === 'commit' ? `${l.details.path}:${l.details.start_line}` : l.type)).join(', ');
      expect(lines[i]).toBe(`#${a.number} ${a.secret_type_display_name} in ${a.repository.full_name}: ${shown}`);
    }
    expect(out.octokit).toMatch(/: \S+:\d+/);
  });

  it('calendar: GraphQL and REST lists, a new event written with an application password, and the .ics feed', async () => {
    const music = JSON.parse(out['calendar-graphql']).data.events;
    expect(music.totalCount).toBeGreaterThanOrEqual(3);
    expect(music.nodes).toHaveLength(3);
    for (const e of music.nodes) expect(e.startDate).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    const [jazz, created] = [out['calendar-rest'].split('\n').slice(0, 3), out['calendar-rest'].split('\n')[3]];
    const list = (await (await get('/calendar/events/v1/events?per_page=3&categories=jazz', '')).json()) as { events: Array<{ start_date: string; title: string }> };
    // The new event is no jazz, so the list read afterwards is the list the tour printed.
    expect(jazz).toEqual(list.events.map((e) => `${e.start_date}  ${e.title}`));
    expect(jazz).toHaveLength(3);

    const m = /^(\d+) (http:\/\/localhost:\d+\/calendar\/event\/tour-night\/)$/.exec(created)!;
    expect(m).not.toBeNull();
    const event = (await (await get(`/calendar/events/v1/events/${m[1]}`, '')).json()) as {
      title: string;
      status: string;
      url: string;
      timezone: string;
      start_date: string;
      end_date: string;
      venue: { venue: string };
      author: string;
    };
    expect(event).toMatchObject({ title: 'Tour night', status: 'publish', url: m[2], timezone: 'America/New_York', venue: { venue: 'Blue Note' } });
    // "next friday 19:00" in the site's calendar: a Friday, 19:00 to 22:00.
    expect(new Date(`${event.start_date.slice(0, 10)}T00:00:00Z`).getUTCDay()).toBe(5);
    expect([event.start_date.slice(11), event.end_date]).toEqual(['19:00:00', `${event.start_date.slice(0, 10)} 22:00:00`]);

    expect(out.ics.split(/\r?\n/)).toEqual([
      `DTSTART;TZID=America/New_York:${event.start_date.slice(0, 10).replaceAll('-', '')}T190000`,
      'SUMMARY:Tour night',
      expect.stringMatching(/^LOCATION:Blue Note\\n131 W 3rd St/),
    ]);
  });

  it('workflow: the same JSONata job through the AWS CLI, the SDK and the client package, then over GraphQL', () => {
    expect(out['aws-cli']).toBe('SUCCEEDED\t{"greeting":"Hello, newcomer","letters":8}');
    expect(out.sdk).toBe('SUCCEEDED {"greeting":"Hello, SDK","letters":3}');
    expect(out['workflow-client']).toBe('SUCCEEDED {"greeting":"Hello, client","letters":6}');
    const jobs = JSON.parse(out['workflow-graphql']).data.workflowJobs;
    expect(jobs.totalCount).toBe(3);
    // Newest first.
    expect(jobs.nodes.map((j: { status: string; output: string; definition: { name: string } }) => [j.status, JSON.parse(j.output).greeting, j.definition.name])).toEqual([
      ['SUCCEEDED', 'Hello, client', 'tour-hello'],
      ['SUCCEEDED', 'Hello, SDK', 'tour-hello'],
      ['SUCCEEDED', 'Hello, newcomer', 'tour-hello'],
    ]);
  });
});
