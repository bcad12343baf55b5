import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { envSchema } from "~/platform/env.server";
import { NGINX_TEMPLATE, renderNginxTemplate } from "../cluster/nginx";
import { makeDataDir } from "../support/app-server";
import { parseComposeYaml, type YamlValue } from "../support/compose-yaml";

// The Dockerfile and compose.yaml cannot be built or started here (no container engine): these checks keep them in
// step with the code they package.
const root = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");
const dockerfile = read("Dockerfile");
const compose = parseComposeYaml(read("compose.yaml")) as { [key: string]: YamlValue };
const services = compose.services as { [name: string]: { [key: string]: YamlValue } };
const appServices = Object.entries(services).filter(([, s]) => s.build !== undefined);
// Read by the process's C library, not by the app: glibc's allocator (docs/performance.md, "Idle memory").
const PROCESS_VARIABLES = ["MALLOC_ARENA_MAX"];
const schemaNames = new Set([...Object.keys(envSchema.shape), ...PROCESS_VARIABLES]);

/** The last stage of the Dockerfile: what the image runs. */
const finalStage = dockerfile.split(/^FROM /m).at(-1) ?? "";
/** `ENV A=1 \ B=2` lines of the final stage, as a map. */
const imageEnv = Object.fromEntries(
  [...finalStage.matchAll(/^ENV ((?:.*\\\n)*.*)$/gm)].flatMap((m) =>
    (m[1] ?? "")
      .split(/\s*\\\n\s*|\s+/)
      .filter(Boolean)
      .map((pair) => pair.split("=") as [string, string]),
  ),
);

function jsonInstruction(name: string): string[] {
  const line = [...finalStage.matchAll(new RegExp(`^${name} (?:.*\\\\\\n)*\\s*(?:CMD )?(\\[.*\\])$`, "gm"))].at(
    -1,
  )?.[1];
  if (!line) throw new Error(`no ${name} in the final stage`);
  return JSON.parse(line) as string[];
}

describe("the deploy kit", () => {
  it("runs two app instances that get 30 s to stop, more than the app's own drain limit", () => {
    expect(appServices.map(([name]) => name)).toEqual(["app-1", "app-2"]);
    const drainMs = Number(/DRAIN_LIMIT_MS = ([\d_]+)/.exec(read("server.ts"))?.[1]?.replaceAll("_", ""));
    for (const [, service] of appServices) {
      const graceMs = Number(/^(\d+)s$/.exec(String(service.stop_grace_period))?.[1]) * 1000;
      expect(graceMs).toBe(30_000);
      expect(graceMs).toBeGreaterThan(drainMs);
    }
  });

  it("sets only variables the env schema knows, in compose and in the image", () => {
    for (const [name, service] of appServices) {
      const names = Object.keys(service.environment as object);
      expect(names.length, name).toBeGreaterThan(0);
      expect(
        names.filter((n) => !schemaNames.has(n)),
        `${name} sets variables the app does not read`,
      ).toEqual([]);
    }
    expect(Object.keys(imageEnv).length).toBeGreaterThan(0);
    expect(Object.keys(imageEnv).filter((n) => !schemaNames.has(n))).toEqual([]);
  });

  it("gives every instance the same signing keys, so a captcha or notification verifies on any of them", () => {
    for (const [, service] of appServices) {
      const env = service.environment as { [key: string]: string };
      for (const shared of ["ALTCHA_HMAC_KEY", "SHOP_WEBHOOK_SECRET", "DATABASE_URL", "REDIS_URL"])
        expect(env[shared], shared).toMatch(/\S/);
    }
  });

  it("starts the container with npm start's node command and environment", () => {
    const start = JSON.parse(read("package.json")).scripts.start as string;
    const serverCommand =
      start
        .split("&&")
        .map((part) => part.trim())
        .find((part) => part.includes("server.ts")) ?? "";
    const words = serverCommand.split(/\s+/);
    const assignments = words.filter((w) => /^[A-Z_]+=/.test(w));
    const command = words.filter((w) => !/^[A-Z_]+=/.test(w));
    expect(command[0]).toBe("node");
    expect(jsonInstruction("CMD")).toEqual(command);
    for (const assignment of assignments) {
      const [name, value] = assignment.split("=");
      expect(imageEnv[name as string], name).toBe(value);
    }
  });

  it("installs production dependencies only in the image it runs, and server.ts needs nothing else", () => {
    const fromStage = /^COPY --from=(\S+) \/app\/node_modules/m.exec(finalStage)?.[1];
    const stage = dockerfile.split(/^FROM /m).find((s) => s.includes(` AS ${fromStage}`)) ?? "";
    expect(stage).toMatch(/npm ci --omit=dev/);
    const pkg = JSON.parse(read("package.json")) as { dependencies: Record<string, string> };
    const runtimeImports = [...read("server.ts").matchAll(/^import (?!type )[^;]*? from "([^".][^"]*)"/gm)]
      .map((m) => m[1] as string)
      .filter((s) => !s.startsWith("node:"));
    expect(runtimeImports.length).toBeGreaterThan(0);
    expect(runtimeImports.filter((s) => !(s in pkg.dependencies))).toEqual([]);
    expect(finalStage).toMatch(/^USER node$/m);
  });

  it("renders the nginx template the cluster test uses, with compose's variables, onto every app instance", () => {
    const nginx = services.nginx as { volumes: string[]; environment: Record<string, string> };
    const [source, target] = (nginx.volumes[0] ?? "").split(":");
    expect(path.resolve(root, source as string)).toBe(NGINX_TEMPLATE);
    expect(target).toMatch(/^\/etc\/nginx\/templates\/.+\.template$/);
    const rendered = renderNginxTemplate(fs.readFileSync(NGINX_TEMPLATE, "utf8"), nginx.environment);
    const upstreams = [...rendered.matchAll(/server (\S+):(\d+);/g)].map((m) => `${m[1]}:${m[2]}`);
    expect(upstreams).toEqual(appServices.map(([name]) => `${name}:${imageEnv.PORT}`));
  });

  describe("the healthcheck", () => {
    let base = "";
    let close = () => {};
    const dataDir = makeDataDir("kestrel-deploy-kit-");
    beforeAll(async () => {
      process.env.DATA_DIR = dataDir;
      const { app } = await import("~/http/app");
      const server = app.listen(0, "127.0.0.1");
      await new Promise((resolve) => server.once("listening", resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      close = () => server.close();
    });
    afterAll(() => {
      close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it("asks a path the app answers 200 on, without the database", async () => {
      const probe = jsonInstruction("HEALTHCHECK").join(" ");
      const [, healthPath] = /\+ '(\/[a-z]+)'/.exec(probe) ?? [];
      expect(healthPath).toBe("/healthz");
      const res = await fetch(`${base}${healthPath}`);
      expect(res.status).toBe(200);
    });
  });
});
