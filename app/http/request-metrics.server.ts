import type express from "express";
import { httpRequests, httpRequestSeconds } from "~/platform/metrics.server";

const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The route a request was answered by: a page's route id, an API path pattern, or `other` (labels stay few). */
function routeLabel(req: express.Request, res: express.Response): string {
  const pageRouteIdOf = res.locals.pageRouteIdOf as ((req: express.Request) => string) | undefined;
  if (pageRouteIdOf) return pageRouteIdOf(req);
  if (req.route?.path && typeof req.route.path === "string") return `${req.baseUrl}${req.route.path}`;
  return "other";
}

// One labelled child per route, method and status, so counting a request does not hash its labels each time.
const counters = new Map<string, { count: () => void; time: (seconds: number) => void }>();
function seriesFor(route: string, method: string, status: string) {
  const key = `${route} ${method} ${status}`;
  let series = counters.get(key);
  if (!series) {
    const counter = httpRequests.labels({ route, method, status });
    const histogram = httpRequestSeconds.labels({ route, method });
    series = { count: () => counter.inc(), time: (seconds) => histogram.observe(seconds) };
    // Bounded like the route ids it is keyed by: a flood of odd paths cannot grow it without end.
    if (counters.size < 5_000) counters.set(key, series);
  }
  return series;
}

/** Counts every answered request and its duration by route id, method and status (`kestrel_http_*`). */
export function recordRequestMetrics(req: express.Request, res: express.Response, next: express.NextFunction) {
  const started = performance.now();
  res.once("finish", () => {
    // A method anyone can make up would otherwise become a label of its own.
    const method = KNOWN_METHODS.has(req.method) ? req.method : "other";
    const series = seriesFor(routeLabel(req, res), method, String(res.statusCode));
    series.count();
    series.time((performance.now() - started) / 1000);
  });
  next();
}
