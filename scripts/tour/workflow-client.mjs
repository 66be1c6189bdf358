// The same job through this repository's client package (packages/workflow-client; credentials from the environment).
import { readFileSync } from 'node:fs';
import { WorkflowClient } from '@graphql-domain-gateway/workflow-client';

const client = new WorkflowClient({ region: 'us-east-1', version: '2016-11-23', endpoint: `${process.env.GW}/workflow` });
const { stateMachineArn } = await client.createStateMachine({
  name: 'tour-hello', roleArn: 'arn:aws:iam::000000000000:role/tour',
  definition: readFileSync(new URL('hello.asl.json', import.meta.url), 'utf8'),
});
const { executionArn } = await client.startExecution({ stateMachineArn, input: JSON.stringify({ name: 'client' }) });
await client.waitUntil('ExecutionSucceeded', { executionArn, '@waiter': { delay: 1, maxAttempts: 30 } });
const job = await client.describeExecution({ executionArn });
console.log(job.status, job.output);
client.destroy();
