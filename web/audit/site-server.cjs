// A static server of the built site on a free loopback port, logging each request:
// what the audit and the site benchmark load the page from.
"use strict";
const fs = require("node:fs");
const http = require("node:http");
const path = require("node:path");

const CONTENT_TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".wasm": "application/wasm",
  ".css": "text/css",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
};

// A static server over `root` that logs every request it receives.
function staticServer(root) {
  const log = [];
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url, "http://local").pathname);
    let file = path.resolve(root, "." + pathname);
    if (pathname.endsWith("/")) file = path.join(file, "index.html");
    const inside = file === root || file.startsWith(root + path.sep);
    fs.readFile(file, (error, body) => {
      const status = !inside || error ? 404 : 200;
      log.push({ method: req.method, path: pathname, status });
      if (status !== 200) {
        res.writeHead(404, { "content-type": "text/plain" });
        res.end("not found");
        return;
      }
      const type = CONTENT_TYPES[path.extname(file)] || "application/octet-stream";
      res.writeHead(200, { "content-type": type, "cache-control": "no-store" });
      res.end(body);
    });
  });
  return listen(server, log);
}

// Listens on a free loopback port: `{ server, log, origin }`.
function listen(server, log) {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({ server, log, origin: `http://127.0.0.1:${port}` });
    });
  });
}

module.exports = { listen, staticServer };
