// The same job through @aws-sdk/client-sfn (credentials from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY).
import { readFileSync } from 'node:fs';
import { CreateStateMachineCommand, DescribeExecutionCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';

const sfn = new SFNClient({ region: 'us-east-1', endpoint: `${process.env.GW}/workflow`, disableHostPrefix: true });
const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({
  name: 'tour-hello', roleArn: 'arn:aws:iam::000000000000:role/tour',
  definition: readFileSync(new URL('hello.asl.json', import.meta.url), 'utf8'),
}));
const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn, input: JSON.stringify({ name: 'SDK' }) }));
let job = await sfn.send(new DescribeExecutionCommand({ executionArn }));
while (job.status === 'RUNNING') {
  await new Promise((resolve) => setTimeout(resolve, 200));
  job = await sfn.send(new DescribeExecutionCommand({ executionArn }));
}
console.log(job.status, job.output);
