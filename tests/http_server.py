#!/usr/bin/env python3
"""A test HTTP server for callscope's URL tests (Python stdlib only).

Serves a directory on 127.0.0.1 with what real servers do and what breaks:

* single byte ranges (206, 416 with "bytes */N"), If-Range;
* ETag + Last-Modified, If-None-Match / If-Modified-Since (304);
* an autoindex page for directories (like http.server's), HEAD;
* counters: GET /__stats -> {"bytes_sent": .., "requests": .., "log": [..]},
  GET /__reset clears the counters, the log and every fault;
* fault injection by path prefix, set on the command line
  (--fault 'PREFIX KIND [key=value ...]') or at run time with
  GET /__fault?prefix=/db/&kind=drop&after=1000[&count=1]
  and cleared with GET /__clear.  Kinds:
    drop      after=N   close the connection after N body bytes
    stall     after=N [seconds=S]  send N body bytes, then nothing for S s
                        (default 3600; the client gives up first)
    status    code=C    answer C (500, 404, 403, ...) with a short body
    lie       extra=N   announce N more bytes than are sent, then close
    norange             ignore Range (answer 200 with the whole file)
    noifrange           ignore If-Range (answer the range of a changed file)
    redirect  to=URL [code=302]  redirect; to=/path stays on this server,
                        to=https://... or ftp://... changes the scheme
    slow      rate=B    send at most B bytes per second
    auth      user=U pass=P  401 unless the request has Basic U:P
    index     file=F    a directory's page is the served file F (a path
                        below --dir), not the generated autoindex
  `count=K` applies a fault to the next K matching requests only (default:
  every request).  The longest matching prefix wins.

The chosen port is printed on stdout's first line (and written to
--port-file FILE when given).  Threaded; quiet unless --verbose.
"""

import argparse
import base64
import email.utils
import html
import io
import json
import os
import posixpath
import socket
import sys
import threading
import time
import urllib.parse
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

CHUNK = 64 * 1024


