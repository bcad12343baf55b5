// `npm run scan:headers`: grades the production server's headers with the MDN HTTP Observatory (A+ expected).
// The server runs as in production behind TLS: a local HTTPS front (self-signed certificate, trusted only by the
// scanner process) proxies to it with X-Forwarded-Proto, and plain HTTP answers a 301 to HTTPS, as the deployment's
// proxy does. PUBLIC_URL is https, so HSTS and upgrade-insecure-requests are on, exactly as in production.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { freePort } from "../tests/support/app-server.ts";
import { startServer } from "./lib/sweep-support.mjs";

// The package's install script downloads Chromium's HSTS preload list; installed with scripts disabled it is absent.
// localhost can never be on that list, so an empty list grades exactly as the full one would.
const preloadList = path.join("node_modules/@mdn/mdn-http-observatory/conf/hsts-preload.json");
if (!fs.existsSync(preloadList)) fs.writeFileSync(preloadList, "{}\n");

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kestrel-observatory-"));
const keyFile = path.join(dir, "key.pem");
const certFile = path.join(dir, "cert.pem");
execFileSync(
  "openssl",
  [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-days",
    "1",
    "-subj",
    "/CN=localhost",
    "-addext",
    "subjectAltName=DNS:localhost",
    "-keyout",
    keyFile,
    "-out",
    certFile,
  ],
  { stdio: "ignore" },
);

const httpsPort = await freePort();
const httpPort = await freePort();
const app = await startServer({ PUBLIC_URL: `https://localhost:${httpsPort}` });
const tlsFront = https.createServer({ key: fs.readFileSync(keyFile), cert: fs.readFileSync(certFile) }, (req, res) => {
  const upstream = http.request(
    {
      host: "127.0.0.1",
      port: app.port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, "x-forwarded-proto": "https", "x-forwarded-for": req.socket.remoteAddress },
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on("error", () => res.writeHead(502).end());
  req.pipe(upstream);
});
const redirector = http.createServer((req, res) =>
  res.writeHead(301, { Location: `https://localhost:${httpsPort}${req.url}` }).end(),
);
await Promise.all([
  new Promise((r) => tlsFront.listen(httpsPort, "127.0.0.1", r)),
  new Promise((r) => redirector.listen(httpPort, "127.0.0.1", r)),
]);

let exitCode = 1;
try {
  // Asynchronous: the TLS front and the redirector live in this process and must keep answering.
  const run = await new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ["scripts/lib/observatory-grade.mjs", "localhost", String(httpPort), String(httpsPort)],
      { env: { ...process.env, NODE_EXTRA_CA_CERTS: certFile } },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
  if (run.status !== 0) throw new Error(run.stderr || run.stdout);
  const report = JSON.parse(run.stdout.trim().split("\n").at(-1));
  console.log(`MDN HTTP Observatory (@mdn/mdn-http-observatory, local grading) for https://localhost:${httpsPort}/`);
  for (const t of report.tests)
    console.log(
      `  ${t.pass ? "pass" : "FAIL"} ${String(t.scoreModifier).padStart(4)}  ${t.name.padEnd(34)} ${t.result}`,
    );
  console.log(
    `Grade: ${report.grade}  (score ${report.score}, ${report.testsPassed}/${report.testsQuantity} tests passed)`,
  );
  exitCode = report.grade === "A+" ? 0 : 1;
} catch (error) {
  console.error(`scan failed: ${error instanceof Error ? error.message : error}`);
} finally {
  tlsFront.close();
  redirector.close();
  await app.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);
