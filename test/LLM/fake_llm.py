#!/usr/bin/env python3
"""A loopback fake LLM server for ke's offline tests.

    fake_llm.py SCRIPT.json LOG.jsonl -- COMMAND ARGS...

Serves the scripted replies of SCRIPT.json on 127.0.0.1 (a free port), in
order, one per request (the last one repeats once the list is spent), runs
COMMAND with KE_LLM_BASE_URL pointing at the server, logs every request
(path, headers, JSON body) as one line of LOG.jsonl, and exits with
COMMAND's status. A reply is an object:
  {"content": TEXT} or {"content_file": PATH}   a 200 in the wire format of
                                                 the request's path
                                                 (/chat/completions: OpenAI,
                                                 /messages: Anthropic)
  {"status": 429, "retry_after": SECONDS}         an error (any status)
  {"hang": SECONDS}                               no answer for that long
  {"raw": TEXT}                                   a 200 with this body
A 200 may also give "finish_reason" (default "stop"). Usage reports 100
prompt and 50 completion tokens, or, with "usage": "count" at the top of
SCRIPT.json, a token per 4 characters of the messages and of the reply.
Paths of content_file are relative to SCRIPT.json. GET /v1/models and
GET /props answer SCRIPT.json's top-level "models" and "props" objects (as
vLLM and llama.cpp's server do), or 404 without them; GETs are logged to
LOG.jsonl.get.
"""
import http.server
import json
import os
import subprocess
import sys
import threading


def main():
    if len(sys.argv) < 5 or sys.argv[3] != "--":
        sys.exit(__doc__)
    script_path, log_path, command = sys.argv[1], sys.argv[2], sys.argv[4:]
    with open(script_path) as f:
        script = json.load(f)
    replies = script["replies"]
    count_usage = script.get("usage") == "count"
    base = os.path.dirname(os.path.abspath(script_path))
    lock = threading.Lock()
    served = [0]
    # Set when COMMAND has exited: a hanging reply stops waiting then, so no
    # handler thread is still running (and writing) while Python shuts down.
    stopping = threading.Event()

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            with lock:
                with open(log_path + ".get", "a") as log:
                    log.write(self.path + "\n")
            answer = {"/v1/models": script.get("models"),
                      "/props": script.get("props")}.get(self.path)
            if answer is None:
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            data = json.dumps(answer).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self):
            length = int(self.headers.get("Content-Length", 0))
            body = self.rfile.read(length).decode("utf-8", "replace")
            with lock:
                index = min(served[0], len(replies) - 1)
                served[0] += 1
                with open(log_path, "a") as log:
                    try:
                        parsed = json.loads(body)
                    except ValueError:
                        parsed = body
                    log.write(json.dumps({"path": self.path,
                                          "headers": dict(self.headers),
                                          "body": parsed}) + "\n")
            reply = replies[index]
            if "hang" in reply:
                if not stopping.wait(reply["hang"]):
                    self.send_error(504)
                return
            if "status" in reply and reply["status"] != 200:
                self.send_response(reply["status"])
                if "retry_after" in reply:
                    self.send_header("Retry-After", str(reply["retry_after"]))
                payload = json.dumps({"error": {"message": "scripted error"}})
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload.encode())
                return
            if "raw" in reply:
                payload = reply["raw"]
            else:
                text = reply.get("content")
                if text is None:
                    with open(os.path.join(base, reply["content_file"])) as f:
                        text = f.read()
                prompt_tokens, completion_tokens = 100, 50
                if count_usage and isinstance(parsed, dict):
                    chars = sum(len(m.get("content", "")) for m in parsed.get("messages", []))
                    chars += len(parsed.get("system", ""))
                    prompt_tokens, completion_tokens = chars // 4, len(text) // 4
                finish = reply.get("finish_reason", "stop")
                if self.path.endswith("/messages"):
                    payload = json.dumps({
                        "type": "message", "role": "assistant",
                        "content": [{"type": "text", "text": text}],
                        "stop_reason": "max_tokens" if finish == "length" else "end_turn",
                        "usage": {"input_tokens": prompt_tokens,
                                  "output_tokens": completion_tokens}})
                else:
                    payload = json.dumps({
                        "choices": [{"index": 0, "finish_reason": finish, "message": {
                            "role": "assistant", "content": text}}],
                        "usage": {"prompt_tokens": prompt_tokens,
                                  "completion_tokens": completion_tokens}})
            data = payload.encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    class Server(http.server.ThreadingHTTPServer):
        # A client that gave up (a timeout under test) is expected, not an
        # error to print.
        def handle_error(self, request, client_address):
            if not isinstance(sys.exc_info()[1], ConnectionError):
                super().handle_error(request, client_address)

    server = Server(("127.0.0.1", 0), Handler)
    # Handler threads are joined by server_close(), before the interpreter
    # exits.
    server.daemon_threads = False
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = dict(os.environ)
    env["KE_LLM_BASE_URL"] = "http://127.0.0.1:%d/v1" % server.server_port
    status = subprocess.call(command, env=env)
    stopping.set()
    server.shutdown()
    server.server_close()
    sys.exit(status)


if __name__ == "__main__":
    main()
