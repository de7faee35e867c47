#!/usr/bin/env python3
"""Summarizes a fake_llm.py request log, one line per request, for FileCheck:
path, how the key was sent, what the prompt holds, and the last message's
first line."""
import json
import sys

for number, line in enumerate(open(sys.argv[1]), 1):
    request = json.loads(line)
    headers = {k.lower(): v for k, v in request["headers"].items()}
    body = request["body"]
    if "authorization" in headers:
        auth = "bearer"
    elif "x-api-key" in headers:
        auth = "x-api-key"
    else:
        auth = "none"
    messages = body.get("messages", [])
    user = "\n".join(m["content"] for m in messages if m["role"] == "user")
    system = body.get("system", "") + "".join(
        m["content"] for m in messages if m["role"] == "system")
    features = []
    if "func.func @" in user and "```mlir" in user:
        features.append("ir")
    if "# Diagnosis" in user:
        features.append("diagnosis")
    if "# Knowledge" in user:
        features.append("knowledge")
    if "# Skills" in user:
        features.append("skills")
    if "memory: " in user:
        features.append("memory=" + user.split("memory: ")[1].split(")")[0])
    if "Your reply could not be used" in user:
        features.append("repair")
    if system:
        features.append("system")
    last = messages[-1]["content"].strip().splitlines()[0] if messages else ""
    print("request %d %s model=%s auth=%s %s | %s" % (
        number, request["path"], body.get("model"), auth,
        " ".join(features), last))
