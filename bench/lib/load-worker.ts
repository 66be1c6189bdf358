/**
 * Runs one autocannon load in a worker thread, so the load generator does not share the servers' event
 * loop (it still shares the machine: on 2 cores, roughly one for the client and one for the server).
 */
import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';

const opts = workerData as autocannon.Options;
autocannon(opts, (err, result) => {
  if (err) parentPort!.postMessage({ ok: false, error: err.message });
  else parentPort!.postMessage({ ok: true, result: JSON.parse(JSON.stringify(result)) });
});
