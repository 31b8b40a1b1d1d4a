// The shell worker: the `worker` binary's wasm module (web/src/bin/worker.rs), which runs the
// engine, the shell and IndexedDB here, off the page's thread (web/src/worker/shell_worker.rs).
import init from './pkg/worker.js';

// When the wasm instance traps (a stack overflow, exhausted memory, an abort), the error surfaces
// here — often as an unhandled promise rejection, which the page's `onerror` never sees — and no
// Rust code can answer any more. Tell the page (protocol.rs `Response::Crashed`, as the object
// `protocol::to_js` would make), which starts a
// fresh worker and says what happened (`protocol::crash_explanation`).
let crashed = false;
function reportCrash(what) {
  if (crashed) return;
  crashed = true;
  const message = what instanceof Error ? `${what.name}: ${what.message}`
    : String((what && what.message) || what || 'the worker failed');
  self.postMessage({ kind: 'crashed', message });
}
self.addEventListener('error', (e) => { e.preventDefault(); reportCrash(e.error || e.message); });
self.addEventListener('unhandledrejection', (e) => { e.preventDefault(); reportCrash(e.reason); });

// Requests the page sends before the wasm module runs wait in `sproutEarlyRequests`; the module's
// message handler takes them over (web/src/worker/shell_worker.rs).
self.sproutEarlyRequests = [];
self.onmessage = (e) => self.sproutEarlyRequests.push(e.data);
init().catch(reportCrash);
