#!/usr/bin/env bash
# The README's one-minute tour, runnable against `npm start`'s demo (GW=<url> CREDENTIALS=<file> for another demo).
# The blocks between "# tour: <name>" and "# end" are shown verbatim in README.md (`node scripts/readme-tour.mjs`
# copies them, test/unit/readme.spec.ts checks that they match); test/e2e/tour.e2e.ts runs this script against a
# freshly seeded demo and checks what each block prints.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== %s\n' "$1"; }

step setup
# tour: setup
export GW=${GW:-http://localhost:4000}                                       # where npm start listens
json() { node -p "const d = JSON.parse(require('fs').readFileSync(0, 'utf8')); $1"; }  # d: the JSON on stdin
export T=$(json d.tokens[0].token < "${CREDENTIALS:-data/gateway.sqlite.demo-credentials.json}")  # alice's token
gql() { curl -sG -w '\n' $GW/graphql -H 'apollo-require-preflight: 1' -H "authorization: Bearer $T" --data-urlencode "query=$1"; }
# end

step secret-scanning-graphql
# tour: secret-scanning-graphql
gql '{ viewer { login } organization(login: "acme") {
  secretScanningAlerts(first: 3, filter: { state: OPEN }) { totalCount nodes { number secretType repository { name } } } } }'
# end

step octokit
# tour: octokit
node scripts/tour/octokit.mjs
# end

step calendar-graphql
# tour: calendar-graphql
gql '{ events(first: 3, where: { categories: ["music"] }) { totalCount nodes { title startDate venue { city } } } }'
# end

step calendar-rest
# tour: calendar-rest
curl -s "$GW/calendar/events/v1/events?per_page=3&categories=jazz" | json "d.events.map((e) => e.start_date + '  ' + e.title).join('\n')"
curl -s -u "alice:$T" $GW/calendar/events/v1/events -d title='Tour night' -d venue=1 -d status=publish \
  -d start_date='next friday 19:00' -d end_date='next friday 22:00' -d timezone=America/New_York | json "d.id + ' ' + d.url"
# end

step ics
# tour: ics
curl -s "$GW/calendar/events.ics?search=tour" | sed -n '/BEGIN:VEVENT/,/END:VEVENT/p' | grep -E '^(SUMMARY|DTSTART|LOCATION)'
# end

step aws-cli
# tour: aws-cli
KEY=$(node dist/src/cli.js create-access-key --user alice)             # a workflow access key (= npm run admin -- …)
export AWS_ACCESS_KEY_ID=$(echo "$KEY" | json d.accessKeyId) AWS_SECRET_ACCESS_KEY=$(echo "$KEY" | json d.secretAccessKey)
export AWS_DEFAULT_REGION=us-east-1 AWS_ACCOUNT_ID=000000000000       # the demo's WORKFLOW_REGION and _ACCOUNT_ID
SFN="aws stepfunctions --endpoint-url $GW/workflow"
SM=$($SFN create-state-machine --name tour-hello --role-arn arn:aws:iam::000000000000:role/tour \
  --definition file://scripts/tour/hello.asl.json --query stateMachineArn --output text)
JOB=$($SFN start-execution --state-machine-arn $SM --input '{"name":"newcomer"}' --query executionArn --output text)
while [ "$($SFN describe-execution --execution-arn $JOB --query status --output text)" = RUNNING ]; do sleep 1; done
$SFN describe-execution --execution-arn $JOB --query '[status, output]' --output text
# end

step sdk
# tour: sdk
node scripts/tour/sfn.mjs
# end

step workflow-client
# tour: workflow-client
node scripts/tour/workflow-client.mjs
# end

step workflow-graphql
# tour: workflow-graphql
gql '{ workflowJobs(first: 3) { totalCount nodes { name status output definition { name } } } }'
# end
