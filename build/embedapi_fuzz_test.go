//go:build !js

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// embedHarness is the node program that drives the embed's postMessage decoder
// (site/js/embed-api.js, parse) for FuzzEmbedParse: one JSON line in, {text}, one out. The
// text becomes the message's data as a host could post it: the value of the text read as
// JSON, with strings that name what JSON cannot carry turned into it ($NaN, $Infinity,
// $-Infinity, $-0, $undefined, $big:N for a BigInt, $huge:N for a string of N characters,
// $deep:N for arrays nested N deep (and a key $huge:N is a key of N characters), $root for the message itself (a cycle), $map, $date,
// $nullproto for an object without a prototype); or, when it is not JSON, the text itself.
// It answers with the value and parse's result, encoded (encode) so that what JSON cannot
// carry survives: {t: kind, v: value}; strings over 10,000 characters keep their first
// 10,000 and their length; nesting deeper than 40 reads {t: "deep"}.
const embedHarness = `
import * as readline from 'node:readline';
const { parse } = await import(process.argv[1]);

function revive(v, depth, root) {
  if (depth > 1000) return v;
  if (typeof v === 'string') {
    const m = /^\$(NaN|Infinity|-Infinity|-0|undefined|root|map|date|nullproto|big:(-?[0-9]{1,40})|huge:([0-9]{1,8})|deep:([0-9]{1,6}))$/.exec(v);
    if (!m) return v;
    switch (m[1]) {
      case 'NaN': return NaN;
      case 'Infinity': return Infinity;
      case '-Infinity': return -Infinity;
      case '-0': return -0;
      case 'undefined': return undefined;
      case 'root': return root.value;
      case 'map': return new Map([['shared_buffers', '1MB']]);
      case 'date': return new Date(0);
      case 'nullproto': return Object.assign(Object.create(null), { bufferscope: 1, type: 'get' });
    }
    if (m[2] !== undefined) return BigInt(m[2]);
    if (m[3] !== undefined) return 'x'.repeat(Math.min(Number(m[3]), 1 << 22));
    let deep = [];
    for (let i = Math.min(Number(m[4]), 100000); i > 0; i--) deep = [deep];
    return deep;
  }
  if (v !== null && typeof v === 'object') {
    for (const k of Object.keys(v)) { // own keys, __proto__ too
      const x = revive(v[k], depth + 1, root);
      const huge = /^\$huge:([0-9]{1,8})$/.exec(k);
      if (huge) {
        delete v[k];
        v['x'.repeat(Math.min(Number(huge[1]), 1 << 22))] = x;
      } else {
        v[k] = x;
      }
    }
  }
  return v;
}

function build(text) {
  let v;
  try { v = JSON.parse(text); } catch { return text; }
  const root = {};
  root.value = revive(v, 0, root);
  return root.value;
}

function encode(v, depth, seen) {
  if (depth > 40) return { t: 'deep' };
  switch (typeof v) {
    case 'undefined': return { t: 'undefined' };
    case 'boolean': return { t: 'boolean', v };
    case 'number': return { t: 'number', v: String(v), negzero: Object.is(v, -0) };
    case 'bigint': return { t: 'bigint', v: String(v) };
    case 'string': return v.length > 10000 ? { t: 'string', v: v.slice(0, 10000), len: v.length } : { t: 'string', v, len: v.length };
    case 'object': break;
    default: return { t: typeof v };
  }
  if (v === null) return { t: 'null' };
  if (seen.has(v)) return { t: 'cycle' };
  seen.add(v);
  try {
    if (Array.isArray(v)) return { t: 'array', v: v.slice(0, 200).map((x) => encode(x, depth + 1, seen)) };
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return { t: Object.prototype.toString.call(v) };
    return { t: 'object', v: Object.keys(v).map((k) => [encode(k, 0, seen), encode(v[k], depth + 1, seen)]) };
  } finally {
    seen.delete(v);
  }
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  let out;
  try {
    const value = build(JSON.parse(line).text);
    out = { input: encode(value, 0, new Set()) };
    try {
      out.result = encode(parse(value), 0, new Set());
    } catch (err) {
      out.threw = String(err);
    }
  } catch (err) {
    out = { harness: String(err && err.stack || err) };
  }
  process.stdout.write(JSON.stringify(out) + '\n');
});
rl.on('close', () => process.exit(0));
`

// jsValue is a JavaScript value as embedHarness encodes it.
type jsValue struct {
	T       string          `json:"t"`
	V       json.RawMessage `json:"v"`
	Len     int             `json:"len"`
	NegZero bool            `json:"negzero"`
}

// str returns a string's text (its first 10,000 characters when longer).
func (v *jsValue) str() string {
	var s string
	json.Unmarshal(v.V, &s)
	return s
}

// entries returns an object's own keys and values, in order.
func (v *jsValue) entries() ([]string, map[string]*jsValue) {
	var raw [][2]jsValue
	json.Unmarshal(v.V, &raw)
	keys, m := []string{}, map[string]*jsValue{}
	for i := range raw {
		k := raw[i][0].str()
		keys = append(keys, k)
		m[k] = &raw[i][1]
	}
	return keys, m
}

