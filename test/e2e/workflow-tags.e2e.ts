/**
 * Tags with the REAL @aws-sdk/client-sfn: TagResource, UntagResource, ListTagsForResource on state machines and
 * activities, the `tags` of CreateStateMachine / CreateActivity, Step Functions' limits (50 per resource, key and
 * value lengths and characters, the reserved `aws:` prefix) and errors (TooManyTags, InvalidArn, ResourceNotFound),
 * concurrent tagging never passing 50, and tags going with their resource.
 */
import {
  CreateActivityCommand,
  CreateStateMachineCommand,
  DeleteActivityCommand,
  DeleteStateMachineCommand,
  ListTagsForResourceCommand,
  SFNClient,
  StartExecutionCommand,
  TagResourceCommand,
  UntagResourceCommand,
} from '@aws-sdk/client-sfn';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';
import { errorOf, sfnClientFor } from '../helpers/workflow-jobs';

const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';
const PASS = JSON.stringify({ StartAt: 'P', States: { P: { Type: 'Pass', End: true } } });

describe('workflow tags (@aws-sdk/client-sfn)', () => {
  let t: TestApp;
  let sfn: SFNClient;
  let bob: SFNClient;

  beforeAll(async () => {
    t = await startTestApp({ env: { WORKFLOW_RUNNER: 'off' } });
    const fx = new IdentityFixtures(t.db.dataSource);
    const client = (login: string) => sfnClientFor(t, fx, login);
    sfn = await client('tag');
    bob = await client('tagbob');
  });
  afterAll(async () => {
    sfn?.destroy();
    bob?.destroy();
    await t?.close();
  });

  const tagsOf = async (resourceArn: string) => (await sfn.send(new ListTagsForResourceCommand({ resourceArn }))).tags;

  it('state machines: tags at creation, tag (add and change), untag, list by key; gone with the machine', async () => {
    const name = uniq('tagged');
    const { stateMachineArn } = await sfn.send(
      new CreateStateMachineCommand({ name, definition: PASS, roleArn: ROLE, tags: [{ key: 'team', value: 'payments' }, { key: 'env', value: 'dev' }] }),
    );
    expect(await tagsOf(stateMachineArn!)).toEqual([{ key: 'env', value: 'dev' }, { key: 'team', value: 'payments' }]);
    // An idempotent repeat of the creation ignores its tags (as Step Functions does).
    await sfn.send(new CreateStateMachineCommand({ name, definition: PASS, roleArn: ROLE, tags: [{ key: 'other', value: 'x' }] }));
    expect(await tagsOf(stateMachineArn!)).toHaveLength(2);

    await sfn.send(new TagResourceCommand({ resourceArn: stateMachineArn, tags: [{ key: 'env', value: 'prod' }, { key: 'cost center', value: 'a/b=c+d-e@f.g:h_i' }, { key: 'empty', value: '' }] }));
    expect(await tagsOf(stateMachineArn!)).toEqual([
      { key: 'cost center', value: 'a/b=c+d-e@f.g:h_i' },
      { key: 'empty', value: '' },
      { key: 'env', value: 'prod' },
      { key: 'team', value: 'payments' },
    ]);
    await sfn.send(new UntagResourceCommand({ resourceArn: stateMachineArn, tagKeys: ['env', 'not-there'] }));
    expect((await tagsOf(stateMachineArn!))!.map((x) => x.key)).toEqual(['cost center', 'empty', 'team']);

    // Another user may read the tags but not change them (as the machine itself).
    expect((await bob.send(new ListTagsForResourceCommand({ resourceArn: stateMachineArn }))).tags).toHaveLength(3);
    expect(await errorOf(bob.send(new TagResourceCommand({ resourceArn: stateMachineArn, tags: [{ key: 'k', value: 'v' }] })))).toBe('AccessDeniedException 400');

    await sfn.send(new DeleteStateMachineCommand({ stateMachineArn }));
    expect(await errorOf(tagsOf(stateMachineArn!))).toBe('ResourceNotFound 400');
    await sfn.send(new CreateStateMachineCommand({ name, definition: PASS, roleArn: ROLE }));
    expect(await tagsOf(stateMachineArn!)).toEqual([]);
  });

  it('activities: tags at creation, tag, untag; gone with the activity', async () => {
    const { activityArn } = await sfn.send(new CreateActivityCommand({ name: uniq('act'), tags: [{ key: 'queue', value: 'emails' }] }));
    expect(await tagsOf(activityArn!)).toEqual([{ key: 'queue', value: 'emails' }]);
    await bob.send(new TagResourceCommand({ resourceArn: activityArn, tags: [{ key: 'owner', value: 'bob' }] }));
    await sfn.send(new UntagResourceCommand({ resourceArn: activityArn, tagKeys: ['queue'] }));
    expect(await tagsOf(activityArn!)).toEqual([{ key: 'owner', value: 'bob' }]);
    await sfn.send(new DeleteActivityCommand({ activityArn }));
    expect(await errorOf(tagsOf(activityArn!))).toBe('ResourceNotFound 400');
  });

  it("Step Functions' limits and errors", async () => {
    const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: uniq('limits'), definition: PASS, roleArn: ROLE }));
    const tag = (tags: { key?: string; value?: string }[], resourceArn = stateMachineArn) => errorOf(sfn.send(new TagResourceCommand({ resourceArn, tags })));
    const fifty = Array.from({ length: 50 }, (_, i) => ({ key: `k${i}`, value: `v${i}` }));
    expect(await tag(fifty)).toBe('ok');
    expect(await tag([{ key: 'k0', value: 'changed' }])).toBe('ok'); // a change, not a 51st
    expect(await tag([{ key: 'one-more', value: 'x' }])).toBe('TooManyTags 400');
    expect(await tagsOf(stateMachineArn!)).toHaveLength(50);
    expect(await errorOf(sfn.send(new CreateStateMachineCommand({ name: uniq('many'), definition: PASS, roleArn: ROLE, tags: [...fifty, { key: 'x', value: 'y' }] })))).toBe(
      'TooManyTags 400',
    );

    expect(await tag([{ key: 'k'.repeat(129), value: 'v' }])).toBe('ValidationException 400');
    expect(await tag([{ key: 'k', value: 'v'.repeat(257) }])).toBe('ValidationException 400');
    expect(await tag([{ key: '', value: 'v' }])).toBe('ValidationException 400');
    expect(await tag([{ key: 'aws:reserved', value: 'v' }])).toBe('ValidationException 400');
    expect(await tag([{ key: 'AWS:Reserved', value: 'v' }])).toBe('ValidationException 400');
    expect(await tag([{ key: 'semi;colon', value: 'v' }])).toBe('ValidationException 400');
    expect(await tag([{ key: 'k', value: 'bad*value' }])).toBe('ValidationException 400');

    const other = await sfn.send(new CreateStateMachineCommand({ name: uniq('targets'), definition: PASS, roleArn: ROLE }));
    expect(await tag([{ key: 'k', value: 'v' }], `${other.stateMachineArn}-missing`)).toBe('ResourceNotFound 400');
    expect(await tag([{ key: 'k', value: 'v' }], 'arn:aws:states:us-east-1:000000000000:activity:no-such-activity')).toBe('ResourceNotFound 400');
    expect(await tag([{ key: 'k', value: 'v' }], 'not-an-arn')).toBe('InvalidArn 400');
    expect(await tag([{ key: 'k', value: 'v' }], `${other.stateMachineArn}:1`)).toBe('InvalidArn 400');
    const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn: other.stateMachineArn }));
    expect(await tag([{ key: 'k', value: 'v' }], executionArn)).toBe('InvalidArn 400');
    expect(await errorOf(sfn.send(new ListTagsForResourceCommand({ resourceArn: executionArn })))).toBe('InvalidArn 400');
    expect(await errorOf(sfn.send(new UntagResourceCommand({ resourceArn: 'arn:aws:iam::000000000000:role/x', tagKeys: ['k'] })))).toBe('InvalidArn 400');
  });

  it('concurrent tagging never passes 50 tags', async () => {
    const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: uniq('race'), definition: PASS, roleArn: ROLE }));
    await sfn.send(new TagResourceCommand({ resourceArn: stateMachineArn, tags: Array.from({ length: 40 }, (_, i) => ({ key: `base${i}`, value: 'x' })) }));
    // Four requests of five new keys each: only two fit.
    const outcomes = await Promise.all(
      [0, 1, 2, 3].map((r) => errorOf(sfn.send(new TagResourceCommand({ resourceArn: stateMachineArn, tags: Array.from({ length: 5 }, (_, i) => ({ key: `r${r}-${i}`, value: 'y' })) })))),
    );
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(2);
    expect(outcomes.filter((o) => o === 'TooManyTags 400')).toHaveLength(2);
    expect(await tagsOf(stateMachineArn!)).toHaveLength(50);
  });
});
