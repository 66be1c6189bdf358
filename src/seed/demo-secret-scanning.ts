/**
 * Demo secret scanning data, produced the real way: pushes scanned by the detector (alerts and
 * locations), a push blocked by push protection (a placeholder), an issue comment, a backfill scan,
 * and a triaged alert. The fake secrets are assembled at run time, so no credential-like literal is
 * committed and every demo database has its own.
 */
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AccountEntity } from '../../entities/identity';
import { generateToken } from '../auth/tokens';
import type { Viewer } from '../auth/viewer';
import { loadConfig } from '../config';
import { contextFor } from '../context';
import { createLogger } from '../observability/logger';
import type { Services } from '../services';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ALNUM = UPPER + 'abcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';

function chars(n: number, alphabet = ALNUM): string {
  const bytes = randomBytes(n);
  let out = '';
  for (let i = 0; i < n; i++) out += alphabet[bytes[i] % alphabet.length];
  return out;
}
const mixed = (n: number) => chars(n - 3) + chars(1, UPPER) + chars(1, 'abcdefghijklmnopqrstuvwxyz') + chars(1, '0123456789');
const sha = () => chars(40, HEX);

export interface DemoSecretScanning {
  alerts: number;
  blockedPlaceholderId?: string;
}

export async function seedSecretScanningDemo(dataSource: DataSource, services: Services): Promise<DemoSecretScanning> {
  const deps = { dataSource, services, config: loadConfig({}), log: createLogger('silent') };
  const users = dataSource.getRepository(AccountEntity);
  const as = async (login: string): Promise<Viewer> => ({
    kind: 'user',
    user: await users.findOneOrFail({ where: { loginLower: login } }),
    credential: { type: 'internal' },
  });
  const alice = contextFor(deps, 'seed', await as('alice'));
  const carol = contextFor(deps, 'seed', await as('carol'));
  const push = services.secretScanningPush;

  const website = await push.submitPush(alice, {
    repository: 'acme/website',
    ref: 'refs/heads/main',
    commits: [
      {
        sha: sha(),
        files: [
          { path: '.env', content: `NODE_ENV=production\nAWS_ACCESS_KEY_ID=${'AK' + 'IA' + chars(16, UPPER + '234567')}\nSLACK_TOKEN=${'xo' + 'xb-' + chars(12, '0123456789') + '-' + chars(12, '0123456789') + '-' + mixed(24)}\n` },
          { path: 'src/payments.js', content: `// TODO move to the vault\nconst stripe = require('stripe')("${'sk' + '_live_' + mixed(24)}");\nmodule.exports = stripe;\n` },
        ],
      },
    ],
  });
  const dotfiles = await push.submitPush(alice, {
    repository: 'alice/dotfiles',
    ref: 'refs/heads/main',
    commits: [{ sha: sha(), files: [{ path: '.npmrc', content: `//registry.npmjs.org/:_authToken=${'np' + 'm_' + mixed(36)}\n` }, { path: 'bin/deploy.sh', content: `#!/bin/sh\nexport GITHUB_TOKEN=${'gh' + 'p_' + mixed(36)}\nexport GATEWAY_TOKEN=${generateToken('classic')}\n` }] }],
  });
  const issue = await push.submitContent(alice, {
    repository: 'acme/website',
    locationType: 'issue_comment',
    url: 'https://example.com/acme/website/issues/1#issuecomment-1',
    content: `Here is the key for the mailer: ${'S' + 'G.' + mixed(22) + '.' + mixed(43)}`,
  });
  // acme/api has push protection: carol's push is blocked and leaves a placeholder she may bypass.
  const blocked = await push.submitPush(carol, {
    repository: 'acme/api',
    ref: 'refs/heads/feature',
    commits: [{ sha: sha(), files: [{ path: 'config/test.yml', content: `mailchimp_key: ${chars(32, HEX)}-us12\n` }] }],
  });
  await (await push.startScan(alice, { repository: 'acme/website', kind: 'backfill' })).done;
  // Triage: one alert resolved as a false positive, one assigned.
  const ss = services.secretScanningAlertUpdates;
  await ss.updateAlert(alice, website.repository, 2, {
    state: 'resolved',
    resolution: 'false_positive',
    resolutionComment: 'Sample token in the docs',
  });
  await ss.updateAlert(alice, website.repository, 1, { assignee: 'alice', validity: 'active' });
  return {
    alerts: (website.alerts?.length ?? 0) + (dotfiles.alerts?.length ?? 0) + (issue.alerts?.length ?? 0),
    blockedPlaceholderId: blocked.placeholders[0]?.placeholderId,
  };
}