class State:
    """Counters, the request log and the fault table, shared by threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        with self.lock:
            self.bytes_sent = 0
            self.requests = 0
            self.log = []
            self.faults = {}

    def add_bytes(self, n):
        with self.lock:
            self.bytes_sent += n

    def note(self, entry):
        with self.lock:
            self.requests += 1
            if len(self.log) < 10000:
                self.log.append(entry)

    def set_fault(self, prefix, kind, params):
        count = int(params.pop("count", "-1"))
        with self.lock:
            self.faults[prefix] = {"kind": kind, "params": params,
                                   "count": count}

    def take_fault(self, path):
        """The fault for `path` (longest prefix), consuming one use."""
        with self.lock:
            best = None
            for prefix, f in self.faults.items():
                if path.startswith(prefix) and f["count"] != 0:
                    if best is None or len(prefix) > len(best):
                        best = prefix
            if best is None:
                return None
            f = self.faults[best]
            if f["count"] > 0:
                f["count"] -= 1
            return {"kind": f["kind"], "params": dict(f["params"])}

    def snapshot(self):
        with self.lock:
            return {"bytes_sent": self.bytes_sent,
                    "requests": self.requests,
                    "log": list(self.log)}


STATE = State()
VERBOSE = False


def parse_fault_spec(spec):
    parts = spec.split()
    if len(parts) < 2:
        raise ValueError("fault spec: 'PREFIX KIND [key=value ...]'")
    params = {}
    for kv in parts[2:]:
        k, _, v = kv.partition("=")
        params[k] = v
    return parts[0], parts[1], params


def etag_of(st):
    return '"%x-%x-%x"' % (st.st_ino, st.st_size, st.st_mtime_ns)


def parse_range(value, size):
    """(start, end) inclusive for a single byte range, 'bad' when it
    cannot be satisfied, None when absent or not a single range."""
    if not value:
        return None
    value = value.strip()
    if not value.lower().startswith("bytes="):
        return None
    spec = value[6:].strip()
    if "," in spec:
        return None
    first, dash, last = spec.partition("-")
    if not dash:
        return None
    try:
        if first == "":
            n = int(last)
            if n <= 0:
                return "bad"
            if size == 0:
                return "bad"
            return (max(0, size - n), size - 1)
        start = int(first)
        end = int(last) if last else size - 1
    except ValueError:
        return None
    if start < 0:
        return None
    if start >= size:
        return "bad"
    if end < start:
        return None
    return (start, min(end, size - 1))


class Handler(SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "callscope-test/1"
    sys_version = ""

    def version_string(self):
        return self.server_version

    def log_message(self, fmt, *args):
        if VERBOSE:
            sys.stderr.write("http_server: " + (fmt % args) + "\n")

    # --- control endpoints -------------------------------------------
    def send_small(self, code, body, ctype="text/plain; charset=utf-8",
                   extra=None):
        data = body.encode() if isinstance(body, str) else body
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)
            if not self.path.startswith("/__"):
                STATE.add_bytes(len(data))

    def control(self, path, query):
        q = {k: v[-1] for k, v in urllib.parse.parse_qs(query).items()}
        if path == "/__stats":
            self.send_small(200, json.dumps(STATE.snapshot()),
                            "application/json")
        elif path == "/__reset":
            STATE.reset()
            self.send_small(200, "ok\n")
        elif path == "/__clear":
            with STATE.lock:
                STATE.faults = {}
            self.send_small(200, "ok\n")
        elif path == "/__fault":
            prefix = q.pop("prefix", "/")
            kind = q.pop("kind", "")
            if kind not in ("drop", "stall", "status", "lie", "norange",
                            "redirect", "slow", "auth", "index", "noifrange"):
                self.send_small(400, "unknown fault kind\n")
                return
            STATE.set_fault(prefix, kind, q)
            self.send_small(200, "ok\n")
        else:
            self.send_small(404, "no such control endpoint\n")

    # --- requests ----------------------------------------------------
    def do_HEAD(self):
        self.handle_request()

    def do_GET(self):
        self.handle_request()

    def handle_request(self):
        url = urllib.parse.urlsplit(self.path)
        path = urllib.parse.unquote(url.path)
        if path.startswith("/__"):
            self.control(path, url.query)
            return
        fault = STATE.take_fault(path)
        entry = {"method": self.command, "path": path,
                 "range": self.headers.get("Range"),
                 "if_none_match": self.headers.get("If-None-Match"),
                 "if_modified_since": self.headers.get("If-Modified-Since"),
                 "if_range": self.headers.get("If-Range"),
                 "fault": fault["kind"] if fault else None}
        STATE.note(entry)
        try:
            self.serve(path, url, fault, entry)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def serve(self, path, url, fault, entry):
        kind = fault["kind"] if fault else None
        params = fault["params"] if fault else {}
        if kind == "status":
            code = int(params.get("code", "500"))
            entry["status"] = code
            self.send_small(code, "injected %d\n" % code)
            return
        if kind == "auth":
            want = "Basic " + base64.b64encode(
                ("%s:%s" % (params.get("user", ""), params.get("pass", "")))
                .encode()).decode()
            if self.headers.get("Authorization") != want:
                entry["status"] = 401
                self.send_small(401, "authentication required\n", extra={
                    "WWW-Authenticate": 'Basic realm="test"'})
                return
            kind = None
        if kind == "redirect":
            code = int(params.get("code", "302"))
            entry["status"] = code
            self.send_small(code, "", extra={"Location": params.get("to", "/")})
            return
        fs = self.translate_path(url.path)
        if os.path.isdir(fs):
            if not url.path.endswith("/"):
                loc = url.path + "/" + ("?" + url.query if url.query else "")
                entry["status"] = 301
                self.send_small(301, "", extra={"Location": loc})
                return
            if kind == "index":
                with open(self.translate_path("/" + params["file"]),
                          "rb") as f:
                    index = f.read()
            else:
                index = self.listing(fs, path)
            entry["status"] = 200
            self.send_small(200, index, "text/html; charset=utf-8")
            return
        try:
            f = open(fs, "rb")
        except OSError:
            entry["status"] = 404
            self.send_small(404, "not found\n")
            return
        with f:
            st = os.fstat(f.fileno())
            size = st.st_size
            etag = etag_of(st)
            lastmod = email.utils.formatdate(st.st_mtime, usegmt=True)
            validators = {"ETag": etag, "Last-Modified": lastmod}
            inm = self.headers.get("If-None-Match")
            ims = self.headers.get("If-Modified-Since")
            not_modified = False
            if inm is not None:
                tags = [t.strip() for t in inm.split(",")]
                not_modified = "*" in tags or etag in tags or \
                    ("W/" + etag) in tags
            elif ims is not None:
                try:
                    when = email.utils.parsedate_to_datetime(ims)
                    not_modified = int(st.st_mtime) <= when.timestamp()
                except (TypeError, ValueError, IndexError, OverflowError):
                    not_modified = False
            if not_modified:
                entry["status"] = 304
                self.send_response(304)
                for k, v in validators.items():
                    self.send_header(k, v)
                self.end_headers()
                return
            rng = None
            if kind != "norange":
                rng = parse_range(self.headers.get("Range"), size)
                if_range = self.headers.get("If-Range")
                if rng is not None and if_range is not None and \
                        kind != "noifrange" and \
                        if_range.strip() not in (etag, lastmod):
                    rng = None
            if rng == "bad":
                entry["status"] = 416
                self.send_small(416, "", extra={
                    "Content-Range": "bytes */%d" % size, **validators})
                return
            if rng is None:
                start, count, code = 0, size, 200
            else:
                start, count, code = rng[0], rng[1] - rng[0] + 1, 206
            entry["status"] = code
            announced = count
            if kind == "lie":
                announced = count + int(params.get("extra", "1000"))
            self.send_response(code)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(announced))
            self.send_header("Accept-Ranges",
                             "none" if kind == "norange" else "bytes")
            if code == 206:
                self.send_header("Content-Range", "bytes %d-%d/%d"
                                 % (start, start + count - 1, size))
            for k, v in validators.items():
                self.send_header(k, v)
            self.end_headers()
            if self.command == "HEAD":
                return
            self.send_body(f, start, count, kind, params)
            if kind == "lie":
                self.close_connection = True

    def send_body(self, f, start, count, kind, params):
        limit = count
        if kind in ("drop", "stall"):
            limit = min(count, int(params.get("after", "0")))
        rate = int(params.get("rate", "0")) if kind == "slow" else 0
        if kind is None:
            sent = self.connection.sendfile(f, start, count)
            STATE.add_bytes(sent)
            return
        f.seek(start)
        sent = 0
        t0 = time.monotonic()
        while sent < limit:
            n = min(CHUNK, limit - sent)
            if rate > 0:
                n = min(n, max(1, rate // 10))
            data = f.read(n)
            if not data:
                break
            self.wfile.write(data)
            sent += len(data)
            STATE.add_bytes(len(data))
            if rate > 0:
                ahead = sent / rate - (time.monotonic() - t0)
                if ahead > 0:
                    time.sleep(ahead)
        if kind == "drop":
            self.wfile.flush()
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        elif kind == "stall":
            self.wfile.flush()
            deadline = time.monotonic() + float(params.get("seconds", "3600"))
            # Wait until the client gives up (the socket becomes readable
            # with EOF) or the time is over.
            self.connection.settimeout(0.2)
            while time.monotonic() < deadline:
                try:
                    if self.connection.recv(1, socket.MSG_PEEK) == b"":
                        break
                except socket.timeout:
                    continue
                except OSError:
                    break
            self.close_connection = True

    def listing(self, fs, path):
        """An autoindex page like http.server's."""
        names = sorted(os.listdir(fs), key=lambda a: a.lower())
        title = "Directory listing for %s" % html.escape(path, quote=False)
        out = io.StringIO()
        out.write("<!DOCTYPE HTML>\n<html lang=\"en\">\n<head>\n"
                  "<meta charset=\"utf-8\">\n<title>%s</title>\n</head>\n"
                  "<body>\n<h1>%s</h1>\n<hr>\n<ul>\n" % (title, title))
        for name in names:
            full = os.path.join(fs, name)
            display = link = name
            if os.path.isdir(full):
                display = name + "/"
                link = name + "/"
            if os.path.islink(full):
                display = name + "@"
            out.write("<li><a href=\"%s\">%s</a></li>\n"
                      % (urllib.parse.quote(link, errors="surrogatepass"),
                         html.escape(display, quote=False)))
        out.write("</ul>\n<hr>\n</body>\n</html>\n")
        return out.getvalue()

    def translate_path(self, path):
        """Map a URL path below the served root; '..' cannot escape."""
        path = urllib.parse.unquote(path.split("?", 1)[0].split("#", 1)[0])
        parts = [p for p in posixpath.normpath(path).split("/")
                 if p and p not in (".", "..")]
        return os.path.join(self.directory, *parts)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        if VERBOSE:
            super().handle_error(request, client_address)


def main():
    global VERBOSE
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", "-d", default=".", help="directory to serve")
    ap.add_argument("--bind", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--port-file", help="also write the port here")
    ap.add_argument("--fault", action="append", default=[],
                    help="'PREFIX KIND [key=value ...]'")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    VERBOSE = args.verbose
    for spec in args.fault:
        prefix, kind, params = parse_fault_spec(spec)
        STATE.set_fault(prefix, kind, params)
    root = os.path.abspath(args.dir)

    def handler(*a, **kw):
        return Handler(*a, directory=root, **kw)

    srv = Server((args.bind, args.port), handler)
    port = srv.server_address[1]
    if args.port_file:
        tmp = args.port_file + ".tmp"
        with open(tmp, "w") as pf:
            pf.write("%d\n" % port)
        os.replace(tmp, args.port_file)
    sys.stdout.write("%d\n" % port)
    sys.stdout.flush()
    try:
        srv.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        srv.server_close()


if __name__ == "__main__":
    main()
