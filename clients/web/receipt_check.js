// The check of a receipt's signature (docs/audit.md 8.4), in one place for the two pages
// that make it: the table checks each `created` and `accepted` receipt as it arrives
// (umpire.js), the verify page checks the receipts file given to it (verify.js).
//
// A classic script, not an ES module: it puts its functions on
// `globalThis.umpireReceiptCheck`. So it loads both ways: from verify.html's own <script>
// (a saved copy of that page must work from file://, where Chromium runs no module
// script) and from umpire.js's `import "./receipt_check.js"` (a module import runs it,
// for that effect). Function names follow verifier/verify_export.py, as verify.js's do.
//
// Values are JSON's. Python's rules for the odd ones (is 1.0 an int, is [] true) are the
// caller's `model`: `{ truthy, is_int }`; by default those of JSON as JSON.parse reads it.
// verify.js passes its own (its reader keeps Python's int/float distinction), so that it
// stays check for check with verify_export.py.
"use strict";

(function () {
  const HEX64 = /^[0-9a-f]{64}$/;
  const SIGNATURE = /^[0-9a-f]{128}$/;
  const BLIND = /^[0-9a-f]{32}$/;

  // Python's truth of a JSON value, and `type(x) is int` (a bool is not an int).
  const JSON_MODEL = Object.freeze({
    truthy: (x) => {
      if (x === null || x === undefined || x === false || x === 0 || x === "") return false;
      if (Array.isArray(x)) return x.length > 0;
      if (typeof x === "object") return Object.keys(x).length > 0;
      return true;
    },
    is_int: (x) => (typeof x === "number" && Number.isInteger(x)) || typeof x === "bigint",
  });

  // dict.get(key, default), for plain objects and for verify.js's prototype-less dicts.
  const field = (r, key, dflt = null) => (Object.hasOwn(r, key) ? r[key] : dflt);

  function must(r, key) {
    // dict[key]: a receipt without it is no signed receipt (the caller says false).
    if (!Object.hasOwn(r, key)) throw new Error(`the receipt has no ${key}`);
    return r[key];
  }

  const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

  function fromhex(text) {
    const out = new Uint8Array(text.length / 2);
    for (let i = 0; i < out.length; i += 1) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
    return out;
  }

  async function key_id_of(public_key) {
    // Section 8.4: the first 16 hex digits of SHA-256 over the raw 32-byte public key.
    return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", fromhex(public_key)))).slice(0, 16);
  }

  function json_ascii(x) {
    // json.dumps(x) of a str or int (ensure_ascii: every character outside space..~ escaped).
    if (typeof x !== "string") return String(x);
    return JSON.stringify(x).replace(/[\u007f-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
  }

  function signed_statement(game_id, r) {
    // Section 8.4: the bytes a receipt's signature covers (canonical JSON, keys sorted).
    const body = [
      ["domain", "umpire-receipt-signature/1"], ["first_seq", must(r, "first_seq")],
      ["game_id", game_id], ["head_hash", must(r, "head_hash")], ["head_seq", must(r, "head_seq")],
      ["key_id", must(r, "key_id")], ["reply", must(r, "reply")], ["role", field(r, "role", "player")],
      ["state_hash", field(r, "state_hash", "")],
    ];
    return new TextEncoder().encode("{" + body.map(([k, v]) => `${json_ascii(k)}:${json_ascii(v)}`).join(",") + "}");
  }

  function concat(...parts) {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) { out.set(p, at); at += p.length; }
    return out;
  }

  async function leaf_hash(statement, blind = new Uint8Array(0)) {
    // Section 8.4 (RFC 9162 2.1.1): a leaf of a batch's tree; a blinded tree's leaf hashes
    // the receipt's 16-byte blind before the statement.
    return new Uint8Array(await crypto.subtle.digest("SHA-256", concat(Uint8Array.of(0), blind, statement)));
  }

  async function node_hash(left, right) {
    // Section 8.4 (RFC 9162 2.1.1): an interior node of a batch's tree.
    return new Uint8Array(await crypto.subtle.digest("SHA-256", concat(Uint8Array.of(1), left, right)));
  }

  async function root_from_proof(leaf, index, size, proof) {
    // Section 8.4 (RFC 9162 2.1.3.2): the root the inclusion proof leads to from leaf
    // `index` of a tree of `size`, or null if the proof does not fit them. BigInt: an
    // index or size past 2**53 is still Python's exact int.
    if (!(0n <= index && index < size) || proof.length > 63) return null;
    let fn = index;
    let sn = size - 1n;
    let node = leaf;
    for (const sibling of proof) {
      if (sn === 0n) return null;
      if ((fn & 1n) === 1n || fn === sn) {
        node = await node_hash(sibling, node);
        while (fn !== 0n && (fn & 1n) === 0n) { fn >>= 1n; sn >>= 1n; }
      } else {
        node = await node_hash(node, sibling);
      }
      fn >>= 1n;
      sn >>= 1n;
    }
    return sn === 0n ? node : null;
  }

  async function signed_bytes(game_id, r, model = JSON_MODEL) {
    // Section 8.4: what a receipt's signature covers: its statement (a receipt signed on
    // its own: no `tree_size`, or 0), or the root statement of the tree its proof leads to (a
    // batch receipt: `batch/2` from a leaf with its `blind`, `batch/1` from one without);
    // null for a batch receipt whose proof leads nowhere, or a blind that is not 32 hex
    // digits or belongs to no tree.
    const statement = signed_statement(game_id, r);
    const blind = field(r, "blind", "");
    if (typeof blind !== "string" || (blind && !BLIND.test(blind))) return null;
    if (!model.truthy(field(r, "tree_size"))) return blind ? null : statement;
    const index = field(r, "leaf_index");
    const size = field(r, "tree_size");
    const proof = field(r, "proof");
    if (!model.is_int(index) || !model.is_int(size) || !Array.isArray(proof)) return null;
    if (!proof.every((h) => typeof h === "string" && HEX64.test(h))) return null;
    const leaf = await leaf_hash(statement, fromhex(blind));
    const root = await root_from_proof(leaf, BigInt(index), BigInt(size), proof.map(fromhex));
    if (root === null) return null;
    const domain = blind ? "umpire-receipt-batch/2" : "umpire-receipt-batch/1";
    const body = `{"domain":"${domain}","key_id":${json_ascii(must(r, "key_id"))},"root":"${hex(root)}","size":${BigInt(size)}}`;
    return new TextEncoder().encode(body);
  }

  async function signature_valid(game_id, public_key, r, model = JSON_MODEL) {
    // Section 8.4: whether a receipt carries a valid signature of `public_key`.
    const signature = field(r, "signature");
    if (typeof public_key !== "string" || !HEX64.test(public_key)) return false;
    if (typeof signature !== "string" || !SIGNATURE.test(signature)) return false;
    for (const key of ["reply", "key_id", "head_hash"]) if (typeof field(r, key) !== "string") return false;
    if (typeof field(r, "role", "player") !== "string" || typeof field(r, "state_hash", "") !== "string") return false;
    if (field(r, "key_id") !== (await key_id_of(public_key)) || !model.is_int(field(r, "first_seq"))) return false;
    try {
      const signed = await signed_bytes(game_id, r, model);
      if (signed === null) return false;
      const key = await crypto.subtle.importKey("raw", fromhex(public_key), { name: "Ed25519" }, false, ["verify"]);
      return await crypto.subtle.verify({ name: "Ed25519" }, key, fromhex(signature), signed);
    } catch {
      return false; // a key the browser refuses is no signature it can vouch for
    }
  }

  async function receipt_fault(game_id, anchor, public_key) {
    // What is wrong with a `created`, `accepted` or `state` receipt's signature under the game's
    // receipt key, in a few words, or "" if nothing is: the words and the order of
    // clients/receipts.py's receipt_fault, which the Python client checks on arrival. A
    // game whose key is "" (created before signed receipts) has nothing to check against.
    if (!public_key) return "";
    if (typeof public_key !== "string" || !HEX64.test(public_key)) return "the game's receipt key is not 64 lowercase hex digits";
    if (!field(anchor, "signature")) return "the reply carries no signature";
    const expected = await key_id_of(public_key);
    if (field(anchor, "key_id") !== expected) return `signed by key '${field(anchor, "key_id")}', not the game's key ${expected}`;
    if (!(await signature_valid(game_id, public_key, anchor))) return "the signature does not verify under the game's key";
    return "";
  }

  // RFC 8032's first test key: a valid Ed25519 public key, to ask the browser with.
  const PROBE_KEY = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
  let probed = null;

  function can_check() {
    // Whether this page can check a signature at all: WebCrypto is there only in a secure
    // context (https, localhost, file://), and Ed25519 only in recent browsers. A receipt
    // a page cannot check is not a receipt that failed.
    probed ??= (async () => {
      if (!(globalThis.crypto && crypto.subtle)) return false;
      try {
        await crypto.subtle.importKey("raw", fromhex(PROBE_KEY), { name: "Ed25519" }, false, ["verify"]);
        return true;
      } catch {
        return false;
      }
    })();
    return probed;
  }

  globalThis.umpireReceiptCheck = Object.freeze({ can_check, key_id_of, signed_bytes, signature_valid, receipt_fault });
})();