// same reports whether two encoded values are the same JavaScript value (Object.is, for
// the scalars parse copies).
func (v *jsValue) same(w *jsValue) bool {
	return v.T == w.T && string(v.V) == string(w.V) && v.Len == w.Len && v.NegZero == w.NegZero
}

func (v *jsValue) String() string {
	if v == nil {
		return "absent"
	}
	s := fmt.Sprintf("%s %s", v.T, v.V)
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// embedNode is the node process of this test process, started once.
var embedNode struct {
	once sync.Once
	err  error
	in   io.WriteCloser
	out  *bufio.Reader
	mu   sync.Mutex
}

// embedParse runs parse on the value text gives, in node.
func embedParse(t *testing.T, text string) (input, result *jsValue, threw string) {
	t.Helper()
	n := &embedNode
	n.once.Do(func() {
		node, err := exec.LookPath("node")
		if err != nil {
			n.err = err
			return
		}
		abs, err := filepath.Abs("../site/js/embed-api.js")
		if err != nil {
			n.err = err
			return
		}
		cmd := exec.Command(node, "--input-type=module", "-e", embedHarness, (&url.URL{Scheme: "file", Path: abs}).String())
		cmd.Stderr = os.Stderr
		if n.in, n.err = cmd.StdinPipe(); n.err != nil {
			return
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			n.err = err
			return
		}
		n.out = bufio.NewReaderSize(stdout, 1<<20)
		n.err = cmd.Start() // node exits when this process closes its stdin, at exit
	})
	if n.err != nil {
		t.Skipf("node is needed to run the embed's decoder: %v", n.err)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	line, _ := json.Marshal(map[string]string{"text": text})
	if _, err := n.in.Write(append(line, '\n')); err != nil {
		t.Fatalf("writing to node: %v", err)
	}
	reply, err := n.out.ReadBytes('\n')
	if err != nil {
		t.Fatalf("reading from node: %v", err)
	}
	var r struct {
		Input, Result *jsValue
		Threw         string
		Harness       string
	}
	if err := json.Unmarshal(reply, &r); err != nil || r.Harness != "" {
		t.Fatalf("node's harness: %v %s", err, r.Harness)
	}
	return r.Input, r.Result, r.Threw
}

// embedRequests are the types a host may send (embed-api.js REQUESTS; docs/embed.md).
var embedRequests = map[string]bool{"set": true, "play": true, "pause": true, "step": true, "seek": true, "reset": true, "get": true}

// maxEmbedError bounds the length of parse's error: it may quote a value, cut to 40
// characters, never the whole of one.
const maxEmbedError = 300

// FuzzEmbedParse drives the embed's postMessage decoder with the values a host can post
// (embedHarness). parse must never throw; it returns {error} (with the request's type, when
// it names one, and its id only when valid: a string or a finite number) whose message is at
// most maxEmbedError long whatever the input's length, or {type, id, args}: a type of
// REQUESTS, the message's own id, and args within docs/embed.md's bounds — set's params the
// message's own keys, each value the string of a string, finite number or boolean; step's n
// a whole number from 1 to 1,000,000 (1 when absent); seek's step from 0 to 2^40; nothing
// for the others. Skipped without node.
func FuzzEmbedParse(f *testing.F) {
	for _, s := range []string{
		`{"bufferscope":1,"type":"set","params":{"shared_buffers":"1MB","clients":4,"unique":true},"id":"a1"}`,
		`{"bufferscope":1,"type":"step","n":100,"id":7}`,
		`{"bufferscope":1,"type":"seek","step":1099511627776}`,
		`{"bufferscope":1,"type":"seek","step":1099511627777}`,
		`{"bufferscope":1,"type":"step","n":1000000}`,
		`{"bufferscope":1,"type":"step","n":1000001}`,
		`{"bufferscope":1,"type":"step","n":0.5,"id":"$-0"}`,
		`{"bufferscope":1,"type":"play"}`,
		`{"bufferscope":1,"type":"step","n":"many","id":"x"}`,
		`{"bufferscope":1,"type":"seek","step":"$-0","id":"$NaN"}`,
		`{"bufferscope":1,"type":"step","n":"$big:5"}`,
		`{"bufferscope":2,"type":"get"}`,
		`{"bufferscope":1,"type":"constructor"}`,
		`{"bufferscope":1,"type":"set","params":{"$huge:100000":1}}`,
		`{"bufferscope":1,"type":"set","params":{"$huge:100000":null}}`,
		`{"bufferscope":1,"type":"set","params":{"__proto__":"x","speed":"max"}}`,
		`{"bufferscope":1,"type":"set","params":"$map"}`,
		`{"bufferscope":1,"type":"set","params":{"a":"$root"}}`,
		`{"bufferscope":1,"type":"get","id":"$huge:5000000"}`,
		`"$nullproto"`, `"$deep:50000"`, `"$undefined"`, `[1,2]`, `null`, `hello`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		input, result, threw := embedParse(t, text)
		if threw != "" {
			t.Fatalf("parse(%s) threw %s", input, threw)
		}
		if result.T != "object" {
			t.Fatalf("parse(%s) = %s, not an object", input, result)
		}
		keys, r := result.entries()
		var in map[string]*jsValue
		if input.T == "object" {
			_, in = input.entries()
		}
		id := r["id"]
		if id != nil && id.T == "undefined" {
			id = nil
		}
		if id != nil && !(id.T == "string" || id.T == "number" && id.str() != "NaN" && !strings.HasSuffix(id.str(), "Infinity")) {
			t.Errorf("parse(%s) kept the id %s, which is neither a string nor a finite number", input, id)
		}
		if id != nil && (in["id"] == nil || !id.same(in["id"])) {
			t.Errorf("parse(%s) gave the id %s; the message's is %s", input, id, in["id"])
		}
		if typ := r["type"]; typ != nil && (typ.T != "string" || !embedRequests[typ.str()]) {
			t.Errorf("parse(%s) gave the type %s, not one of REQUESTS", input, typ)
		}
		for _, k := range keys {
			if k != "error" && k != "id" && k != "type" && k != "args" {
				t.Errorf("parse(%s) gave a field %q", input, k)
			}
		}
		if e := r["error"]; e != nil {
			if e.T != "string" || e.Len == 0 || e.Len > maxEmbedError || r["args"] != nil {
				t.Errorf("parse(%s) = error %s (%d characters), args %s; want a message of at most %d characters and no args", input, e, e.Len, r["args"], maxEmbedError)
			}
			return
		}
		checkEmbedRequest(t, input, in, r)
	})
}

// checkEmbedRequest checks parse's result r for a request: a sound envelope, and args within
// the documented bounds, taken from the message in (whose encoding is input).
func checkEmbedRequest(t *testing.T, input *jsValue, in, r map[string]*jsValue) {
	t.Helper()
	typ, args := r["type"], r["args"]
	if typ == nil || args == nil || args.T != "object" {
		t.Fatalf("parse(%s) = type %s, args %s: a request without its type or args", input, typ, args)
	}
	if v := in["bufferscope"]; v == nil || v.T != "number" || v.str() != "1" || in["type"] == nil || !in["type"].same(typ) {
		t.Errorf("parse(%s) accepted a message whose bufferscope is %s and type %s", input, in["bufferscope"], in["type"])
	}
	if in["id"] != nil && in["id"].T != "undefined" && r["id"] == nil {
		t.Errorf("parse(%s) dropped the message's id", input)
	}
	keys, a := args.entries()
	whole := func(v *jsValue, lo, hi float64) bool {
		x, err := strconv.ParseFloat(v.str(), 64)
		return v.T == "number" && err == nil && x == float64(int64(x)) && x >= lo && x <= hi
	}
	switch name := typ.str(); name {
	case "set":
		params := in["params"]
		if params == nil || params.T != "object" || len(keys) != 1 || a["params"] == nil || a["params"].T != "object" {
			t.Fatalf("parse(%s): set with params %s gave args %s", input, params, args)
		}
		gotKeys, got := a["params"].entries()
		wantKeys, want := params.entries()
		if strings.Join(gotKeys, "\x00") != strings.Join(wantKeys, "\x00") {
			t.Errorf("parse(%s): set's params have the keys %q; the message's have %q", input, gotKeys, wantKeys)
		}
		for k, w := range want {
			g := got[k]
			if g == nil {
				continue // the keys differ, said above
			}
			finite := w.T == "number" && w.str() != "NaN" && !strings.HasSuffix(w.str(), "Infinity")
			switch {
			case w.T != "string" && w.T != "boolean" && !finite:
				t.Errorf("parse(%s): set took %q = %s, which is not a string, a finite number or a boolean", input, k, w)
			case g.T != "string":
				t.Errorf("parse(%s): set's %q is %s, not a string", input, k, g)
			case w.T == "string" && !g.same(w), w.T == "boolean" && g.str() != string(w.V), finite && g.str() != w.str():
				t.Errorf("parse(%s): set's %q is %s; the message's is %s", input, k, g, w)
			}
		}
	case "step":
		n := a["n"]
		if len(keys) != 1 || n == nil || !whole(n, 1, 1_000_000) {
			t.Fatalf("parse(%s): step's args %s; want n, a whole number from 1 to 1,000,000", input, args)
		}
		if m := in["n"]; m != nil && m.T != "undefined" && !m.same(n) || (m == nil || m.T == "undefined") && n.str() != "1" {
			t.Errorf("parse(%s): step's n is %s; the message's is %s", input, n, m)
		}
	case "seek":
		s := a["step"]
		if len(keys) != 1 || s == nil || !whole(s, 0, 1<<40) || in["step"] == nil || !in["step"].same(s) {
			t.Fatalf("parse(%s): seek's args %s; want the message's step, a whole number from 0 to 2^40", input, args)
		}
	default:
		if len(keys) != 0 {
			t.Errorf("parse(%s): %s takes no arguments, but gave %s", input, name, args)
		}
	}
}
