// The baseline for `npm run bench`: a tiny static file server (node:http, file read per request, no framework)
// serving the same HTML bytes the shop rendered. Usage: node static-html-server.mjs DIR PORT
import fs from "node:fs";
import http from "node:http";
import path from "node:path";

const [dir, port] = process.argv.slice(2);
http
  .createServer((req, res) => {
    const name = (req.url ?? "/").split("?")[0].replace(/\//g, "_") || "_";
    const file = path.join(dir, `${name}.html`);
    fs.readFile(file, (error, body) => {
      if (error) return res.writeHead(404).end();
      res.writeHead(200, {
        "Content-Type": "text/html; charset=utf-8",
        "Content-Length": body.length,
        "Cache-Control": "public, max-age=300",
      });
      res.end(body);
    });
  })
  .listen(Number(port), "127.0.0.1", () => console.log("ready"));
