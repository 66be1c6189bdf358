// Secret scanning through Octokit, pointed at the gateway: open alerts of the acme organization and where each was found.
import { Octokit } from '@octokit/rest';

const octokit = new Octokit({ baseUrl: process.env.GW, auth: process.env.T });
const { data: alerts } = await octokit.rest.secretScanning.listAlertsForOrg({ org: 'acme', state: 'open', per_page: 5 });
for (const alert of alerts) {
  const [owner, repo] = alert.repository.full_name.split('/');
  const { data: locations } = await octokit.rest.secretScanning.listLocationsForAlert({ owner, repo, alert_number: alert.number });
  console.log(`#${alert.number} ${alert.secret_type_display_name} in ${alert.repository.full_name}:`,
    locations.map((l) => (l.type === 'commit' ? `${l.details.path}:${l.details.start_line}` : l.type)).join(', '));
}
