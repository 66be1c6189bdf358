/**
 * Runs one autocannon load in a child process (forked by load.ts), so the load generator does not share
 * the servers' event loop; it still shares the machine (on 2 cores, roughly one for each side).
 * A child process rather than a worker thread: inside a worker thread autocannon skips its own result
 * aggregation (it assumes its workers mode) and returns encoded histograms.
 */
import autocannon from 'autocannon';

process.once('message', (opts: autocannon.Options) => {
  autocannon(opts, (err, result) => {
    const reply = err ? { ok: false, error: err.message } : { ok: true, result: JSON.parse(JSON.stringify(result)) };
    process.send!(reply, () => process.exit(0));
  });
});
