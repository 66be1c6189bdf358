/**
 * Jest's own order (files that failed last time first, then the longest first, from its cache of the last run on
 * this checkout), with one addition: a file this checkout has never timed takes its duration from
 * test/sequencer/durations.json, measured on a full run. CI runs a fresh clone, where jest's cache knows no
 * file and falls back to ordering by file size: the fuzz and backfill files, short but minutes long, then started in
 * the last third of a suite and ran on one worker while the other had nothing left to do.
 * Refresh after a full run: `npx jest --json --outputFile=/tmp/r.json; node test/sequencer/durations.js /tmp/r.json [more.json ...]`
 * (the committed figures are the mean of both suites of a CI run).
 */
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const durations = require('./durations.json');

class DurationSequencer extends Sequencer {
  time(test) {
    const cached = super.time(test);
    if (cached != null) return cached;
    const measured = durations[path.relative(test.context.config.rootDir, test.path).split(path.sep).join('/')];
    return measured == null ? undefined : measured;
  }
}

module.exports = DurationSequencer;
