/**
 * jest-runtime with V8's code cache kept per worker (jest's `runtime` option). Jest evaluates every module afresh
 * for each test file, in the file's own context, and so compiles it again each time: a file that only starts an app
 * compiles the same ~2,000 modules as the file before it. The code V8 produces for a source does not depend on the
 * context, so a worker keeps what it produced (in memory, for its lifetime) and hands it back when the same source
 * is compiled again. V8 checks the data against the source and its flags and rejects what does not fit; a rejected
 * entry is produced again. Nothing is written to disk. `JEST_CODE_CACHE=0` turns it off;
 * `JEST_CODE_CACHE_STATS=1` prints each worker's hits and misses when it exits.
 */
const vm = require('node:vm');
const Runtime = require('jest-runtime').default;

/** filename -> the source compiled last and V8's data for it */
const cache = new Map();
const stats = { hits: 0, misses: 0, rejected: 0 };
const compileFunction = vm.compileFunction;

function cachedCompileFunction(code, params, options) {
  const filename = options && options.filename;
  if (!filename || options.cachedData || options.produceCachedData) return compileFunction.apply(this, arguments);
  const hit = cache.get(filename);
  if (hit && hit.code === code) {
    const fn = compileFunction.call(this, code, params, { ...options, cachedData: hit.data });
    if (!fn.cachedDataRejected) {
      stats.hits++;
      return fn;
    }
    // A V8 flag set since it was produced (the JSONata module sets one when it loads) changes the flags' hash.
    stats.rejected++;
  }
  stats.misses++;
  const fn = compileFunction.call(this, code, params, { ...options, produceCachedData: true });
  if (fn.cachedDataProduced && fn.cachedData) cache.set(filename, { code, data: fn.cachedData });
  return fn;
}

if (process.env.JEST_CODE_CACHE !== '0') vm.compileFunction = cachedCompileFunction;
if (process.env.JEST_CODE_CACHE_STATS === '1') {
  process.on('exit', () => process.stderr.write(`code cache: ${cache.size} sources, ${stats.hits} hits, ${stats.misses} misses, ${stats.rejected} rejected\n`));
}

module.exports = Runtime;
module.exports.default = Runtime;
