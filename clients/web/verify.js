// The browser verifier of umpire exports (issue #30 item 6): verifier/verify_export.py
// ported to the browser, check for check, by the rules of docs/audit.md. Nothing is
// installed and nothing leaves the page: the file is read locally, hashed with WebCrypto
// (SHA-256, HMAC-SHA256), and decoded with the small MessagePack reader below.
//
// A classic script (not an ES module) so that a saved copy works when opened from
// file://. Each function below has the name of the function of verify_export.py it
// mirrors (snake_case on purpose), so that a change there is ported here one for one;
// tests/viewer/test_verify_page.py checks that both give the same verdict on every export
// and forgery of the suite.
"use strict";

(function () {
  const FORMAT = "umpire-export/1";
  const GENESIS = "0".repeat(64);
  const WORD = 2 ** 32;
  // A count as verify_export.py's `counted` says it: singular for exactly one.
  const count_said = (n, noun, plural) => `${n} ${Number(n) === 1 ? noun : plural || noun + "s"}`;
  const PREFIX_NOTE = (n) => `prefix of ${count_said(n, "event")}, not a finished game`;

  // -- Python's data model, as far as the verifier leans on it --------------------------
  // JSON and MessagePack values become: null, booleans, numbers (Python ints; BigInt past
  // 2**53), PyFloat (a Python float: 1.0 is not 1), strings, arrays, Uint8Array (bytes),
  // Ext (a MessagePack ext value) and dicts (objects without a prototype, so that any key,
  // "__proto__" included, is plain data).

  class Failure extends Error {
    // The first thing that does not verify, at `seq` (0: the file as a whole).
    constructor(seq, reason) {
      super(`seq ${seq}: ${reason}`);
      this.seq = seq;
      this.reason = reason;
    }
  }

  class NotReadable extends Error {
    // What Python raises as KeyError, TypeError, ValueError, ...: the file is not an export.
    constructor(kind, message) {
      super(message);
      this.kind = kind;
    }
  }

  class PyFloat {
    constructor(value) {
      this.value = value;
    }
  }

  class Ext {
    constructor(code, data) {
      this.code = code;
      this.data = data;
    }
  }

  class NonStrKeyMap {
    // A MessagePack map with a key that is not a string: never equal to a JSON object.
    constructor(entries) {
      this.entries = entries;
    }
  }

  const is_dict = (x) => x !== null && typeof x === "object" && Object.getPrototypeOf(x) === null;
  const is_int = (x) =>
    (typeof x === "number" && Number.isInteger(x)) || typeof x === "bigint" || typeof x === "boolean";
  const is_numeric = (x) => is_int(x) || x instanceof PyFloat;
  const new_dict = () => Object.create(null);

  function num(x) {
    if (typeof x === "number") return x;
    if (typeof x === "boolean") return x ? 1 : 0;
    if (typeof x === "bigint") return Number(x);
    if (x instanceof PyFloat) return x.value;
    throw new NotReadable("TypeError", `${py_repr(x)} is not a number`);
  }

  function get(obj, key, dflt) {
    // dict.get(key, default)
    if (!is_dict(obj)) throw new NotReadable("AttributeError", `${type_name(obj)} object has no attribute 'get'`);
    return Object.hasOwn(obj, key) ? obj[key] : dflt === undefined ? null : dflt;
  }

  function req(obj, key) {
    // dict[key]
    if (!is_dict(obj)) throw new NotReadable("TypeError", `${type_name(obj)} object is not subscriptable`);
    if (!Object.hasOwn(obj, key)) throw new NotReadable("KeyError", py_repr(key));
    return obj[key];
  }

  function type_name(x) {
    if (x === null) return "'NoneType'";
    if (typeof x === "string") return "'str'";
    if (typeof x === "boolean") return "'bool'";
    if (is_int(x)) return "'int'";
    if (x instanceof PyFloat) return "'float'";
    if (Array.isArray(x)) return "'list'";
    return "'dict'";
  }

  function py_eq(a, b) {
    // Python's ==: numbers by value (True == 1 == 1.0), lists in order, dicts by keys.
    if (is_numeric(a) && is_numeric(b)) {
      if (typeof a === "bigint" || typeof b === "bigint") {
        try {
          return BigInt(num_exact(a)) === BigInt(num_exact(b));
        } catch {
          return false;
        }
      }
      return num(a) === num(b);
    }
    if (a === null || b === null) return a === b;
    if (typeof a === "string" || typeof b === "string") return a === b;
    if (Array.isArray(a) && Array.isArray(b))
      return a.length === b.length && a.every((x, i) => py_eq(x, b[i]));
    if (a instanceof Uint8Array && b instanceof Uint8Array)
      return a.length === b.length && a.every((x, i) => x === b[i]);
    if (is_dict(a) && is_dict(b)) {
      const ka = Object.keys(a);
      return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && py_eq(a[k], b[k]));
    }
    return false;
  }

  function num_exact(x) {
    if (typeof x === "bigint") return x;
    const n = num(x);
    if (!Number.isInteger(n)) throw new Error("not an integer");
    return n;
  }

  function py_truthy(x) {
    if (x === null || x === undefined) return false;
    if (typeof x === "boolean") return x;
    if (typeof x === "number") return x !== 0;
    if (typeof x === "bigint") return x !== 0n;
    if (x instanceof PyFloat) return x.value !== 0;
    if (typeof x === "string" || Array.isArray(x) || x instanceof Uint8Array) return x.length > 0;
    if (is_dict(x)) return Object.keys(x).length > 0;
    return true;
  }

  function float_repr(v) {
    if (Number.isNaN(v)) return "nan";
    if (!Number.isFinite(v)) return v > 0 ? "inf" : "-inf";
    if (v === 0) return Object.is(v, -0) ? "-0.0" : "0.0";
    const [mantissa, exp] = v.toExponential().split("e");
    const e = Number(exp);
    const sign = mantissa.startsWith("-") ? "-" : "";
    const digits = mantissa.replace("-", "").replace(".", "");
    if (e < -4 || e >= 16) {
      const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
      return `${sign}${m}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
    }
    if (e < 0) return `${sign}0.${"0".repeat(-e - 1)}${digits}`;
    const whole = digits.slice(0, e + 1).padEnd(e + 1, "0");
    const frac = digits.slice(e + 1) || "0";
    return `${sign}${whole}.${frac}`;
  }

  function str_repr(s) {
    const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
    let out = "";
    for (const ch of s) {
      const c = ch.codePointAt(0);
      if (ch === "\\") out += "\\\\";
      else if (ch === quote) out += "\\" + ch;
      else if (ch === "\n") out += "\\n";
      else if (ch === "\r") out += "\\r";
      else if (ch === "\t") out += "\\t";
      else if (c < 0x20 || c === 0x7f) out += "\\x" + c.toString(16).padStart(2, "0");
      else out += ch;
    }
    return quote + out + quote;
  }

  function py_repr(x) {
    if (x === null || x === undefined) return "None";
    if (x === true) return "True";
    if (x === false) return "False";
    if (typeof x === "number" || typeof x === "bigint") return String(x);
    if (x instanceof PyFloat) return float_repr(x.value);
    if (typeof x === "string") return str_repr(x);
    if (x instanceof Tuple) return `(${x.items.map(py_repr).join(", ")})`;
    if (Array.isArray(x)) return `[${x.map(py_repr).join(", ")}]`;
    if (x instanceof Uint8Array) return `b'${Array.from(x, (b) => "\\x" + b.toString(16).padStart(2, "0")).join("")}'`;
    if (x instanceof Ext) return `ExtType(code=${x.code}, data=...)`;
    if (is_dict(x)) return `{${Object.keys(x).map((k) => `${str_repr(k)}: ${py_repr(x[k])}`).join(", ")}}`;
    return String(x);
  }

  class Tuple {
    constructor(items) {
      this.items = items;
    }
  }

  const py_str = (x) => (typeof x === "string" ? x : py_repr(x));

  // A roll as a player counts the game's rolls, from 1 (verify_export.py's _roll_said): the
  // log's `roll` field counts from 0. A value that is no roll number, as it was written.
  function roll_said(x) {
    if (typeof x === "number" && Number.isSafeInteger(x)) return `roll ${x + 1}`;
    if (typeof x === "bigint" || (typeof x === "number" && Number.isInteger(x))) return `roll ${BigInt(x) + 1n}`;
    return `roll ${py_str(x)}`;
  }

  function py_int(x) {
    // int(x)
    if (typeof x === "boolean" || typeof x === "number" || typeof x === "bigint") return num(x);
    if (x instanceof PyFloat) {
      if (!Number.isFinite(x.value)) throw new NotReadable("ValueError", "cannot convert float to integer");
      return Math.trunc(x.value);
    }
    if (typeof x === "string" && /^\s*[+-]?[0-9]+(_[0-9]+)*\s*$/.test(x)) return Number(x.replace(/_/g, "").trim());
    throw new NotReadable(typeof x === "string" ? "ValueError" : "TypeError", `int() of ${py_repr(x)}`);
  }

  function py_fromhex(text) {
    // bytes.fromhex: pairs of hex digits, ASCII whitespace allowed between pairs
    if (typeof text !== "string") throw new NotReadable("TypeError", "fromhex() argument must be str");
    const out = [];
    let i = 0;
    while (i < text.length) {
      if (" \t\n\r\v\f".includes(text[i])) {
        i += 1;
        continue;
      }
      const pair = text.slice(i, i + 2);
      if (!/^[0-9a-fA-F]{2}$/.test(pair)) throw new NotReadable("ValueError", "non-hexadecimal number found in fromhex() arg");
      out.push(parseInt(pair, 16));
      i += 2;
    }
    return new Uint8Array(out);
  }

  const py_mod = (a, b) => {
    if (b === 0) throw new NotReadable("ZeroDivisionError", "integer modulo by zero");
    return a - b * Math.floor(a / b);
  };

  function hash_key(x) {
    // A Python dict key: equal keys (1, 1.0 and True; equal strings) give the same key;
    // a list or dict is unhashable.
    if (typeof x === "string") return `s:${x}`;
    if (x === null) return "None";
    if (is_numeric(x)) return `n:${num(x)}`;
    throw new NotReadable("TypeError", `unhashable type: ${type_name(x)}`);
  }

  const utf8 = (s) => new TextEncoder().encode(s);
  const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

  // -- JSON, keeping Python's int/float distinction -------------------------------------

  function parse_json(text) {
    // json.loads: ints stay ints, numbers with a fraction or exponent become PyFloat.
    let i = 0;
    const fail = (what) => {
      throw new NotReadable("JSONDecodeError", `${what}: char ${i}`);
    };
    const ws = () => {
      while (i < text.length && " \t\n\r".includes(text[i])) i += 1;
    };
    const value = () => {
      ws();
      const ch = text[i];
      if (ch === "{") {
        i += 1;
        const obj = new_dict();
        ws();
        if (text[i] === "}") {
          i += 1;
          return obj;
        }
        for (;;) {
          ws();
          if (text[i] !== '"') fail("Expecting property name enclosed in double quotes");
          const key = string();
          ws();
          if (text[i] !== ":") fail("Expecting ':' delimiter");
          i += 1;
          obj[key] = value();
          ws();
          if (text[i] === ",") i += 1;
          else if (text[i] === "}") {
            i += 1;
            return obj;
          } else fail("Expecting ',' delimiter");
        }
      }
      if (ch === "[") {
        i += 1;
        const arr = [];
        ws();
        if (text[i] === "]") {
          i += 1;
          return arr;
        }
        for (;;) {
          arr.push(value());
          ws();
          if (text[i] === ",") i += 1;
          else if (text[i] === "]") {
            i += 1;
            return arr;
          } else fail("Expecting ',' delimiter");
        }
      }
      if (ch === '"') return string();
      for (const [word, v] of [["true", true], ["false", false], ["null", null],
        ["NaN", new PyFloat(NaN)], ["Infinity", new PyFloat(Infinity)], ["-Infinity", new PyFloat(-Infinity)]]) {
        if (text.startsWith(word, i)) {
          i += word.length;
          return v;
        }
      }
      const m = /^-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/.exec(text.slice(i, i + 400));
      if (!m) fail("Expecting value");
      i += m[0].length;
      if (m[1] !== undefined || m[2] !== undefined) return new PyFloat(Number(m[0]));
      const n = Number(m[0]);
      return Number.isSafeInteger(n) ? n : BigInt(m[0]);
    };
    const string = () => {
      i += 1;
      let out = "";
      for (;;) {
        const ch = text[i];
        if (ch === undefined) fail("Unterminated string");
        if (ch === '"') {
          i += 1;
          return out;
        }
        if (ch === "\\") {
          const e = text[i + 1];
          const simple = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" }[e];
          if (simple !== undefined) {
            out += simple;
            i += 2;
          } else if (e === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
            i += 6;
          } else fail("Invalid \\escape");
        } else if (ch.charCodeAt(0) < 0x20) {
          fail("Invalid control character");
        } else {
          out += ch;
          i += 1;
        }
      }
    };
    const result = value();
    ws();
    if (i !== text.length) fail("Extra data");
    return result;
  }

  // -- MessagePack: what verify_export.py asks of the msgpack library --------------------

  function unpackb(bytes) {
    // msgpack.unpackb(raw, raw=False, strict_map_key=False): one value, nothing after it.
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    let pos = 0;
    const need = (n) => {
      if (pos + n > bytes.length) throw new Error("Unpack failed: incomplete input");
    };
    const take = (n) => {
      need(n);
      const out = bytes.subarray(pos, pos + n);
      pos += n;
      return out;
    };
    const u = (n) => {
      need(n);
      let v;
      if (n === 1) v = view.getUint8(pos);
      else if (n === 2) v = view.getUint16(pos);
      else if (n === 4) v = view.getUint32(pos);
      else {
        const big = view.getBigUint64(pos);
        v = big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
      }
      pos += n;
      return v;
    };
    const s = (n) => {
      need(n);
      let v;
      if (n === 1) v = view.getInt8(pos);
      else if (n === 2) v = view.getInt16(pos);
      else if (n === 4) v = view.getInt32(pos);
      else {
        const big = view.getBigInt64(pos);
        v = big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
      }
      pos += n;
      return v;
    };
    const array = (n) => {
      const out = [];
      for (let k = 0; k < n; k += 1) out.push(value());
      return out;
    };
    const map = (n) => {
      const out = new_dict();
      const entries = [];
      let plain = true;
      for (let k = 0; k < n; k += 1) {
        const key = value();
        const val = value();
        entries.push([key, val]);
        if (typeof key === "string") out[key] = val;
        else plain = false;
      }
      return plain ? out : new NonStrKeyMap(entries);
    };
    const value = () => {
      const b = u(1);
      if (b <= 0x7f) return b;
      if (b >= 0xe0) return b - 0x100;
      if ((b & 0xf0) === 0x80) return map(b & 0x0f);
      if ((b & 0xf0) === 0x90) return array(b & 0x0f);
      if ((b & 0xe0) === 0xa0) return text.decode(take(b & 0x1f));
      switch (b) {
        case 0xc0: return null;
        case 0xc2: return false;
        case 0xc3: return true;
        case 0xc4: return take(u(1)).slice();
        case 0xc5: return take(u(2)).slice();
        case 0xc6: return take(u(4)).slice();
        case 0xc7: { const n = u(1); const code = s(1); return new Ext(code, take(n)); }
        case 0xc8: { const n = u(2); const code = s(1); return new Ext(code, take(n)); }
        case 0xc9: { const n = u(4); const code = s(1); return new Ext(code, take(n)); }
        case 0xca: { need(4); const v = view.getFloat32(pos); pos += 4; return new PyFloat(v); }
        case 0xcb: { need(8); const v = view.getFloat64(pos); pos += 8; return new PyFloat(v); }
        case 0xcc: return u(1);
        case 0xcd: return u(2);
        case 0xce: return u(4);
        case 0xcf: return u(8);
        case 0xd0: return s(1);
        case 0xd1: return s(2);
        case 0xd2: return s(4);
        case 0xd3: return s(8);
        case 0xd4: { const code = s(1); return new Ext(code, take(1)); }
        case 0xd5: { const code = s(1); return new Ext(code, take(2)); }
        case 0xd6: { const code = s(1); return new Ext(code, take(4)); }
        case 0xd7: { const code = s(1); return new Ext(code, take(8)); }
        case 0xd8: { const code = s(1); return new Ext(code, take(16)); }
        case 0xd9: return text.decode(take(u(1)));
        case 0xda: return text.decode(take(u(2)));
        case 0xdb: return text.decode(take(u(4)));
        case 0xdc: return array(u(2));
        case 0xdd: return array(u(4));
        case 0xde: return map(u(2));
        case 0xdf: return map(u(4));
        default: throw new Error(`Unpack failed: unknown type byte 0x${b.toString(16)}`);
      }
    };
    const result = value();
    if (pos !== bytes.length) throw new Error("Unpack failed: extra data");
    return result;
  }

  function packb(obj) {
    // msgpack.packb(obj, use_bin_type=True): the smallest encoding of each value.
    const out = [];
    const bytes = (arr) => {
      for (const b of arr) out.push(b);
    };
    const be = (value, n) => {
      const buf = new DataView(new ArrayBuffer(n));
      if (n === 1) buf.setUint8(0, value);
      else if (n === 2) buf.setUint16(0, value);
      else if (n === 4) buf.setUint32(0, value);
      else buf.setBigUint64(0, BigInt.asUintN(64, BigInt(value)));
      bytes(new Uint8Array(buf.buffer));
    };
    const int = (v) => {
      const n = typeof v === "bigint" ? v : BigInt(v);
      if (n >= 0n) {
        if (n < 0x80n) out.push(Number(n));
        else if (n <= 0xffn) { out.push(0xcc); be(Number(n), 1); }
        else if (n <= 0xffffn) { out.push(0xcd); be(Number(n), 2); }
        else if (n <= 0xffffffffn) { out.push(0xce); be(Number(n), 4); }
        else if (n <= 0xffffffffffffffffn) { out.push(0xcf); be(n, 8); }
        else throw new NotReadable("OverflowError", "Integer value out of range");
      } else if (n >= -32n) out.push(Number(n) & 0xff);
      else if (n >= -128n) { out.push(0xd0); be(Number(n) & 0xff, 1); }
      else if (n >= -32768n) { out.push(0xd1); be(Number(n) & 0xffff, 2); }
      else if (n >= -2147483648n) { out.push(0xd2); be(Number(n) >>> 0, 4); }
      else if (n >= -9223372036854775808n) { out.push(0xd3); be(n, 8); }
      else throw new NotReadable("OverflowError", "Integer value out of range");
    };
    const length = (n, small, smallMax, codes) => {
      if (small !== null && n <= smallMax) out.push(small | n);
      else if (codes[0] !== null && n <= 0xff) { out.push(codes[0]); be(n, 1); }
      else if (n <= 0xffff) { out.push(codes[1]); be(n, 2); }
      else { out.push(codes[2]); be(n, 4); }
    };
    const value = (v) => {
      if (v === null || v === undefined) out.push(0xc0);
      else if (v === false) out.push(0xc2);
      else if (v === true) out.push(0xc3);
      else if (typeof v === "number" || typeof v === "bigint") int(v);
      else if (v instanceof PyFloat) {
        out.push(0xcb);
        const buf = new DataView(new ArrayBuffer(8));
        buf.setFloat64(0, v.value);
        bytes(new Uint8Array(buf.buffer));
      } else if (typeof v === "string") {
        const b = utf8(v);
        length(b.length, 0xa0, 31, [0xd9, 0xda, 0xdb]);
        bytes(b);
      } else if (v instanceof Uint8Array) {
        length(v.length, null, 0, [0xc4, 0xc5, 0xc6]);
        bytes(v);
      } else if (Array.isArray(v)) {
        length(v.length, 0x90, 15, [null, 0xdc, 0xdd]);
        v.forEach(value);
      } else if (is_dict(v)) {
        const keys = Object.keys(v);
        length(keys.length, 0x80, 15, [null, 0xde, 0xdf]);
        for (const k of keys) {
          value(k);
          value(v[k]);
        }
      } else throw new NotReadable("TypeError", `can not serialize ${py_repr(v)}`);
    };
    value(obj);
    return new Uint8Array(out);
  }

  // -- WebCrypto --------------------------------------------------------------------------

  async function sha256_hex(data) {
    return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", data)));
  }

  const hmac_keys = new Map();

  async function hmac(key, message) {
    // HMAC-SHA256(key, message): 32 bytes
    const id = hex(key);
    let imported = hmac_keys.get(id);
    if (imported === undefined) {
      imported = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
      if (hmac_keys.size > 64) hmac_keys.clear();
      hmac_keys.set(id, imported);
    }
    return new Uint8Array(await crypto.subtle.sign("HMAC", imported, message));
  }

  // -- section 2: the hash chain ------------------------------------------------------------

  async function envelope_hash(record, payload) {
    // docs/audit.md section 2: version 2 hashes the digest, version 1 the payload.
    const version = get(record, "envelope_version", 1);
    let body;
    if (py_eq(version, 2)) {
      body = [2, req(record, "game_id"), req(record, "seq"), req(record, "type"), req(record, "version"),
        req(record, "digest"), req(record, "committed"), req(record, "command_id"),
        req(record, "recorded_at"), req(record, "prev_hash")];
    } else if (py_eq(version, 1)) {
      body = [req(record, "game_id"), req(record, "seq"), req(record, "type"), req(record, "version"), payload,
        req(record, "command_id"), req(record, "recorded_at"), req(record, "prev_hash")];
    } else {
      throw new Failure(req(record, "seq"), `unknown envelope version ${py_repr(version)}`);
    }
    return sha256_hex(packb(body));
  }

  // -- section 3: commitments ---------------------------------------------------------------

  async function commitment(seed, game_id, seq, payload) {
    // docs/audit.md section 3: the keyed commitment of a secret payload.
    const key = await hmac(seed, utf8(`umpire-commitment:${py_str(game_id)}:${py_str(seq)}`));
    return hex(await hmac(key, payload));
  }

  // -- section 4: epochs --------------------------------------------------------------------

  class Epochs {
    // Which epoch each seq belongs to, and each epoch's revealed seed (section 4).
    constructor() {
      this.reveal_seqs = [];
      this.seeds = [];
    }

    epoch_of(seq) {
      return this.reveal_seqs.filter((s) => num(s) < num(seq)).length;
    }

    seed_of(seq) {
      const epoch = this.epoch_of(seq);
      return epoch < this.seeds.length ? this.seeds[epoch] : null;
    }
  }

  // -- section 5: the dice ------------------------------------------------------------------

  function _words(seed, client_seed, nonce, n) {
    // The roll's word stream: HMAC(seed, "client_seed:n:block" + (":nonce" if nonce)) for
    // block 0, 1, ..., each digest read as eight big-endian unsigned 32-bit words.
    const tail = py_truthy(nonce) ? `:${py_str(nonce)}` : "";
    let block = 0;
    let words = [];
    return async function next() {
      if (words.length === 0) {
        const digest = await hmac(seed, utf8(`${py_str(client_seed)}:${py_str(n)}:${block}${tail}`));
        const view = new DataView(digest.buffer);
        words = Array.from({ length: 8 }, (_, k) => view.getUint32(4 * k));
        block += 1;
      }
      return words.shift();
    };
  }

  async function roll_key(seed, sealing_key, sealed_hidden) {
    // Section 3: which key a server roll derives from. A hidden roll of a game whose
    // GameCreated holds a `sealing_commitment` takes HMAC(sealing key, "umpire-hidden-dice")
    // (null until the final reveal publishes the sealing key); every other roll its
    // epoch's seed.
    if (!sealed_hidden) return seed;
    if (sealing_key === null) return null;
    return hmac(sealing_key, utf8("umpire-hidden-dice"));
  }

  async function server_faces(seed, client_seed, nonce, n, kind, sides) {
    // Section 5: the faces of server roll n. `seed` is the roll's epoch's seed (32 raw
    // bytes), `client_seed` the epoch's client seed ("" when waived), `nonce` the nonce
    // of the command whose batch holds the roll (its CommandRecorded's `nonce`, "" when it
    // has none). The byte stream is HMAC-SHA256(seed, "<client_seed>:<n>:<block>" +
    // (":<nonce>" if nonce)) for block 0, 1, ...; a die of s sides takes the first word w
    // below 2**32 - (2**32 mod s) and shows low + w mod s (low 0 for the dice of a d100).
    if (!Array.isArray(sides)) throw new NotReadable("TypeError", `${type_name(sides)} object is not iterable`);
    const next = _words(seed, client_seed, nonce, n);
    const faces = [];
    for (const side of sides) {
      const s = num(side);
      const limit = WORD - py_mod(WORD, s);
      let w = await next();
      while (w >= limit) w = await next();
      const low = kind === "d100" ? 0 : 1;
      faces.push(low + py_mod(w, s));
    }
    return faces;
  }

  function total_of(kind, faces) {
    if (kind === "d100") {
      if (faces.length < 2) throw new NotReadable("IndexError", "list index out of range");
      const value = faces[0] * 10 + faces[1];
      return value === 0 ? 100 : value;
    }
    return faces.reduce((a, b) => a + b, 0);
  }

  // -- section 1: reading an export ------------------------------------------------------------

  class Event {
    constructor(record, payload_bytes, payload) {
      this.record = record;
      this.payload_bytes = payload_bytes;
      this.payload = payload;
    }
  }

  function same_data(hashed, readable) {
    // Section 1, "compared as data": maps by keys and values, arrays in order, and every
    // scalar of the same type and value (so 1 is not 1.0 and true is not 1); a bin or ext
    // value in the hashed bytes never matches (a payload holds none).
    if (is_dict(hashed)) {
      if (!is_dict(readable)) return false;
      const keys = Object.keys(hashed);
      return keys.length === Object.keys(readable).length
        && keys.every((k) => Object.hasOwn(readable, k) && same_data(hashed[k], readable[k]));
    }
    if (hashed instanceof NonStrKeyMap) return false;
    if (Array.isArray(hashed)) {
      return Array.isArray(readable) && hashed.length === readable.length
        && hashed.every((x, i) => same_data(x, readable[i]));
    }
    if (hashed instanceof Uint8Array || hashed instanceof Ext) return false;
    if (hashed === null) return readable === null;
    if (typeof hashed === "boolean") return typeof readable === "boolean" && hashed === readable;
    if (hashed instanceof PyFloat) {
      return readable instanceof PyFloat
        && (hashed.value === readable.value);
    }
    if (typeof hashed === "number" || typeof hashed === "bigint") {
      return (typeof readable === "number" || typeof readable === "bigint") && BigInt(hashed) === BigInt(readable);
    }
    return typeof readable === "string" && hashed === readable;
  }

  function splitlines(text) {
    return text.split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/);
  }

  // str.strip(): Python's whitespace (str.isspace), which is not JavaScript's trim().
  const PY_SPACE = "[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
  const py_strip = (text) => text.replace(new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, "g"), "");

  function b64decode(text) {
    // base64.b64decode(text, validate=True)
    if (typeof text !== "string") throw new Error("argument should be a bytes-like object or ASCII string");
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) throw new Error("Incorrect padding or non-base64 digit");
    const raw = atob(text);
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  }

  function read(bytes) {
    // The export's header and events (the file's bytes, UTF-8).
    let whole;
    try {
      whole = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      throw new NotReadable("UnicodeDecodeError", "the file is not UTF-8");
    }
    const lines = splitlines(whole).filter((line) => py_strip(line));
    if (lines.length === 0) throw new Failure(0, "the file is empty");
    const header = parse_json(lines[0]);
    if (!py_eq(get(header, "format"), FORMAT)) {
      throw new Failure(0, `the header's format is ${py_repr(get(header, "format"))}, not ${py_repr(FORMAT)}`);
    }
    const events = [];
    lines.slice(1).forEach((line, index) => {
      const number = index + 2;
      const record = parse_json(line);
      const seq = get(record, "seq", 0);
      if (!Object.hasOwn(record, "payload_b64")) {
        throw new Failure(seq, `line ${number} carries no payload_b64: the hash cannot be checked`);
      }
      let raw;
      let decoded;
      try {
        raw = b64decode(record.payload_b64);
        decoded = unpackb(raw);
      } catch (exc) {
        throw new Failure(seq, `payload_b64 does not decode: ${exc.message}`);
      }
      if (!same_data(decoded, get(record, "payload"))) {
        throw new Failure(seq, "the readable payload differs from the hashed payload bytes");
      }
      events.push(new Event(record, raw, decoded));
    });
    return [header, events];
  }

  // -- section 6: the batch grammar (structure only) ------------------------------------------

  const SYSTEM_PREFIX = "umpire:";
  const SYSTEM_TAGS = ["GameCreated", "ClientSeedBound", "SeedRevealed"];
  const BIND_ID = /^umpire:bind:(0|[1-9][0-9]*)$/;
  const REVEAL_ID = /^umpire:reveal(?::([1-9][0-9]*))?$/;
  // Rules disputes (docs/audit.md, "Disputes"): each its own system batch, also after the end.
  const DISPUTE_ID = /^umpire:dispute:([1-9][0-9]*)$/;
  const FINDING_ID = /^umpire:finding:([1-9][0-9]*)$/;
  const RULING_ID = /^umpire:ruling:([1-9][0-9]*)$/;
  const DISPUTE_TAGS = ["DisputeFiled", "DisputeFound", "DisputeRuled"];
  const NOT_DISPUTABLE = ["GameCreated", "CommandRecorded", "SeedRevealed", "ClientSeedBound",
    "CommandTakenBack", "ExportSealed", "GameAmended", ...DISPUTE_TAGS];
  const RULERS = ["player", "referee"]; // the player of a solo game, or the operator
  const fullmatch = (pattern, text) => (typeof text === "string" ? pattern.exec(text) : null);

  class Grammar {
    // What the walk over the batches found (section 6, without re-running the rules).
    constructor() {
      this.commands = 0;
      this.system = 0;
      this.player_rolls = 0;
      this.ended_at = 0;
      this.final_reveal = false;
      this.taken_back = 0;
      this.disputes = 0;
      this.findings = 0;
      this.sealed_at = 0;
      this.amendments = 0;
    }
  }

  class _Batch {
    // The command batch being walked: its command's id, seq and manual-dice flag.
    constructor(command_id, seq, manual, command_type = "") {
      this.command_id = command_id;
      this.seq = seq;
      this.manual = manual;
      this.command_type = command_type;
      this.events = 1; // events of the batch so far
    }
  }

  const TAKE_BACK = "TakeBack";
  const MAX_TAKEBACK_DEPTH = 2;

  class _Takebacks {
    // Section 6, "Takeback": the command batches that may still be taken back (at most
    // two, the last on top) and how many were taken back in a row.
    constructor() {
      this.undoable = []; // [seq, id, type]
      this.in_row = 0;
      this.blocked = "no command has been recorded yet";
    }

    block(why) {
      this.undoable = [];
      this.blocked = why;
    }

    command(batch) {
      if (batch.command_type !== TAKE_BACK) {
        this.undoable = [...this.undoable, [batch.seq, batch.command_id, batch.command_type]];
        this.undoable = this.undoable.slice(-MAX_TAKEBACK_DEPTH);
        this.in_row = 0;
      }
    }

    taken_back(ev, batch) {
      // A CommandTakenBack: the second event of a TakeBack batch, naming the command on
      // top, no more than two in a row.
      const seq = req(ev.record, "seq");
      const p = ev.payload;
      if (batch === null || batch.command_type !== TAKE_BACK || batch.events !== 2) {
        throw new Failure(seq, "CommandTakenBack stands only right after a recorded TakeBack command, in its batch");
      }
      if (this.in_row >= MAX_TAKEBACK_DEPTH) {
        throw new Failure(seq, `a takeback more than ${MAX_TAKEBACK_DEPTH} deep: ${this.in_row} commands were taken back in a row`);
      }
      if (this.undoable.length === 0) throw new Failure(seq, `a takeback where none is allowed: ${this.blocked}`);
      const [top_seq, top_id, top_type] = this.undoable[this.undoable.length - 1];
      const named = [get(p, "seq"), get(p, "command_id"), get(p, "command_type")];
      if (!py_eq(named, [top_seq, top_id, top_type])) {
        throw new Failure(seq, `CommandTakenBack names ${py_repr(new Tuple(named))}, but the command it may take back is ${py_str(top_type)} at seq ${py_str(top_seq)} (id ${py_repr(top_id)})`);
      }
      this.undoable.pop();
      this.in_row += 1;
    }
  }

  function check_grammar(events) {
    // Section 6, what needs no rules engine: batch boundaries by command id, the system
    // batches, unique command ids, nothing after the end, who may roll, client seeds bound
    // in order. Throws Failure at the first event that breaks it.
    const found = new Grammar();
    const first = events[0];
    if (req(first.record, "type") !== "GameCreated") {
      throw new Failure(1, `seq 1 is ${py_str(first.record.type)}, not GameCreated: a log begins with the game's creation`);
    }
    const created = first.payload;
    const waived = py_eq(get(created, "client_entropy"), "waived");
    const opponent_dice = py_truthy(get(created, "opponent_manual_dice", false));
    // An old log's client seed is in GameCreated: epoch 0 is bound at creation.
    const bound = new Set(py_truthy(get(created, "client_seed")) ? [0] : []);
    const used = new Map([[req(first.record, "command_id"), 1]]);
    let epoch = 0;
    let epoch_rolls = 0;
    let batch = null;
    let amending = null; // an amending ruling's batch, while it is walked
    const takebacks = new _Takebacks();
    found.system = 1;
    for (const ev of events.slice(1)) {
      const r = ev.record;
      const p = ev.payload;
      const seq = req(r, "seq");
      const tag = req(r, "type");
      const cid = req(r, "command_id");
      if (batch !== null && batch.command_type === TAKE_BACK) _takeback_batch(batch, seq, tag, cid);
      if (found.sealed_at) {
        throw new Failure(seq, `${py_str(tag)} follows the seal of the export (ExportSealed at seq ${found.sealed_at}): nothing may`);
      }
      if (tag === "ExportSealed") {
        _seal(ev, events, used, found);
        batch = null;
        continue;
      }
      if (amending !== null && py_eq(cid, amending.command_id)) {
        batch = _amended_event(ev, events, amending, batch, found, opponent_dice);
        // The takeback stack as the fold keeps it: emptied by the amendment, then the
        // amended line's commands, rolls and hidden events as in any batch.
        if (tag === "GameAmended") {
          takebacks.block(`the game was amended at seq ${py_str(seq)}`);
        } else if (tag === "CommandRecorded" && batch !== null) {
          takebacks.command(batch);
        } else if (tag === "DiceRolled") {
          takebacks.block(`a die was rolled at seq ${py_str(seq)}`);
        } else if (py_truthy(get(r, "committed", false))) {
          takebacks.block(`something hidden was shown at seq ${py_str(seq)}`);
        }
        continue;
      }
      if (amending !== null && amending.events === 1) {
        throw new Failure(seq, `the amending ruling at seq ${py_str(amending.seq)} is not followed by its GameAmended`);
      }
      amending = null;
      if (tag === "GameAmended") {
        throw new Failure(seq, "GameAmended stands only right after an amending DisputeRuled, in its batch");
      }
      if (DISPUTE_TAGS.includes(tag)) {
        // Ends any command batch; the finding itself is re-made by `umpire audit`, which
        // runs the rules: here, only where it stands and what it answers.
        batch = null;
        _dispute(ev, events, used, found);
        if (tag === "DisputeRuled" && py_eq(get(p, "ruling"), "amend")) amending = new _Batch(cid, seq, false);
        continue;
      }
      if (found.ended_at) {
        if (tag === "SeedRevealed" && py_eq(seq, found.ended_at + 1) && batch !== null && py_eq(cid, batch.command_id)) {
          found.final_reveal = true;
          epoch += 1;
          continue;
        }
        throw new Failure(seq, `${py_str(tag)} follows the end of the game (GameEnded at seq ${found.ended_at}): nothing may, except the final reveal in the ending command's batch`);
      }
      if (tag === "CommandRecorded") {
        if (typeof cid !== "string") throw new NotReadable("AttributeError", `${type_name(cid)} object has no attribute 'startswith'`);
        if (cid.startsWith(SYSTEM_PREFIX)) {
          throw new Failure(seq, `command id ${py_repr(cid)} is reserved for system batches (${SYSTEM_PREFIX}...): no client command has it`);
        }
        if (used.has(cid)) {
          throw new Failure(seq, `command id ${py_repr(cid)} was used by the batch at seq ${py_str(used.get(cid))}: the store answers a repeated id with its first result and appends nothing`);
        }
        used.set(cid, seq);
        batch = new _Batch(cid, seq, py_truthy(get(p, "manual_dice", false)), py_str(get(p, "command_type", "")));
        takebacks.command(batch);
        found.commands += 1;
      } else if (!SYSTEM_TAGS.includes(tag) && batch !== null && py_eq(cid, batch.command_id)) {
        batch.events += 1; // the next event of the command's batch
        if (tag === "CommandTakenBack") {
          takebacks.taken_back(ev, batch);
          found.taken_back += 1;
        } else if (py_truthy(get(r, "committed", false))) {
          takebacks.block(`something hidden was shown at seq ${py_str(seq)}`);
        }
      } else {
        batch = null;
        if (tag === "ClientSeedBound" && waived) {
          throw new Failure(seq, 'a client seed bound in a game that waived client entropy (every epoch\'s client seed is "")');
        }
        _system(ev, epoch, bound, epoch_rolls, used);
        takebacks.block(`the dice seed was bound or revealed at seq ${py_str(seq)}`);
        found.system += 1;
        if (tag === "ClientSeedBound") {
          bound.add(epoch);
        } else {
          // SeedRevealed closes its epoch
          epoch += 1;
          epoch_rolls = 0;
        }
        continue;
      }
      if (tag === "GameEnded") {
        found.ended_at = num(seq);
      } else if (tag === "DiceRolled") {
        takebacks.block(`a die was rolled at seq ${py_str(seq)}`);
        _roll(ev, batch, opponent_dice);
        if (py_eq(get(p, "by", "server"), "player")) {
          found.player_rolls += 1;
        } else if (!waived && !bound.has(epoch)) {
          throw new Failure(seq, `server ${roll_said(get(p, "roll"))} comes before the client seed of seed epoch ${epoch} was bound`);
        } else {
          epoch_rolls += 1; // a server roll: the epoch takes no client seed after it
        }
      }
    }
    if (batch !== null && batch.command_type === TAKE_BACK && batch.events === 1) {
      throw new Failure(batch.seq, `the TakeBack at seq ${py_str(batch.seq)} has no CommandTakenBack`);
    }
    if (amending !== null && amending.events === 1) {
      throw new Failure(amending.seq, `the amending ruling at seq ${py_str(amending.seq)} is not followed by its GameAmended`);
    }
    return found;
  }

  const AMENDED_LINE_REFUSED = ["SeedRevealed", "ClientSeedBound", "CommandTakenBack", "GameAmended", "ExportSealed", ...DISPUTE_TAGS];

  function superseded(events) {
    // Each seq that an amendment superseded, with the seq of its GameAmended (docs/audit.md
    // "Amendments"): the current line is the log from seq 1; a GameAmended takes out of it
    // every seq from its parts_from on (its own ruling among them), and the events after it
    // continue it, so a later amendment may start anywhere on that line.
    let line = [];
    const gone = new Map();
    for (const ev of events) {
      const seq = ev.record.seq;
      const start = get(ev.payload, "parts_from");
      if (ev.record.type !== "GameAmended" || !_int(start)) {
        line.push(seq);
        continue;
      }
      for (const s of line) if (s >= start) gone.set(s, seq);
      line = line.filter((s) => s < start);
    }
    return gone;
  }

  function _amended_event(ev, events, amending, batch, found, opponent_dice) {
    // An event of an amending ruling's batch (docs/audit.md "Amendments"): first the
    // GameAmended naming the dispute and the superseded seqs; then the re-made line, whose
    // commands and rolls are checked here for who may roll only (`umpire audit` re-makes
    // it). The command batch being re-made, if any, is returned.
    const r = ev.record;
    const p = ev.payload;
    const seq = req(r, "seq");
    const tag = req(r, "type");
    amending.events += 1;
    if (amending.events === 2) {
      if (tag !== "GameAmended") {
        throw new Failure(seq, `the amending ruling at seq ${py_str(amending.seq)} is followed by ${py_str(tag)}, not its GameAmended`);
      }
      const ruling = events[amending.seq - 1].payload;
      const dispute = get(p, "dispute");
      if (!py_eq(dispute, get(ruling, "dispute")) || !_int(dispute)) {
        throw new Failure(seq, `GameAmended names dispute ${py_repr(dispute)}, not the ruling's ${py_repr(get(ruling, "dispute"))}`);
      }
      const disputed = get(events[dispute - 1].payload, "seq");
      const start = get(p, "parts_from");
      const end = get(p, "superseded_to");
      if (!_int(start) || !_int(disputed) || !(1 < start && start <= disputed)
          || events[start - 1].record.type !== "CommandRecorded"
          || events.slice(start, disputed - 1).some((e) => e.record.type === "CommandRecorded")) {
        throw new Failure(seq, `GameAmended's parts_from ${py_repr(start)} is not the CommandRecorded of the batch of disputed seq ${py_repr(disputed)}`);
      }
      if (!py_eq(end, amending.seq - 1)) {
        throw new Failure(seq, `GameAmended's superseded_to ${py_repr(end)} is not the seq before its ruling, ${amending.seq - 1}`);
      }
      const later = superseded(events.slice(0, amending.seq - 1)).get(disputed);
      if (later !== undefined) {
        throw new Failure(seq, `the amendment at seq ${py_str(seq)} starts from seq ${py_str(disputed)}, which the amendment at seq ${py_str(later)} superseded`);
      }
      _amended_answer(ev, events, amending);
      found.amendments += 1;
      return null;
    }
    if (tag !== "CommandRecorded" && batch === null) {
      throw new Failure(seq, `${py_str(tag)} at seq ${py_str(seq)} in the amended line stands outside a re-applied command's batch`);
    }
    if (AMENDED_LINE_REFUSED.includes(tag)) {
      throw new Failure(seq, `${py_str(tag)} at seq ${py_str(seq)} may not stand in an amended line (commands and what the rules made of them only)`);
    }
    if (found.ended_at) {
      throw new Failure(seq, `${py_str(tag)} at seq ${py_str(seq)} follows the end of the game (GameEnded at seq ${found.ended_at}) in the amended line`);
    }
    if (tag === "CommandRecorded") {
      found.commands += 1;
      return new _Batch(amending.command_id, seq, py_truthy(get(p, "manual_dice", false)), py_str(get(p, "command_type", "")));
    }
    if (tag === "GameEnded") {
      found.ended_at = num(seq);
    } else if (tag === "DiceRolled") {
      _roll(ev, batch, opponent_dice);
      if (py_eq(get(p, "by", "server"), "player")) found.player_rolls += 1;
    }
    return batch;
  }

  function _amended_answer(ev, events, amending) {
    // The amended line against its dispute and finding, as far as needs no rules
    // (docs/audit.md "What a verifier without the rules checks"): the dispute's reading and
    // value; `reapplied` and `stopped` as the line holds its commands; and, where no
    // amendment stands between the dispute and its ruling, the line parting from the
    // superseded line exactly where the finding says.
    const p = ev.payload;
    const seq = ev.record.seq;
    const dispute = get(p, "dispute");
    const filed = events[dispute - 1].payload;
    for (const key of ["reading", "value"]) {
      if (!py_eq(get(p, key, ""), get(filed, key, ""))) {
        throw new Failure(seq, `GameAmended's ${key} ${py_repr(get(p, key, ""))} is not its dispute's, ${py_repr(get(filed, key, ""))}`);
      }
    }
    const made = [];
    for (const e of events.slice(seq)) {
      if (!py_eq(e.record.command_id, amending.command_id)) break;
      made.push(e);
    }
    const start = get(p, "parts_from");
    const taken = current_line(events.slice(0, amending.seq - 1)).filter((e) => e.record.seq >= start
      && ![...DISPUTE_TAGS, "ExportSealed"].includes(e.record.type));
    const commands = taken.filter((e) => e.record.type === "CommandRecorded").length;
    const reapplied = made.filter((e) => e.record.type === "CommandRecorded").length;
    if (!py_eq(get(p, "reapplied"), reapplied) || reapplied > commands) {
      throw new Failure(seq, `GameAmended says ${py_repr(get(p, "reapplied"))} commands re-applied; its line holds ${reapplied} of the ${commands} commands it supersedes`);
    }
    if (py_truthy(get(p, "stopped", "")) !== reapplied < commands) {
      throw new Failure(seq, `GameAmended's stopped ${py_repr(get(p, "stopped", ""))}: the line re-applies ${reapplied} of ${commands} commands, so it ${reapplied < commands ? "stopped" : "did not stop"}`);
    }
    if (events.slice(dispute, amending.seq - 1).some((e) => e.record.type === "GameAmended")) {
      return; // an amendment between may have switched a reading: `umpire audit` re-makes it
    }
    const finding = events.slice(dispute, amending.seq - 1).find((e) => e.record.type === "DisputeFound"
      && py_eq(get(e.payload, "dispute"), dispute));
    const line = compared(events, dispute);
    // The finding's line under the reading is the amended line's events of the commands
    // the finding compares; a takeback is not re-applied (it stops the amended line), so
    // the two are compared up to the first one only.
    let stop = line.findIndex((e) => e.record.type === "CommandRecorded" && py_eq(get(e.payload, "command_type"), TAKE_BACK));
    if (stop < 0) stop = line.length;
    const ours = _commands(made, line.slice(0, stop).filter((e) => e.record.type === "CommandRecorded").length);
    // An event logged under another version of its type than its re-made twin: the two
    // compare only after upcasting, which needs the ruleset; nothing is known from there.
    let unknown = null;
    for (let i = 0; i < Math.min(stop, ours.length); i += 1) {
      if (line[i].record.type === ours[i].record.type && !py_eq(get(line[i].record, "version"), get(ours[i].record, "version"))) {
        unknown = i;
        break;
      }
    }
    const span = unknown === null ? Math.max(stop, ours.length) : unknown;
    let parts = null;
    for (let i = 0; i < span; i += 1) {
      if (i >= stop || i >= ours.length || !_same_event(line[i], ours[i])) {
        parts = i;
        break;
      }
    }
    let expected;
    if (parts === null) expected = 0;
    else if (parts < line.length) expected = line[parts].record.seq;
    else expected = line[line.length - 1].record.seq + 1;
    const said = get(finding.payload, "parts_at", 0);
    const cut = unknown === null ? stop : unknown;
    const beyond = parts === null && cut < line.length; // equal up to there: no more is known
    if (!py_eq(said, expected) && !(beyond && (said === 0 || said >= line[cut].record.seq))) {
      throw new Failure(seq, `the finding at seq ${finding.record.seq} says the lines part at seq ${py_str(said)} (0: nowhere before the dispute), but the amended line parts from the superseded line at seq ${expected || "none"}`);
    }
  }

  function _commands(made, count) {
    // The events of the first `count` command batches of an amended line.
    const starts = [];
    made.forEach((e, i) => {
      if (e.record.type === "CommandRecorded") starts.push(i);
    });
    return count >= starts.length ? made : made.slice(0, starts[count]);
  }

  function _same_event(a, b) {
    // Two events as the lines compare them: their types and their payloads' bytes.
    return a.record.type === b.record.type && py_eq(a.payload_bytes, b.payload_bytes);
  }

  function _takeback_batch(batch, seq, tag, cid) {
    // A TakeBack batch is exactly its CommandRecorded and one CommandTakenBack.
    if (batch.events === 1 && (tag !== "CommandTakenBack" || !py_eq(cid, batch.command_id))) {
      throw new Failure(seq, `the TakeBack at seq ${py_str(batch.seq)} has no CommandTakenBack: ${py_str(tag)} follows it`);
    }
    if (batch.events === 2 && py_eq(cid, batch.command_id) && !SYSTEM_TAGS.includes(tag)) {
      throw new Failure(seq, `${py_str(tag)} in the batch of the TakeBack at seq ${py_str(batch.seq)}, which holds its CommandTakenBack only`);
    }
  }

  function _int(x) {
    return typeof x === "number" && Number.isInteger(x);
  }

  function _dispute(ev, events, used, found) {
    // A DisputeFiled under umpire:dispute:<its seq> naming an earlier decision or roll not
    // disputed while open; a DisputeFound under umpire:finding:<dispute> answering an
    // earlier dispute once; a DisputeRuled (_ruling).
    const r = ev.record;
    const p = ev.payload;
    const seq = req(r, "seq");
    const tag = req(r, "type");
    const cid = req(r, "command_id");
    if (used.has(cid)) throw new Failure(seq, `command id ${py_repr(cid)} was used by the batch at seq ${py_str(used.get(cid))}`);
    used.set(cid, seq);
    const earlier = events.slice(0, seq - 1);
    if (tag === "DisputeFiled") {
      const match = typeof cid === "string" ? DISPUTE_ID.exec(cid) : null;
      if (match === null || Number(match[1]) !== seq) {
        throw new Failure(seq, `DisputeFiled under command id ${py_repr(cid)}, not 'umpire:dispute:${seq}'`);
      }
      const disputed = get(p, "seq");
      if (!_int(disputed) || !(1 <= disputed && disputed < seq)) {
        throw new Failure(seq, `the dispute at seq ${seq} names seq ${py_repr(disputed)}, which is no earlier event`);
      }
      const amendedAt = superseded(earlier).get(disputed);
      if (amendedAt !== undefined) {
        throw new Failure(seq, `the dispute at seq ${seq} names seq ${py_str(disputed)}, which the amendment at seq ${py_str(amendedAt)} superseded: no longer part of the game`);
      }
      const kind = earlier[disputed - 1].record.type;
      if (NOT_DISPUTABLE.includes(kind)) {
        throw new Failure(seq, `the dispute at seq ${seq} names seq ${disputed}, a ${py_str(kind)}: no decision or roll`);
      }
      const claim = get(p, "claim");
      if (typeof claim !== "string" || claim.trim() === "" || [...claim].length > 1000) {
        throw new Failure(seq, `the dispute at seq ${seq} has no claim of 1 to 1,000 characters`);
      }
      // At most one open dispute of a seq per disputing role (docs/audit.md "Disputes").
      const ruled = new Set(earlier.filter((e) => e.record.type === "DisputeRuled").map((e) => get(e.payload, "dispute")));
      const who = get(p, "who");
      if (earlier.some((e) => e.record.type === "DisputeFiled" && py_eq(get(e.payload, "seq"), disputed)
          && py_eq(get(e.payload, "who"), who) && !ruled.has(e.record.seq))) {
        throw new Failure(seq, `the dispute at seq ${seq} names seq ${disputed}, which an earlier dispute by the ${py_str(who)} names: it is still open`);
      }
      found.disputes += 1;
      return;
    }
    if (tag === "DisputeRuled") {
      _ruling(ev, earlier);
      return;
    }
    const match = typeof cid === "string" ? FINDING_ID.exec(cid) : null;
    const dispute = get(p, "dispute");
    if (match === null || !py_eq(Number(match[1]), dispute)) {
      throw new Failure(seq, `DisputeFound under command id ${py_repr(cid)}, not 'umpire:finding:${py_str(dispute)}'`);
    }
    if (!(1 <= dispute && dispute < seq) || earlier[dispute - 1].record.type !== "DisputeFiled") {
      throw new Failure(seq, `the finding at seq ${seq} answers seq ${py_str(dispute)}, which is no dispute`);
    }
    if (earlier.some((e) => e.record.type === "DisputeFound" && py_eq(get(e.payload, "dispute"), dispute))) {
      throw new Failure(seq, `the finding at seq ${seq} answers dispute ${py_str(dispute)} a second time`);
    }
    _answer(ev, events);
    found.findings += 1;
  }

  const HEAD_CHANGES_MAX = 50; // the changes at the head a finding lists

  function current_line(events) {
    // The current line of a log (docs/audit.md "Amendments"): every event that no
    // amendment superseded, GameAmended itself left out.
    const gone = superseded(events);
    return events.filter((e) => !gone.has(e.record.seq) && e.record.type !== "GameAmended");
  }

  function batch_start(events, seq) {
    // The seq of the CommandRecorded whose batch holds event `seq` (0: none).
    const found = events.slice(0, seq).reverse().find((e) => e.record.type === "CommandRecorded");
    return found === undefined ? 0 : found.record.seq;
  }

  function compared(events, dispute) {
    // What the finding on the dispute at seq `dispute` compares (docs/audit.md "Disputes"
    // 4.): the current line before the DisputeFiled, from the disputed batch's
    // CommandRecorded on, dispute events left out.
    const start = batch_start(events, get(events[dispute - 1].payload, "seq", 0));
    return current_line(events.slice(0, dispute - 1)).filter((e) => e.record.seq >= start
      && ![...DISPUTE_TAGS, "ExportSealed"].includes(e.record.type));
  }

  function _answer(ev, events) {
    // What a finding answers, as far as needs no rules (docs/audit.md "Disputes", "What a
    // verifier without the rules checks"): its fields well formed, `parts_at` a seq the
    // finding compares (or one past the last) and `same` as `parts_at` says.
    const p = ev.payload;
    const seq = ev.record.seq;
    const dispute = get(p, "dispute");
    const texts = ["as_played", "under_reading", "stopped"];
    const parts_at = get(p, "parts_at", 0);
    const same = get(p, "same");
    const head = get(p, "head", []);
    if (typeof same !== "boolean" || !_int(parts_at) || parts_at < 0
        || !texts.every((k) => typeof get(p, k, "") === "string")
        || !Array.isArray(head) || head.length > HEAD_CHANGES_MAX
        || !head.every((c) => is_dict(c) && typeof get(c, "path") === "string")) {
      throw new Failure(seq, `the finding at seq ${seq} is not well formed: same a bool, parts_at a seq or 0, as_played, under_reading and stopped text, head at most ${HEAD_CHANGES_MAX} changes each with its path`);
    }
    const disputed = get(events[dispute - 1].payload, "seq");
    const [as_played, under, stopped] = texts.map((k) => get(p, k, ""));
    const line = compared(events, dispute);
    if (parts_at === 0) {
      if (!same || as_played || under || stopped) {
        throw new Failure(seq, `the finding at seq ${seq} says the lines never part (parts_at 0), yet not the same, or with the events where they part, or a line stopped`);
      }
      return;
    }
    const seqs = line.map((e) => e.record.seq);
    const past = seqs.length > 0 && parts_at === seqs[seqs.length - 1] + 1;
    if (!seqs.includes(parts_at) && !past) {
      throw new Failure(seq, `the finding at seq ${seq} says the lines part at seq ${parts_at}, no event the finding compares (the current line from seq ${seqs.length ? seqs[0] : "?"} before the dispute at seq ${py_str(dispute)}, dispute events left out) nor the one past its last`);
    }
    if (same !== parts_at > disputed) {
      throw new Failure(seq, `the finding at seq ${seq} says same=${py_str(same)} where the lines part at seq ${parts_at}, disputed seq ${py_str(disputed)}: same is true only where they part after the disputed seq`);
    }
    if (!as_played || !under || (as_played === "(nothing)") !== past || (under === "(refused)" && !stopped)) {
      throw new Failure(seq, `the finding at seq ${seq} shows no events where the lines part as they stand: as_played ("(nothing)" past the end of the line) and under_reading ("(refused)" only where the reading's line stopped)`);
    }
  }

  function _seal(ev, events, used, found) {
    // ExportSealed under umpire:seal, after the end, with every dispute ruled but a
    // spectator's (docs/audit.md "Disputes"); `head` is the seq before it.
    const r = ev.record;
    const p = ev.payload;
    const seq = req(r, "seq");
    const cid = req(r, "command_id");
    if (cid !== "umpire:seal" || used.has(cid)) {
      throw new Failure(seq, `ExportSealed under command id ${py_repr(cid)}: it stands once, under 'umpire:seal'`);
    }
    used.set(cid, seq);
    if (!found.ended_at) throw new Failure(seq, "ExportSealed before the end of the game: a running game's log goes on");
    if (!py_eq(get(p, "head"), seq - 1)) throw new Failure(seq, `the seal at seq ${seq} names head ${py_repr(get(p, "head"))}, not ${seq - 1}`);
    const earlier = events.slice(0, seq - 1);
    const ruled = new Set(earlier.filter((e) => e.record.type === "DisputeRuled").map((e) => get(e.payload, "dispute")));
    if (earlier.some((e) => e.record.type === "DisputeFiled" && !ruled.has(e.record.seq)
        && !py_eq(get(e.payload, "who"), "spectator"))) {
      throw new Failure(seq, `the seal at seq ${seq} comes while a dispute of the player or the referee is open`);
    }
    found.sealed_at = seq;
  }

  function _ruling(ev, earlier) {
    // A DisputeRuled under umpire:ruling:<dispute>, on a found dispute not ruled before, by
    // a role that may rule; an `amend` is followed in its batch by GameAmended and the
    // amended line (_amended_event).
    const r = ev.record;
    const p = ev.payload;
    const seq = req(r, "seq");
    const cid = req(r, "command_id");
    const dispute = get(p, "dispute");
    const match = typeof cid === "string" ? RULING_ID.exec(cid) : null;
    if (match === null || !py_eq(Number(match[1]), dispute)) {
      throw new Failure(seq, `DisputeRuled under command id ${py_repr(cid)}, not 'umpire:ruling:${py_str(dispute)}'`);
    }
    if (!RULERS.includes(get(p, "by"))) {
      throw new Failure(seq, `the ruling at seq ${seq} is by the ${py_repr(get(p, "by"))}, who may not rule: the player of a solo game rules, or the operator`);
    }
    if (py_eq(get(earlier[0].payload, "referee", "player"), "operator") && !py_eq(get(p, "by"), "referee")) {
      throw new Failure(seq, `the ruling at seq ${seq} is by the ${py_repr(get(p, "by"))}, who may not rule: the game was created with the operator as its referee`);
    }
    if (get(p, "ruling") !== "uphold" && get(p, "ruling") !== "amend") {
      throw new Failure(seq, `the ruling at seq ${seq} is ${py_repr(get(p, "ruling"))}, neither uphold nor amend`);
    }
    if (!earlier.some((e) => e.record.type === "DisputeFound" && py_eq(get(e.payload, "dispute"), dispute))) {
      throw new Failure(seq, `the ruling at seq ${seq} rules on ${py_repr(dispute)}, no found dispute`);
    }
    if (earlier.some((e) => e.record.type === "DisputeRuled" && py_eq(get(e.payload, "dispute"), dispute))) {
      throw new Failure(seq, `the ruling at seq ${seq} rules on dispute ${py_str(dispute)} a second time`);
    }
  }

  function _system(ev, epoch, bound, epoch_rolls, used) {
    // An event outside every command's batch: it must be, alone, a system batch.
    const r = ev.record;
    const p = ev.payload;
    const seq = req(r, "seq");
    const tag = req(r, "type");
    const cid = req(r, "command_id");
    let named;
    if (tag === "GameCreated") {
      throw new Failure(seq, "GameCreated after seq 1: the creation stands at seq 1 only");
    }
    if (tag === "ClientSeedBound") {
      const match = fullmatch(BIND_ID, cid);
      if (match === null) throw new Failure(seq, `ClientSeedBound under command id ${py_repr(cid)}, not 'umpire:bind:<epoch>'`);
      named = Number(match[1]);
    } else if (tag === "SeedRevealed") {
      const match = fullmatch(REVEAL_ID, cid);
      if (match === null) {
        throw new Failure(seq, `SeedRevealed under command id ${py_repr(cid)}, which is neither 'umpire:reveal' nor 'umpire:reveal:<epoch>' (nor the final reveal, right after GameEnded in its batch)`);
      }
      named = match[1] ? Number(match[1]) : 0;
    } else {
      throw new Failure(seq, `${py_str(tag)} is in no command's batch, and it is not a system batch (GameCreated, ClientSeedBound, SeedRevealed): no command produced it`);
    }
    if (named !== epoch) {
      throw new Failure(seq, `${tag}'s command id ${py_repr(cid)} names epoch ${named}, but the log is in seed epoch ${epoch} here`);
    }
    const payload_epoch = tag === "SeedRevealed" ? get(p, "epoch", 0) : get(p, "epoch");
    if (!is_int(payload_epoch) || !py_eq(payload_epoch, epoch)) {
      throw new Failure(seq, `${tag} is for epoch ${py_repr(payload_epoch)}, but the log is in seed epoch ${epoch} here`);
    }
    if (tag === "ClientSeedBound" && bound.has(epoch)) {
      throw new Failure(seq, `a second client seed for seed epoch ${epoch}: one per epoch`);
    }
    if (tag === "ClientSeedBound" && epoch_rolls) {
      throw new Failure(seq, `ClientSeedBound comes after ${epoch_rolls} rolls of seed epoch ${epoch}, and must come before the first`);
    }
    if (used.has(cid)) throw new Failure(seq, `command id ${py_repr(cid)} was used by the batch at seq ${py_str(used.get(cid))}`);
    used.set(cid, seq);
  }

  function _roll(ev, batch, opponent_dice) {
    // Who may have rolled a roll of a command batch (section 6, the player-roll rule).
    const seq = req(ev.record, "seq");
    const p = ev.payload;
    const by = get(p, "by", "server");
    const wanted = batch.manual ? "player" : "server";
    if (!py_eq(by, wanted)) {
      const how = batch.manual ? "with" : "without";
      throw new Failure(seq, `${roll_said(get(p, "roll"))} is marked as rolled by the ${py_str(by)}, but its command (seq ${py_str(batch.seq)}) was recorded ${how} manual dice, so every roll of it is the ${wanted}'s`);
    }
    if (by === "player" && py_eq(get(p, "owner"), "opponent") && !opponent_dice) {
      throw new Failure(seq, `${roll_said(get(p, "roll"))} (${py_str(get(p, "purpose"))}) is the opponent's, but the player entered it, and the game was not created to allow that (GameCreated.opponent_manual_dice)`);
    }
  }

  // -- section 7: the checks ------------------------------------------------------------------

  async function verify(header, events, kept_commitment = null, anchors = null) {
    // Every check of docs/audit.md section 7; what was verified, or throw Failure.
    // The chain is checked first (the other checks read what it covers). Of the other
    // checks each stops at its first failure, and the earliest of those is thrown, so a
    // forged event is named where it stands, not where a later check trips over it.
    if (events.length === 0) throw new Failure(1, "the export holds no events: a log begins with GameCreated");
    await check_chain(header, events);
    const failures = [];
    const created = req(events[0].record, "type") === "GameCreated" ? events[0].payload : new_dict();
    if (kept_commitment !== null && !py_eq(get(created, "seed_commitment"), kept_commitment)) {
      failures.push(new Failure(1, "the log's seed commitment is not the one given (the commitment its player received at creation): the log was rewritten under another seed"));
    }
    let grammar = new Grammar();
    try {
      grammar = check_grammar(events);
    } catch (failure) {
      if (!(failure instanceof Failure)) throw failure;
      failures.push(failure);
    }
    let done = [];
    try {
      done = await check_seeds_and_dice(events);
    } catch (failure) {
      if (!(failure instanceof Failure)) throw failure;
      failures.push(failure);
    }
    let secrecy = "";
    try {
      secrecy = check_secrecy(header, events);
    } catch (failure) {
      if (!(failure instanceof Failure)) throw failure;
      failures.push(failure);
    }
    if (!py_eq(get(header, "receipt_key", ""), "") && !py_eq(get(header, "receipt_key", ""), get(created, "receipt_key", ""))) {
      failures.push(new Failure(1, "the header's receipt_key is not the one GameCreated names: a receipt counts only under the log's own key"));
    }
    let anchored = NOT_ANCHORED;
    if (anchors !== null) {
      const [anchor_failure, summary] = await check_anchors(anchors, events);
      anchored = summary;
      if (anchor_failure !== null) failures.push(anchor_failure);
    }
    if (failures.length) throw failures.reduce((a, b) => (num(b.seq) < num(a.seq) ? b : a));
    const counts = { events: events.length, rolls: done.rolls, checked: done.checked };
    done = [...done];
    done.push(secrecy);
    let batches = `${count_said(grammar.commands, "command batch", "command batches")}, ${count_said(grammar.system, "system batch", "system batches")}`;
    if (grammar.taken_back) batches += ` (${count_said(grammar.taken_back, "command")} taken back)`;
    done.splice(1, 0, `batch grammar holds: ${batches}, ${count_said(grammar.player_rolls, "player roll")}`);
    if (grammar.disputes) {
      done.push(`${count_said(grammar.disputes, "dispute")}, ${count_said(grammar.findings, "finding")}, ${count_said(grammar.amendments, "amendment")}: where they stand and what they answer hold (\`umpire audit\` re-makes the findings and the amended lines)`);
    }
    if (grammar.ended_at) {
      const how = grammar.final_reveal ? "with" : "without";
      done.push(`the game ended at seq ${grammar.ended_at} ${how} its final reveal`);
    }
    if (kept_commitment !== null) done.push("the seed commitment is the one given");
    done.push(anchored);
    // Section 1: complete means ended and finally revealed; anything else is a prefix, and
    // a header that calls a prefix complete was cut or edited.
    const complete = Boolean(grammar.ended_at && grammar.final_reveal);
    if (get(header, "complete") === true && !complete) {
      throw new Failure(events.length, "the header says the game is complete, but the log does not end with GameEnded and its final reveal: it was cut");
    }
    if (!complete) done.unshift(PREFIX_NOTE(events.length));
    done.counts = counts;
    return done;
  }

  function check_secrecy(header, events) {
    // Section 3: every version-2 event whose type's secrecy class in the header makes it
    // secret is committed (`secret` always; `hidden_roll` when the roll's `hidden` is
    // true; `secret_when` and `ruleset_code` need the rules: not checked here; a committed
    // `public` event hides nothing and is not a failure). Without classes in the header
    // (an older export) only hidden rolls are checked (in check_seeds_and_dice).
    const classes = get(header, "secrecy");
    if (!is_dict(classes)) return "no secrecy classes in the header: only hidden rolls checked for commitment";
    let checked = 0;
    for (const ev of events) {
      const r = ev.record;
      if (!py_eq(get(r, "envelope_version", 1), 2)) continue;
      const type = req(r, "type");
      const kind = typeof type === "string" ? get(classes, type) : null;
      if (kind === null) throw new Failure(req(r, "seq"), `the header names no secrecy class for ${py_repr(type)}`);
      let must;
      if (kind === "hidden_roll") must = get(ev.payload, "hidden") === true;
      else if (kind === "public" || kind === "secret") must = kind === "secret";
      else continue;
      if (must && !py_truthy(req(r, "committed"))) {
        throw new Failure(req(r, "seq"), `a ${kind.replaceAll("_", " ")} event (${py_str(type)}) is published with a plain digest, not a commitment (section 3)`);
      }
      checked += must ? 1 : 0;
    }
    return `${count_said(checked, "secret event")} committed as ${checked === 1 ? "its" : "their"} secrecy class requires`;
  }

  async function check_chain(header, events) {
    // Sections 1 and 2: seqs, game, links and hashes, and the header's count and head.
    const game_id = get(header, "game_id");
    // 2: seqs, game, links and hashes
    let prev = GENESIS;
    let current_since = 0; // the first seq of envelope version 2 (0: none yet)
    let expected = 0;
    for (const ev of events) {
      expected += 1;
      const r = ev.record;
      if (py_eq(get(r, "envelope_version", 1), 2) && !current_since) {
        current_since = expected;
      } else if (!py_eq(get(r, "envelope_version", 1), 2) && current_since) {
        throw new Failure(expected, `envelope version ${py_str(get(r, "envelope_version", 1))} after version 2 (from seq ${current_since}): a log never goes back to the old rule`);
      }
      if (!py_eq(req(r, "seq"), expected)) {
        throw new Failure(expected, `expected seq ${expected}, found ${py_str(r.seq)}: an event is missing or out of order`);
      }
      if (!py_eq(req(r, "game_id"), game_id)) throw new Failure(expected, `the event belongs to game ${py_repr(r.game_id)}`);
      if (!py_eq(req(r, "prev_hash"), prev)) throw new Failure(expected, "prev_hash does not link to the previous event's hash");
      if (!py_eq(await envelope_hash(r, ev.payload_bytes), req(r, "hash"))) {
        throw new Failure(expected, "the hash does not match the event");
      }
      prev = r.hash;
    }
    const announced = get(header, "events");
    if (!py_eq(events.length, announced)) {
      const other = py_truthy(announced) ? num(announced) : 0;
      throw new Failure(Math.min(events.length, other) + 1, `the header announces ${py_str(announced)} events, the file holds ${events.length}`);
    }
    if (events.length && !py_eq(get(header, "last_hash"), prev)) {
      throw new Failure(events.length, "the header's last_hash is not the last event's hash");
    }
  }

  async function check_seeds_and_dice(events) {
    // Sections 3 to 5: seeds and their commitments, digests, commitments, roll numbers and
    // server rolls; what was verified, or throw Failure.
    // 4: epochs, seeds and their commitments
    const epochs = new Epochs();
    const commitments = []; // the commitment each epoch's seed must match
    const client_seeds = new Map(); // the client seed bound for each epoch
    let waived = false; // the game waived client entropy: every epoch's client seed is ""
    let final = false; // the final reveal,
    let sealing_key = new Uint8Array(0); // and the sealing key it publishes
    let sealing_commitment = ""; // a game's hidden rolls derive from its sealing key (section 3)
    for (const ev of events) {
      const r = ev.record;
      const p = ev.payload;
      const type = req(r, "type");
      if (type === "GameCreated") {
        if (!py_eq(req(r, "seq"), 1)) throw new Failure(r.seq, "GameCreated after seq 1");
        commitments.push(req(p, "seed_commitment"));
        sealing_commitment = get(p, "sealing_commitment", "");
        waived = py_eq(get(p, "client_entropy"), "waived");
        if (py_truthy(get(p, "client_seed"))) client_seeds.set(0, p.client_seed); // an old log
      } else if (type === "ClientSeedBound") {
        client_seeds.set(py_int(req(p, "epoch")), req(p, "client_seed"));
      } else if (type === "SeedRevealed") {
        const epoch = epochs.seeds.length;
        let seed;
        try {
          seed = py_fromhex(req(p, "seed"));
        } catch (exc) {
          if (!(exc instanceof NotReadable) || exc.kind !== "ValueError") throw exc;
          throw new Failure(r.seq, "the revealed seed is not hex");
        }
        if (epoch >= commitments.length || !py_eq(await sha256_hex(seed), commitments[epoch])) {
          throw new Failure(r.seq, `the revealed seed of epoch ${epoch} does not match its commitment`);
        }
        epochs.reveal_seqs.push(r.seq);
        epochs.seeds.push(seed);
        if (py_truthy(get(p, "next_commitment"))) {
          commitments.push(p.next_commitment);
        } else {
          // the final reveal: it publishes the sealing key (section 3)
          final = true;
          try {
            sealing_key = py_fromhex(get(p, "sealing_key", ""));
          } catch (exc) {
            if (!(exc instanceof NotReadable) || exc.kind !== "ValueError") throw exc;
            throw new Failure(r.seq, "the sealing key is not hex");
          }
          if (py_truthy(sealing_commitment) && !py_eq(await sha256_hex(sealing_key), sealing_commitment)) {
            throw new Failure(r.seq, "the sealing key does not match GameCreated's sealing_commitment");
          }
        }
      }
    }
    // 3: digests and commitments
    let opened = 0;
    let pending = 0;
    for (const ev of events) {
      const r = ev.record;
      if (!py_eq(get(r, "envelope_version", 1), 2)) continue;
      if (!py_truthy(req(r, "committed"))) {
        if (r.type === "DiceRolled" && get(ev.payload, "hidden") === true) {
          throw new Failure(r.seq, "a hidden roll is published with a plain digest, not a commitment (section 3): its faces could be tested against it before the reveal");
        }
        if (!py_eq(req(r, "digest"), await sha256_hex(ev.payload_bytes))) {
          throw new Failure(r.seq, "the payload does not match its digest");
        }
        continue;
      }
      // A ruleset secret, and a hidden roll of a game with a sealing commitment, open with
      // the sealing key of the final reveal (a log without one: its epoch's seed), never
      // before it; an older game's hidden roll with its epoch's seed.
      let seed;
      if (r.type === "DiceRolled" && !py_truthy(sealing_commitment)) seed = epochs.seed_of(r.seq);
      else seed = final ? (sealing_key.length ? sealing_key : epochs.seed_of(r.seq)) : null;
      if (seed === null) {
        pending += 1;
        continue;
      }
      if (!py_eq(req(r, "digest"), await commitment(seed, r.game_id, r.seq, ev.payload_bytes))) {
        throw new Failure(r.seq, "the payload does not open its commitment");
      }
      opened += 1;
    }
    // 5: roll numbers and server rolls; a roll takes the nonce of its command's batch
    let rolls = 0;
    let checked = 0;
    let with_nonce = 0;
    const nonces = new Map(); // command id -> its CommandRecorded's nonce
    const numbered = new Map(); // each roll's payload by its number
    let amending = null; // the amending ruling's batch id, once its GameAmended is read
    for (const ev of events) {
      const r = ev.record;
      const p = ev.payload;
      if (r.type === "CommandRecorded") nonces.set(hash_key(req(r, "command_id")), get(p, "nonce", ""));
      if (r.type === "GameAmended") amending = r.command_id;
      if (r.type !== "DiceRolled") continue;
      if (amending !== null && py_eq(r.command_id, amending) && _int(req(p, "roll")) && p.roll < rolls) {
        // Re-applied by the amendment under its number: the same roll, checked where it
        // was made (`umpire audit` checks it is the one the re-application consumes).
        if (!numbered.has(p.roll) || !py_eq(numbered.get(p.roll), p)) {
          throw new Failure(r.seq, `${roll_said(p.roll)} re-applied by the amendment is not the roll the log made under that number`);
        }
        continue;
      }
      if (_int(p.roll)) numbered.set(p.roll, p);
      if (!py_eq(req(p, "roll"), rolls)) throw new Failure(r.seq, `${roll_said(p.roll)} is out of order: expected ${roll_said(rolls)}`);
      rolls += 1;
      if (!py_eq(get(p, "by", "server"), "server")) continue;
      const seed = epochs.seed_of(r.seq);
      if (seed === null) continue;
      const epoch = epochs.epoch_of(r.seq);
      const client_seed = client_seeds.has(epoch) ? client_seeds.get(epoch) : waived ? "" : null;
      if (client_seed === null) throw new Failure(r.seq, "no client seed is bound for this roll's epoch");
      const key = hash_key(req(r, "command_id"));
      const nonce = nonces.has(key) ? nonces.get(key) : "";
      if (typeof nonce !== "string") throw new Failure(r.seq, "its command's nonce is not a string");
      const sealed_hidden = py_truthy(sealing_commitment) && get(p, "hidden") === true;
      const roll_from = await roll_key(seed, final ? sealing_key : null, sealed_hidden);
      if (roll_from === null) continue; // a hidden roll: checked once the final reveal opens its key
      const faces = await server_faces(roll_from, client_seed, nonce, p.roll, req(p, "kind"), req(p, "sides"));
      if (!py_eq(faces, req(p, "faces")) || !py_eq(total_of(p.kind, faces), req(p, "total"))) {
        const gives = nonce ? " and its command's nonce give" : " gives";
        throw new Failure(r.seq, `server ${roll_said(p.roll)} shows ${py_str(p.faces)} (total ${py_str(p.total)}), its key${gives} ${py_str(faces)}`);
      }
      checked += 1;
      with_nonce += nonce ? 1 : 0;
    }
    const done = [
      `${count_said(events.length, "event")}, hash chain intact`,
      `${count_said(opened, "commitment")} opened, ${pending} still closed (unrevealed epoch, or a secret still in play before the final reveal)`,
      `${count_said(epochs.seeds.length, "revealed seed")} ${epochs.seeds.length === 1 ? "matches its commitment" : "match their commitments"}`,
      `${count_said(rolls, "roll")} numbered, ${count_said(checked, "server roll")} recomputed (${with_nonce} of them from their command's nonce too)`,
    ];
    done.rolls = rolls;
    done.checked = checked;
    return done;
  }

  // -- section 8.1: anchors (the receipts file) -----------------------------------------------

  const RECEIPTS_FORMATS = ["umpire-receipts/1", "umpire-receipts/2", "umpire-receipts/3"];
  const HEX64 = /^[0-9a-f]{64}$/;
  const NOT_ANCHORED = "not anchored: no receipts given (--receipts FILE): a rewrite from a later seq, a relabelled roll and a log cut at a batch's end pass the log's own checks";
  const NOT_SIGNED = "not anchored: no receipt is signed by the game's key, so none binds the server: a rewrite from a later seq passes the log's own checks";

  class ReceiptsUnreadable extends Error {
    // A receipts file that is not section 8.1's format, or not of this game.
  }

  const is_py_int = (x) => (typeof x === "number" && Number.isInteger(x)) || typeof x === "bigint"; // type(x) is int

  function read_receipts(bytes) {
    // Section 8.1: the game id and the anchors (each with its `line`) of a receipts file.
    let whole;
    try {
      whole = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      throw new NotReadable("UnicodeDecodeError", "the receipts file is not UTF-8");
    }
    // Python reads it in text mode: "\r\n" and "\r" become "\n" before the split.
    const numbered = whole.replace(/\r\n?/g, "\n").split("\n")
      .map((line, index) => [index + 1, line]).filter(([, line]) => py_strip(line));
    if (numbered.length === 0) throw new ReceiptsUnreadable("the receipts file is empty");
    const header = parse_json(numbered[0][1]);
    if (!is_dict(header) || !RECEIPTS_FORMATS.some((f) => py_eq(get(header, "format"), f))) {
      throw new ReceiptsUnreadable(`line 1 of the receipts file is not a ${RECEIPTS_FORMATS.join(" or ")} header`);
    }
    const anchors = [];
    for (const [number, line] of numbered.slice(1)) {
      const record = parse_json(line);
      const kind = is_dict(record) ? get(record, "kind") : null;
      let ok;
      if (kind === "receipt") {
        const head_seq = get(record, "head_seq");
        const head_hash = get(record, "head_hash");
        ok = ["created", "accepted", "state"].includes(get(record, "reply"))
          && is_py_int(head_seq) && head_seq >= 1
          && typeof head_hash === "string" && HEX64.test(head_hash);
      } else if (kind === "commitment") {
        const epoch = get(record, "epoch");
        const value = get(record, "commitment");
        ok = is_py_int(epoch) && epoch >= 0 && typeof value === "string" && HEX64.test(value);
      } else {
        ok = false;
      }
      if (!ok) throw new ReceiptsUnreadable(`line ${number} of the receipts file is not an anchor`);
      const anchor = Object.assign(new_dict(), record);
      anchor.line = number;
      anchors.push(anchor);
    }
    return [py_str(get(header, "game_id")), anchors];
  }

  function _named(anchor) {
    if (anchor.kind === "commitment") return `commitment on line ${anchor.line} (epoch ${py_str(anchor.epoch)})`;
    const command = py_truthy(get(anchor, "command_id")) ? `, command ${py_str(anchor.command_id)}` : "";
    return `receipt on line ${anchor.line} (${py_str(anchor.reply)}${command})`;
  }

  // -- section 8.4: signed receipts -----------------------------------------------------------

  // The signature check itself is receipt_check.js's (loaded before this script), shared
  // with the table, which checks each receipt as it arrives; here with Python's data model.
  const checks = globalThis.umpireReceiptCheck;
  const PY_MODEL = Object.freeze({ truthy: py_truthy, is_int: is_py_int });
  const key_id_of = checks.key_id_of;

  function signature_valid(game_id, public_key, r) {
    // Section 8.4: whether a receipt carries a valid signature of `public_key`.
    return checks.signature_valid(game_id, public_key, r, PY_MODEL);
  }

  async function equivocation(game_id, public_key, signed) {
    // Section 8.5: two signed receipts that give one seq two head hashes, said, or null.
    const seen = new Map();
    for (const r of [...signed].sort((a, b) => num(a.head_seq) - num(b.head_seq))) {
      const seq = num(r.head_seq);
      if (!seen.has(seq)) seen.set(seq, r);
      const before = seen.get(seq);
      if (!py_eq(before.head_hash, r.head_hash)) {
        return [seq, `equivocation proven: key ${await key_id_of(public_key)} signed two heads for seq ${seq} of game ${game_id}: ${before.head_hash} (${py_str(before.reply)}) and ${r.head_hash} (${py_str(r.reply)})`];
      }
    }
    return null;
  }

  async function check_proof(bytes) {
    // Section 8.5: a proof of equivocation, checked on its own; what it proves.
    const proof = parse_json(new TextDecoder("utf-8").decode(bytes));
    const formats = ["umpire-equivocation/1", "umpire-equivocation/2", "umpire-equivocation/3"];
    if (!is_dict(proof) || !formats.some((f) => py_eq(get(proof, "format"), f))) throw new Failure(0, `the proof is not an ${formats.join(" or ")} object`);
    const game_id = get(proof, "game_id");
    const key = get(proof, "public_key");
    const receipts = get(proof, "receipts");
    if (typeof game_id !== "string" || typeof key !== "string" || !HEX64.test(key)) throw new Failure(0, "the proof names no game_id, or its public_key is not 64 hex digits");
    if (!py_eq(get(proof, "key_id"), await key_id_of(key))) throw new Failure(0, "the proof's key_id is not the id of its public_key");
    if (!Array.isArray(receipts) || receipts.length !== 2) throw new Failure(0, "the proof holds two receipts, no more and no fewer");
    for (const [which, r] of [["first", receipts[0]], ["second", receipts[1]]]) {
      // Version 1 holds receipts signed on their own; version 2 unblinded batch receipts
      // too; version 3 blinded ones too.
      const form = formats.findIndex((f) => py_eq(proof.format, f));
      const newer = is_dict(r) && ((form < 1 && py_truthy(get(r, "tree_size"))) || (form < 2 && py_truthy(get(r, "blind"))));
      if (!is_dict(r) || newer || !(await signature_valid(game_id, key, r))) throw new Failure(0, `the ${which} receipt's signature is not valid under the key`);
    }
    if (!py_eq(receipts[0].head_seq, receipts[1].head_seq)) throw new Failure(0, "the two receipts are of different seqs: they do not conflict");
    const found = await equivocation(game_id, key, receipts);
    if (found === null) throw new Failure(0, "the two receipts give the same head hash: they do not conflict");
    return found[1];
  }

  function is_proof(bytes) {
    // Whether a dropped file is a proof of equivocation rather than an export.
    try {
      const value = parse_json(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
      return is_dict(value) && ["umpire-equivocation/1", "umpire-equivocation/2", "umpire-equivocation/3"].some((f) => py_eq(get(value, "format"), f));
    } catch {
      return false;
    }
  }

  async function main_proof(bytes) {
    // What `verify_export.py --proof FILE` prints, and its exit code.
    try {
      return { exit: 0, verdict: "proven", seq: null, line: await check_proof(bytes), done: [] };
    } catch (failure) {
      const reason = failure instanceof Failure ? failure.reason : `the file is not readable (${failure.message})`;
      return { exit: failure instanceof Failure ? 1 : 2, verdict: "not-proof", seq: null, line: `NOT A PROOF: ${reason}`, done: [] };
    }
  }

  async function check_anchors(anchors, events) {
    // Sections 8.1-8.5: the lowest-seq disagreement of the export with an anchor that
    // counts (or null), and how far the anchors reach. Only receipts signed by the key the
    // export's GameCreated names count; two of them that disagree are an equivocation.
    const n = events.length;
    const game_id = n ? req(events[0].record, "game_id") : "";
    const created = n && req(events[0].record, "type") === "GameCreated" ? events[0].payload : new_dict();
    const game_key = is_dict(created) ? get(created, "receipt_key", "") : "";
    const unsigned = [];
    const counted = [];
    for (const a of anchors) {
      if (a.kind === "receipt" && !(await signature_valid(game_id, game_key, a))) unsigned.push(a);
      else counted.push(a);
    }
    anchors = counted;
    const hashes = events.map((ev) => req(ev.record, "hash"));
    const commitments = []; // [seq, commitment] of epoch 0, 1, ...
    for (const ev of events) {
      const r = ev.record;
      if (py_eq(req(r, "seq"), 1) && req(r, "type") === "GameCreated") {
        commitments.push([1, get(ev.payload, "seed_commitment", "")]);
      } else if (r.type === "SeedRevealed" && py_truthy(get(ev.payload, "next_commitment"))) {
        commitments.push([r.seq, ev.payload.next_commitment]);
      }
    }
    const receipts = anchors.filter((a) => a.kind === "receipt");
    const two_heads = await equivocation(game_id, game_key, receipts);
    if (two_heads !== null) return [new Failure(two_heads[0], two_heads[1]), ""];
    const at = (seq) => hashes[Number(seq) - 1];
    const agreeing = receipts.filter((a) => a.head_seq <= n && py_eq(at(a.head_seq), a.head_hash))
      .map((a) => Number(a.head_seq)).sort((x, y) => x - y);
    const failures = [];
    for (const a of anchors) {
      if (a.kind === "receipt") {
        const seq = Number(a.head_seq);
        if (a.head_seq > n) {
          failures.push(new Failure(n + 1, `${_named(a)} states the hash of seq ${py_str(a.head_seq)} (${a.head_hash}); the export ends at seq ${n}: the log was cut (or the export is older than the receipt)`));
        } else if (!py_eq(at(seq), a.head_hash)) {
          const before = agreeing.filter((s) => s < seq);
          const since = before.length
            ? `the last receipt that agrees is at seq ${before[before.length - 1]}, so the change lies in seqs ${before[before.length - 1] + 1}..${seq}`
            : `no receipt before it agrees: the change lies in seqs 1..${seq}`;
          failures.push(new Failure(seq, `${_named(a)} states the hash of seq ${seq} is ${a.head_hash}; the export's is ${py_str(at(seq))}: the log was rewritten at or before seq ${seq} (${since})`));
        }
      } else if (a.epoch >= commitments.length) {
        failures.push(new Failure(n + 1, `${_named(a)} is the commitment ${a.commitment} of seed epoch ${py_str(a.epoch)}; the export ends at seq ${n} before the reveal that opened that epoch: the log was cut (or the export is older than the commitment)`));
      } else if (!py_eq(commitments[Number(a.epoch)][1], a.commitment)) {
        const [seq, found] = commitments[Number(a.epoch)];
        const where = py_eq(a.epoch, 0) ? "GameCreated.seed_commitment" : "the next_commitment";
        failures.push(new Failure(seq, `${_named(a)} is ${a.commitment}; the export's ${where} at seq ${py_str(seq)} is ${py_str(found)}: the log was rewritten under a seed the player was not given`));
      }
    }
    const reach = Math.max(0,
      ...receipts.map((a) => Number(a.head_seq)),
      ...anchors.filter((a) => a.kind === "commitment" && a.epoch < commitments.length)
        .map((a) => num(commitments[Number(a.epoch)][0])));
    let note = "";
    if (unsigned.length) {
      const lines = unsigned.slice(0, 8).map((a) => a.line).join(", ");
      note = `; ${count_said(unsigned.length, "receipt")} ${unsigned.length === 1 ? "is" : "are"} not signed by the game's key (lines ${lines}${unsigned.length > 8 ? ", ..." : ""}): they count neither for nor against the export`;
    }
    const first = failures.length ? failures.reduce((x, y) => (num(y.seq) < num(x.seq) ? y : x)) : null;
    if (!receipts.length) return [first, NOT_SIGNED + note];
    const summary = `anchored: ${count_said(receipts.length, "signed receipt")} and ${count_said(anchors.length - receipts.length, "commitment")} agree, up to seq ${reach}`
      + (reach < n ? ` (seqs ${reach + 1}..${n} are anchored by nothing)` : "") + note;
    return [first, summary];
  }

  function _commitment_arg(text) {
    if (!/^[0-9a-f]{64}$/.test(text)) throw new NotReadable("ArgumentTypeError", "a seed commitment is 64 lowercase hex digits");
    return text;
  }

  async function main(bytes, commitment_text, receipts_bytes = null) {
    // What verify_export.py prints for this file (with --commitment and --receipts when
    // given), and its exit code: {exit, verdict: "ok" | "prefix" | "failed" | "unreadable"
    // | "receipts" | "argument", seq, line, done, counts}.
    let kept = null;
    if (commitment_text) {
      try {
        kept = _commitment_arg(commitment_text);
      } catch (exc) {
        return { exit: 2, verdict: "argument", seq: null, line: `argument --commitment: ${exc.message}`, done: [] };
      }
    }
    let anchors = null;
    let receipts_game = null;
    if (receipts_bytes !== null) {
      try {
        [receipts_game, anchors] = read_receipts(receipts_bytes);
      } catch (exc) {
        if (!(exc instanceof ReceiptsUnreadable || exc instanceof NotReadable)) throw exc;
        return { exit: 2, verdict: "receipts", seq: "0", done: [],
          line: `FAILED at seq 0: the receipts file is not readable (${exc.message})` };
      }
    }
    let header;
    let events;
    let done;
    try {
      [header, events] = read(bytes);
      if (anchors !== null && !py_eq(receipts_game, get(header, "game_id"))) {
        return { exit: 2, verdict: "receipts", seq: "0", done: [],
          line: `FAILED at seq 0: the receipts are of game ${py_repr(receipts_game)}, the export of game ${py_repr(get(header, "game_id"))}` };
      }
      done = await verify(header, events, kept, anchors);
    } catch (failure) {
      if (failure instanceof Failure) {
        const seq = py_str(failure.seq);
        return { exit: 1, verdict: "failed", seq, line: `FAILED at seq ${seq}: ${failure.reason}`, done: [] };
      }
      const kind = failure instanceof NotReadable ? failure.kind : failure.name || "Error";
      return { exit: 2, verdict: "unreadable", seq: "0",
        line: `FAILED at seq 0: the file is not a readable export (${kind}: ${failure.message})`, done: [] };
    }
    // A prefix (not ended and finally revealed) is never "OK": what it holds verified, but
    // what follows it, and the secrets still sealed, are unknown (section 7).
    const prefix = done[0] === PREFIX_NOTE(events.length);
    // The headline (section 8.4): "verified" only when a receipt the game's key signed
    // agrees; a log that merely holds together could have been rewritten whole.
    const anchored = done[done.length - 1].startsWith("anchored:");
    return { exit: 0, verdict: prefix ? "prefix" : "ok", seq: null, anchored,
      line: (prefix ? "PREFIX: " : "OK: ") + done.join("; "), done, counts: done.counts };
  }

  // -- the page -----------------------------------------------------------------------------

  const $ = (id) => document.getElementById(id);
  let runs = 0;
  let chosen = null; // {name, bytes} of the export being verified
  let receipts = null; // {name, bytes} of the receipts file given as anchors (or none)
  let receipts_loads = 0; // receipts chosen or forgotten so far (each then verified again)

  function headline(result) {
    const counts = `${result.counts ? result.counts.events : 0} events, ${result.counts ? result.counts.rolls : 0} rolls`;
    if (result.verdict === "ok" && result.anchored) return `verified: ${counts}`;
    if (result.verdict === "ok") return `consistent, not anchored: ${counts}`;
    if (result.verdict === "prefix") return `${result.anchored ? "" : "consistent, not anchored: "}${PREFIX_NOTE(result.counts.events)}`;
    if (result.verdict === "proven") return "equivocation proven";
    if (result.verdict === "not-proof") return "not a proof of equivocation";
    if (result.verdict === "failed") return `failed at seq ${result.seq}`;
    if (result.verdict === "argument") return "the commitment is not valid";
    if (result.verdict === "receipts") return "the receipts file cannot be used";
    return "not a readable export";
  }

  function show(result, name) {
    const verdict = $("verdict");
    // "ok" without signed receipts is amber, not green: the log only holds together.
    verdict.dataset.state = result.verdict === "ok" && !result.anchored ? "consistent" : result.verdict;
    verdict.dataset.exit = String(result.exit);
    verdict.dataset.seq = result.seq === null ? "" : result.seq;
    $("headline").textContent = headline(result);
    $("file-name").textContent = name ? `file: ${name}` : "";
    $("line").textContent = result.line;
    const list = $("details");
    list.replaceChildren(...result.done.map((item) => {
      const li = document.createElement("li");
      li.textContent = item;
      return li;
    }));
    runs += 1;
    document.body.dataset.runs = String(runs);
  }

  async function run() {
    if (chosen === null) return;
    if (!(globalThis.crypto && crypto.subtle)) {
      show({ exit: 2, verdict: "unreadable", seq: null, done: [],
        line: "this browser offers no WebCrypto here (crypto.subtle): open the page over https, from localhost, or from a saved copy (file://)" }, chosen.name);
      return;
    }
    $("verdict").dataset.state = "working";
    $("headline").textContent = "verifying…";
    if (is_proof(chosen.bytes)) {
      show(await main_proof(chosen.bytes), chosen.name);
      return;
    }
    show(await main(chosen.bytes, $("commitment").value.trim(), receipts ? receipts.bytes : null), chosen.name);
  }

  async function choose_receipts(file) {
    // A receipts file given (or, with null, forgotten): the export is verified again.
    receipts = file ? { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) } : null;
    $("receipts-name").textContent = receipts ? `receipts: ${receipts.name}` : "no receipts given";
    $("receipts-clear").hidden = receipts === null;
    await run();
    receipts_loads += 1;
    document.body.dataset.receipts = receipts ? receipts.name : "";
    document.body.dataset.receiptsLoads = String(receipts_loads);
  }

  async function choose(file) {
    if (!file) return;
    chosen = { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
    await run();
  }

  function wire() {
    const input = $("export-file");
    input.addEventListener("change", () => {
      const file = input.files[0];
      input.value = ""; // so that choosing the same file again verifies it again
      choose(file);
    });
    $("commitment").addEventListener("change", run);
    $("verify-form").addEventListener("submit", (event) => {
      event.preventDefault();
      run();
    });
    const drop = $("drop");
    drop.addEventListener("dragover", (event) => {
      event.preventDefault();
      drop.classList.add("over");
    });
    drop.addEventListener("dragleave", () => drop.classList.remove("over"));
    drop.addEventListener("drop", (event) => {
      event.preventDefault();
      drop.classList.remove("over");
      choose(event.dataTransfer.files[0]);
    });
    const given = $("receipts-file");
    given.addEventListener("change", () => {
      const file = given.files[0];
      given.value = ""; // so that choosing the same file again reads it again
      choose_receipts(file);
    });
    $("receipts-clear").addEventListener("click", () => choose_receipts(null));
    const receipts_drop = $("receipts-drop");
    receipts_drop.addEventListener("dragover", (event) => {
      event.preventDefault();
      receipts_drop.classList.add("over");
    });
    receipts_drop.addEventListener("dragleave", () => receipts_drop.classList.remove("over"));
    receipts_drop.addEventListener("drop", (event) => {
      event.preventDefault();
      receipts_drop.classList.remove("over");
      choose_receipts(event.dataTransfer.files[0]);
    });
    if (!(globalThis.crypto && crypto.subtle)) {
      $("headline").textContent = "WebCrypto is not available on this page (not a secure context): open it over https, from localhost, or save it and open the saved copy";
    }
    document.body.dataset.ready = "1";
  }

  // Exposed for reading in the console; the page itself needs nothing from outside.
  globalThis.umpireVerify = { main, main_proof, verify, read, read_receipts, check_proof };
  if (typeof document !== "undefined") {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wire);
    else wire();
  }
})();
