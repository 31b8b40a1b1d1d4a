// `require` and `console` (js/node_shim.js) are for the Node.js listings only, and evaluating the
// shim is a sixth of a fresh shell's start-up: it is evaluated on first use of either name.
// Both start as accessors; the shim replaces them with its own data properties.
(function (g, native) {
  'use strict';
  var loaded = false;
  function load() {
    if (loaded) return;
    loaded = true;
    (0, eval)(native.nodeShimSource());
  }
  ['require', 'console'].forEach(function (name) {
    Object.defineProperty(g, name, {
      get: function () { load(); return g[name]; },
      set: function (v) { load(); g[name] = v; },
      configurable: true, enumerable: false,
    });
  });
})(globalThis, __sproutNative);
