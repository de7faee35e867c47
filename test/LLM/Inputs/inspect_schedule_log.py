"""Summarizes the requests of a fake-server log for schedule-reply.test."""
import json
import sys

for number, line in enumerate(open(sys.argv[1]), 1):
    body = json.loads(line)["body"]
    messages = body["messages"]
    parts = ["roles " + " ".join(m["role"] for m in messages)]
    schema = body.get("response_format", {}).get("json_schema", {}).get("schema")
    if schema:
        parts.append("response_format json_schema")
    if number == 1:
        ops = schema["properties"]["ops"]["prefixItems"]
        parts.append("ops %d" % len(ops))
        cache = ops[1]["properties"]["cache"]["prefixItems"][0]["enum"]
        parts.append("matmul cache[0] choices %s" % cache)
        parts.append("max_tokens %d" % body["max_tokens"])
    last = messages[-1]["content"]
    if len(messages) > 1:
        parts.append("repair: " + last.splitlines()[0])
    if number == 5:
        text = json.dumps(messages)
        parts.append("cut reply sent back: %s" % ("yes" if "CUT-MARKER" in text else "no"))
        parts.append("asked shorter: %s" % ("yes" if "Answer shorter" in last else "no"))
    print("request %d: %s" % (number, "; ".join(parts)))
