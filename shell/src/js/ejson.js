// EJSON, as mongosh has it (js-bson's Extended JSON helpers), over the natives in ejson.rs.
// `relaxed` defaults to true, as in js-bson; stringify's `space` indents as JSON.stringify's.
(function (g, native) {
  'use strict';
  function relaxed(options) {
    return !options || typeof options !== 'object' || options.relaxed === undefined || !!options.relaxed;
  }
  function spaces(space) {
    if (typeof space === 'number') return space;
    if (typeof space === 'string') return space.length;
    return 0;
  }
  var EJSON = {
    stringify: function (value, replacer, space, options) {
      // stringify(value, options) and stringify(value, replacer, options) are allowed.
      if (replacer !== null && typeof replacer === 'object' && !Array.isArray(replacer)) {
        options = replacer; replacer = undefined; space = 0;
      } else if (space !== null && typeof space === 'object') {
        options = space; space = 0;
      }
      if (replacer !== undefined && replacer !== null) {
        throw new TypeError('EJSON.stringify: a replacer is not supported in this shell; pass undefined');
      }
      return native.ejsonStringify(value, relaxed(options), spaces(space));
    },
    parse: function (text) { return native.ejsonParse(String(text)); },
    serialize: function (value, options) { return JSON.parse(native.ejsonStringify(value, relaxed(options), 0)); },
    deserialize: function (ejson) { return native.ejsonParse(JSON.stringify(ejson)); },
  };
  Object.defineProperty(g, 'EJSON', { value: Object.freeze(EJSON), writable: true, configurable: true, enumerable: false });
})(globalThis, __sproutNative);
