// Memory guards for learner code. Boa has no heap limit, and a failed allocation would end the
// page, so the built-ins that can make one huge value in a single call refuse sizes past these
// caps with the RangeError V8 gives for the same call. Blocking primitives that would freeze
// the page (Atomics.wait on shared memory) do not exist: the vendored Boa sets up neither
// SharedArrayBuffer nor Atomics (vendor/boa_engine/src/builtins/mod.rs).
(function (g) {
  'use strict';
  var MAX_STRING = 1 << 25; // UTF-16 units (64 MiB)
  var MAX_ARRAY = 1 << 22; // elements
  var MAX_COLLECTION = 1 << 20; // Map and Set entries
  function hide(obj, key, value) {
    Object.defineProperty(obj, key, { value: value, writable: true, configurable: true, enumerable: false });
  }
  function stringLength(n) {
    if (n > MAX_STRING) throw new RangeError('Invalid string length');
  }
  function arrayLength(n) {
    if (n > MAX_ARRAY) throw new RangeError('Invalid array length');
  }

  var S = String.prototype;
  var repeat = S.repeat;
  hide(S, 'repeat', function repeat_(count) {
    var n = Math.floor(Number(count));
    if (n > 0) stringLength(String(this).length * n);
    return repeat.call(this, count);
  });
  ['padStart', 'padEnd'].forEach(function (name) {
    var pad = S[name];
    hide(S, name, function (targetLength, fill) {
      stringLength(Number(targetLength));
      return pad.call(this, targetLength, fill);
    });
  });

  var A = Array.prototype;
  // Joining is bounded by its result, not by the elements: `Array(16 * 1024 * 1024).toString()`
  // (jstests build 16 MB strings so) walks holes and makes one comma per element, as mongosh
  // does; the separators alone may not pass the string cap (`toString` calls `this.join`).
  function joinLength(array, separator) {
    var n = Number(array.length) || 0;
    var each = separator === undefined ? 1 : String(separator).length;
    if (n > MAX_STRING || (n - 1) * each > MAX_STRING) throw new RangeError('Invalid string length');
  }
  var join = A.join;
  hide(A, 'join', Object.defineProperty(function (separator) {
    if (this != null) joinLength(this, separator);
    return join.apply(this, arguments);
  }, 'name', { value: 'join' }));
  var toLocaleString = A.toLocaleString;
  hide(A, 'toLocaleString', Object.defineProperty(function () {
    if (this != null) joinLength(this, ',');
    return toLocaleString.apply(this, arguments);
  }, 'name', { value: 'toLocaleString' }));
  ['fill', 'reverse', 'sort', 'map', 'flat', 'flatMap', 'slice', 'splice',
    'concat', 'copyWithin', 'indexOf', 'lastIndexOf', 'includes', 'forEach', 'filter', 'reduce', 'every', 'some',
    'find', 'findIndex', 'toReversed', 'toSorted', 'toSpliced', 'with', 'keys', 'values', 'entries']
    .forEach(function (name) {
      var f = A[name];
      if (typeof f !== 'function') return;
      hide(A, name, Object.defineProperty(function () {
        if (this != null) arrayLength(Number(this.length) || 0);
        return f.apply(this, arguments);
      }, 'name', { value: name }));
    });
  var RealArray = Array;
  var from = RealArray.from;
  RealArray.from = function (items) {
    if (items != null) arrayLength(Number(items.length) || 0);
    return from.apply(this, arguments);
  };

  // Maps and Sets grow one entry at a time, so a loop can fill memory within the loop limit
  // (9e6 entries); V8 stops at 2^24 entries with this message, the shell earlier.
  [['Map', 'set'], ['Set', 'add']].forEach(function (pair) {
    var proto = g[pair[0]].prototype;
    var add = proto[pair[1]];
    var has = proto.has;
    var size = Object.getOwnPropertyDescriptor(proto, 'size').get;
    hide(proto, pair[1], Object.defineProperty(function () {
      if (size.call(this) >= MAX_COLLECTION && !has.call(this, arguments[0])) {
        throw new RangeError(pair[0] + ' maximum size exceeded (the shell allows ' + MAX_COLLECTION + ' entries)');
      }
      return add.apply(this, arguments);
    }, 'name', { value: pair[1] }));
  });

  // Listing the keys of a String object or a typed array makes one string per character or
  // element, and `entries` an array per key besides: `Object.entries(a)` of a String object of
  // 31.8 million characters filled 4 GB (the shell_program fuzzer). Past the array cap these
  // refuse as V8 refuses an array that long.
  var stringValueOf = S.valueOf;
  var typedLength = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), 'length').get;
  var isView = ArrayBuffer.isView;
  // Without throwing for the ordinary objects the shell's own code lists all the time: a
  // String object's `length` cannot be redefined, so only one past the cap is looked at closer.
  function indexedKeys(o) {
    if (typeof o === 'string') return o.length;
    if (o === null || typeof o !== 'object') return 0;
    if (isView(o)) {
      try { return typedLength.call(o); } catch (e) { return 0; }
    }
    var n = o.length;
    if (typeof n !== 'number' || !(n > MAX_ARRAY)) return 0;
    try { return stringValueOf.call(o).length; } catch (e) { return 0; }
  }
  [[Object, ['keys', 'values', 'entries', 'getOwnPropertyNames', 'getOwnPropertyDescriptors']],
    [Reflect, ['ownKeys']]].forEach(function (pair) {
    pair[1].forEach(function (name) {
      var f = pair[0][name];
      hide(pair[0], name, Object.defineProperty(function (o) {
        arrayLength(indexedKeys(o));
        return f.apply(this, arguments);
      }, 'name', { value: name }));
    });
  });

  // ---- native recursion ---------------------------------------------------------------------
  // Some of Boa's built-ins recurse on the native stack once per level of nesting (JSON.stringify,
  // Array.prototype.flat, chains of proxies, bound functions and prototypes); a deep enough value
  // would overflow the stack and end the page. These refuse more than MAX_NESTING levels.
  var MAX_NESTING = 500;
  var MAX_WALK = 1000000;
  function tooDeep() { return new RangeError('Maximum call stack size exceeded'); }
  var keysOf = Object.keys;
  var isArray = Array.isArray;
  // True when some path through objects (or arrays only) is deeper than MAX_NESTING. A cycle
  // stops that path: the built-in reports cycles itself.
  function tooNested(root, arraysOnly) {
    var stack = [{ v: root, depth: 0, path: [] }];
    var walked = 0;
    while (stack.length) {
      var top = stack.pop();
      if (top.depth > MAX_NESTING) return true;
      if (++walked > MAX_WALK) return false;
      var v = top.v;
      if (v === null || typeof v !== 'object' || (arraysOnly && !isArray(v))) continue;
      if (top.path.indexOf(v) >= 0) continue;
      var path = top.path.length < 64 ? top.path.concat([v]) : top.path;
      var keys = isArray(v) ? null : keysOf(v);
      var n = keys ? keys.length : v.length;
      for (var i = 0; i < n; i++) {
        var child;
        try { child = keys ? v[keys[i]] : v[i]; } catch (e) { continue; }
        if (child !== null && typeof child === 'object') stack.push({ v: child, depth: top.depth + 1, path: path });
      }
    }
    return false;
  }
  var stringify = JSON.stringify;
  // The text JSON.stringify builds is a string like any other: past the string cap it is
  // refused (a string stringified again grows by its escapes, so a chain of them doubled a
  // global until memory ran out: the shell_program fuzzer). A string argument is refused when
  // its quoted text alone would pass the cap, before any of it is built.
  hide(JSON, 'stringify', function stringify_(value) {
    if (typeof value === 'string') stringLength(value.length + 2);
    if (tooNested(value, false)) throw tooDeep();
    var text = stringify.apply(JSON, arguments);
    if (typeof text === 'string') stringLength(text.length);
    return text;
  });
  var flat = A.flat;
  hide(A, 'flat', function flat_(depth) {
    if (this != null) arrayLength(Number(this.length) || 0);
    if (depth !== undefined && Number(depth) > MAX_NESTING && tooNested(this, true)) throw tooDeep();
    return flat.apply(this, arguments);
  });

  var nesting = new WeakMap();
  function deeper(inner) {
    var d = (inner !== null && (typeof inner === 'object' || typeof inner === 'function') && nesting.get(inner)) || 0;
    if (d + 1 > MAX_NESTING) throw tooDeep();
    return d + 1;
  }
  var RealProxy = Proxy;
  function ShellProxy(target, handler) {
    if (new.target === undefined) throw new TypeError("Constructor Proxy requires 'new'");
    var d = deeper(target);
    var p = new RealProxy(target, handler);
    nesting.set(p, d);
    return p;
  }
  ShellProxy.revocable = function revocable(target, handler) {
    var d = deeper(target);
    var r = RealProxy.revocable(target, handler);
    nesting.set(r.proxy, d);
    return r;
  };
  hide(g, 'Proxy', ShellProxy);
  var bind = Function.prototype.bind;
  hide(Function.prototype, 'bind', function bind_() {
    var d = deeper(this);
    var f = bind.apply(this, arguments);
    nesting.set(f, d);
    return f;
  });
  var getProto = Object.getPrototypeOf;
  function chainLength(p) {
    var n = 0;
    while (p !== null && (typeof p === 'object' || typeof p === 'function')) {
      if (++n > MAX_NESTING) throw tooDeep();
      p = getProto(p);
    }
    return n;
  }
  var create = Object.create;
  hide(Object, 'create', function create_(proto) {
    chainLength(proto);
    return create.apply(Object, arguments);
  });
  var setProto = Object.setPrototypeOf;
  hide(Object, 'setPrototypeOf', function setPrototypeOf(o, proto) {
    chainLength(proto);
    return setProto(o, proto);
  });
  var reflectSetProto = Reflect.setPrototypeOf;
  hide(Reflect, 'setPrototypeOf', function setPrototypeOf(o, proto) {
    chainLength(proto);
    return reflectSetProto(o, proto);
  });
  var protoDesc = Object.getOwnPropertyDescriptor(Object.prototype, '__proto__');
  if (protoDesc && protoDesc.set) {
    var protoSet = protoDesc.set;
    Object.defineProperty(Object.prototype, '__proto__', {
      get: protoDesc.get,
      set: function (proto) { chainLength(proto); return protoSet.call(this, proto); },
      configurable: true, enumerable: false,
    });
  }

  // ---- regular expressions ------------------------------------------------------------------
  // A search that backtracks past the step limit (src/regex_limit.rs) reports no match; exec
  // (which test, match, replace, split and search all call) turns that into an error.
  var nativeExec = RegExp.prototype.exec;
  var regexLimitHit = __sproutNative.regexLimitHit;
  hide(RegExp.prototype, 'exec', function exec(s) {
    var found = nativeExec.call(this, s);
    if (found === null && regexLimitHit()) {
      throw new RangeError('regular expression ' + String(this) + ' was stopped after 10000000 ' +
        'backtracking steps on one search (catastrophic backtracking: nested quantifiers such as ' +
        '(a+)+ can take exponential time); simplify the pattern');
    }
    return found;
  });
})(globalThis);
