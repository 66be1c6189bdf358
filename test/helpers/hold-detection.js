/**
 * A test's hold on secret detection in a real server process (`node dist/src/main.js`), preloaded with
 * NODE_OPTIONS=--require (test/helpers/detection-hold.ts starts it). Preloads also run in worker threads: there,
 * in the detector's threads, each file's detection first waits while the file named by DETECTION_HOLD_FILE exists,
 * having created `<that file>.running`. So a test keeps a detection task in progress in a worker for as long as its
 * assertions take, instead of feeding the scan enough content to last that long, and then lets it finish.
 * The main thread and every other module are left alone; production code knows nothing of this.
 */
'use strict';
const fs = require('node:fs');
const Module = require('node:module');
const { isMainThread } = require('node:worker_threads');

const hold = process.env.DETECTION_HOLD_FILE;
const DETECTOR_INDEX = /[\\/]services[\\/]secret-scanning[\\/]detector[\\/]index\.js$/;
const POLL_MS = 10;

async function held() {
  if (!fs.existsSync(hold)) return;
  fs.writeFileSync(`${hold}.running`, String(process.pid));
  while (fs.existsSync(hold)) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
}

if (hold && !isMainThread) {
  const load = Module._load;
  Module._load = function (request, parent, isMain) {
    const exports = load.apply(this, arguments);
    if (exports && typeof exports.detectSecrets === 'function' && !exports.detectSecrets.held && DETECTOR_INDEX.test(Module._resolveFilename(request, parent, isMain))) {
      const detectSecrets = exports.detectSecrets;
      const wrapped = async (...args) => {
        await held();
        return detectSecrets(...args);
      };
      wrapped.held = true;
      exports.detectSecrets = wrapped;
    }
    return exports;
  };
}
