#!/usr/bin/env python3
"""Serves model files over HTTP on loopback for the conformance run's download checks.

Usage: conformance-files.py CATALOG MODEL_FILE TOKENIZER_FILE

Adds two downloadable entries to the user catalog CATALOG (a JSON file with a
"models" list, as `sotto-cli models import` writes it), whose files are URLs on
this server, then serves until killed:

  Test/download-small   the llama2c test model and its tokenizer, at full speed:
                        downloaded before the suite runs, so GET /v1/models/downloads
                        holds a completed job for the suite to inspect;
  Test/download-slow    the same tokenizer and a 4 MiB file sent at about 256 KiB/s,
                        for the suite's --download-cycle (start a download, then
                        cancel it while it is still running).

Each entry carries the files' sizes and SHA-256, so the downloads are verified as
any catalog download is. The first line on stdout is the port.
"""
import hashlib
import http.server
import json
import os
import socketserver
import sys
import time

CHUNK = 16 * 1024
SLOW_DELAY = CHUNK / (256 * 1024)  # seconds per chunk: about 256 KiB/s


def slow_bytes(n):
    """Deterministic bytes (a SHA-256 chain), so the checksum is known in advance."""
    out, h = bytearray(), b"sotto conformance"
    while len(out) < n:
        h = hashlib.sha256(h).digest()
        out += h
    return bytes(out[:n])


def main():
    catalog, model_file, tok_file = sys.argv[1:4]
    files = {
        "small/model.bin": open(model_file, "rb").read(),
        "small/tokenizer.bin": open(tok_file, "rb").read(),
        "slow/model.bin": slow_bytes(4 << 20),
    }

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            name = self.path.lstrip("/")
            body = files.get(name)
            if body is None:
                self.send_error(404)
                return
            start = 0
            rng = self.headers.get("Range", "")
            if rng.startswith("bytes=") and rng[6:].split("-")[0].isdigit():
                start = min(int(rng[6:].split("-")[0]), len(body))
                self.send_response(206)
                self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
            else:
                self.send_response(200)
            self.send_header("Content-Length", str(len(body) - start))
            self.send_header("Accept-Ranges", "bytes")
            self.end_headers()
            slow = name.startswith("slow/")
            try:
                for off in range(start, len(body), CHUNK):
                    self.wfile.write(body[off:off + CHUNK])
                    if slow:
                        time.sleep(SLOW_DELAY)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client cancelled

        def log_message(self, *args):
            pass

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True

    srv = Server(("127.0.0.1", 0), Handler)
    base = f"http://127.0.0.1:{srv.server_address[1]}/"

    def entry(model_id, model_name):
        def f(name, path):
            b = files[path]
            return {"name": name, "url": base + path, "size": len(b), "sha256": hashlib.sha256(b).hexdigest()}
        return {
            "id": model_id, "owned_by": "user",
            "supported_endpoints": ["/v1/chat/completions", "/v1/responses", "/v1/messages", "/v1/tokenize"],
            "features": [], "execution_location": "local", "default_for": [], "backend": "llm-go",
            "files": [f("model", model_name), f("tokenizer", "small/tokenizer.bin")],
            "options": {"model": "model", "tokenizer": "tokenizer"},
        }

    with open(catalog) as fh:
        cat = json.load(fh)
    cat["models"] = [m for m in cat.get("models", []) if not m.get("id", "").startswith("Test/download-")]
    cat["models"] += [entry("Test/download-small", "small/model.bin"), entry("Test/download-slow", "slow/model.bin")]
    tmp = catalog + ".tmp"
    with open(tmp, "w") as fh:
        json.dump(cat, fh, indent=2)
    os.replace(tmp, catalog)
    print(srv.server_address[1], flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    main()
