# Writes random golden cases (documents of every BSON type as Extended JSON, with mongosh and
# --json styles) for oracle.js to fill in:
#
#   python3 random_cases.py SEED COUNT MAX_DEPTH > cases.txt && node oracle.js cases.txt
#
# random.txt is seed 2026, 80 cases, depth 3, less the cases mongosh itself fails on.
import json, random, base64, sys
SEED, COUNT, MAX_DEPTH = (int(a) for a in sys.argv[1:4])
random.seed(SEED)
PIECES = ["a", "Product", " ", "'", "\"", "`", "${", "\\", "\n", "\t", "\u0001", "\u0085", "产品", "😀", "é", "xyz" * 10]
def rstr(n=12):
    return "".join(random.choice(PIECES) for _ in range(random.randrange(n)))
def key():
    r = random.randrange(6)
    if r == 0: return str(random.randrange(20))
    if r == 1: return random.choice(["$ref", "$id", "$db", "__proto__", "a-b", "_x1"])
    return rstr(5) or "k"
def dbl(x):
    if x != x: return {"$numberDouble": "NaN"}
    if x in (float('inf'), float('-inf')): return {"$numberDouble": "Infinity" if x > 0 else "-Infinity"}
    return {"$numberDouble": repr(x)}
def val(d):
    k = random.randrange(22 if d > 0 else 19)
    if k == 0: return dbl(random.choice([0.0, -0.0, 1.5, 10.0, 1e21, 1e-7, 3.6118055555555557, random.uniform(-1e6, 1e6), float('nan'), float('inf')]))
    if k == 1: return {"$numberInt": str(random.randrange(-2**31, 2**31))}
    if k == 2: return rstr()
    if k == 3: return random.choice([True, False])
    if k == 4: return None
    if k == 5: return {"$numberLong": str(random.randrange(-2**63, 2**63))}
    if k == 6: return {"$oid": "%024x" % random.getrandbits(96)}
    if k == 7: return {"$date": {"$numberLong": str(random.randrange(-62198755200000, 253402300800000 * 2))}}
    if k == 8: return {"$timestamp": {"t": random.randrange(2**32), "i": random.randrange(2**32)}}
    if k == 9: return {"$numberDecimal": random.choice(["1.5", "-0", "1E+3", "0.000001", "NaN", "Infinity", "-Infinity", "123456789012345678901234567890123", "1.50", "-1E-6176"])}
    if k == 10:
        st = random.choice([0, 3, 4, 5, 0x80, 1])
        n = 16 if st in (3, 4) and random.random() < 0.8 else random.randrange(40)
        return {"$binary": {"base64": base64.b64encode(bytes(random.getrandbits(8) for _ in range(n))).decode(), "subType": "%02x" % st}}
    if k == 11: return {"$regularExpression": {"pattern": "".join(random.choice(["a", "b", "/", "\\d", "[/]", "x+", " "]) for _ in range(random.randrange(6))), "options": random.choice(["", "i", "m", "im", "ims", "imsx"])}}
    if k == 12: return {"$code": rstr(20)}
    if k == 13: return {"$code": rstr(20), "$scope": doc(0)}
    if k == 14: return {"$minKey": 1}
    if k == 15: return {"$maxKey": 1}
    if k == 16: return {"$symbol": rstr()}
    if k == 17: return {"$ref": "coll" + random.choice(["", ".sub"]), "$id": val(0)}
    if k == 18: return [] if random.random() < 0.5 else {}
    if k in (19, 20): return doc(d - 1)
    return [val(d - 1) for _ in range(random.randrange(14))]
def doc(d):
    out = {}
    for _ in range(random.randrange(8)):
        out[key()] = val(d)
    return out
out = ["# random cases, seed %d\n" % SEED]
for i in range(COUNT):
    d = doc(random.randrange(1, MAX_DEPTH + 1))
    style, kind = random.choice([("mongosh", "value"), ("mongosh", "batch"), ("json-relaxed", "value"), ("json-canonical", "value")])
    v = [d, doc(2)] if kind == "batch" else d
    out.append("\n### r%d\n@ %s %s\n%s\n---\n\n" % (i, style, kind, json.dumps(v, ensure_ascii=False)))
sys.stdout.write("".join(out))
