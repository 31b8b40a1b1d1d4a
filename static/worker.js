// The shell worker: the same wasm module as the page; its entry point sees no `document` and
// runs the engine, the shell and IndexedDB here instead of mounting the UI (web/src/shell_worker.rs).
import init from './pkg/web.js';
init();
