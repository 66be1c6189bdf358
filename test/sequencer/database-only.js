/**
 * A jest `--filter` that keeps the test files that may touch a database (test/sequencer/database-free.ts says
 * which cannot). CI's PostgreSQL suite runs with it: the database-free files already run in its SQLite suite.
 */
const path = require('node:path');
require('esbuild-register/dist/node').register({ target: 'node20' });
const { databaseReach } = require('./database-free.ts');

module.exports = async (testPaths) => {
  const root = path.join(__dirname, '..', '..');
  const rel = testPaths.map((p) => path.relative(root, p).split(path.sep).join('/'));
  const reach = databaseReach(root, rel);
  return { filtered: testPaths.filter((_, i) => reach.get(rel[i]) !== null) };
};
