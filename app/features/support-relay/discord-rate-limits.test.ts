import { describe, expect, it } from "vitest";
import { createRateLimitTracker, routeKey } from "./discord-rate-limits.server";

function clock(start = 1_000_000) {
  let at = start;
  return { now: () => at, advance: (ms: number) => (at += ms) };
}

const ok = { status: 200 };

describe("routeKey", () => {
  it("keeps the channel as the major parameter and replaces message ids and emoji", () => {
    expect(routeKey("get", "/channels/111/messages?after=5&limit=100")).toEqual({
      route: "GET /channels/:channel/messages",
      major: "111",
    });
    expect(routeKey("POST", "/channels/111/messages/222/threads")).toEqual({
      route: "POST /channels/:channel/messages/:id/threads",
      major: "111",
    });
    expect(routeKey("PUT", "/channels/111/messages/222/reactions/%F0%9F%93%9D/@me")).toEqual({
      route: "PUT /channels/:channel/messages/:id/reactions/:emoji/@me",
      major: "111",
    });
  });
});

describe("the rate-limit tracker", () => {
  it("lets requests go while the bucket has some left, then waits for its Reset-After", () => {
    const time = clock();
    const limits = createRateLimitTracker({ now: time.now });
    const key = routeKey("POST", "/channels/111/messages");
    expect(limits.reserve(key)).toBe(0);
    limits.record(key, { ...ok, bucket: "abc", remaining: 1, resetAfterMs: 2_000 });
    expect(limits.reserve(key)).toBe(0);
    // That request took the last one: the next waits for the reset.
    expect(limits.reserve(key)).toBe(2_000);
    time.advance(1_500);
    expect(limits.reserve(key)).toBe(500);
    time.advance(500);
    expect(limits.reserve(key)).toBe(0);
  });

  it("waits when Remaining is 0, until Reset-After", () => {
    const time = clock();
    const limits = createRateLimitTracker({ now: time.now });
    const key = routeKey("GET", "/channels/111/messages");
    limits.reserve(key);
    limits.record(key, { ...ok, bucket: "read", remaining: 0, resetAfterMs: 750 });
    expect(limits.reserve(key)).toBe(750);
  });

  it("counts a bucket per channel: another channel's requests are not held back", () => {
    const time = clock();
    const limits = createRateLimitTracker({ now: time.now });
    const one = routeKey("POST", "/channels/111/messages");
    const two = routeKey("POST", "/channels/222/messages");
    limits.reserve(one);
    limits.record(one, { ...ok, bucket: "send", remaining: 0, resetAfterMs: 5_000 });
    expect(limits.reserve(one)).toBe(5_000);
    expect(limits.reserve(two)).toBe(0);
  });

  it("maps routes to the bucket Discord names, so routes that share one share its quota", () => {
    const time = clock();
    const limits = createRateLimitTracker({ now: time.now });
    const post = routeKey("POST", "/channels/111/messages");
    const thread = routeKey("POST", "/channels/111/messages/9/threads");
    limits.reserve(thread);
    limits.record(thread, { ...ok, bucket: "shared-hash", remaining: 5, resetAfterMs: 1_000 });
    limits.reserve(post);
    limits.record(post, { ...ok, bucket: "shared-hash", remaining: 0, resetAfterMs: 1_000 });
    expect(limits.bucketOf(thread)).toBe("shared-hash");
    expect(limits.reserve(thread)).toBe(1_000);
  });

  it("holds a route back for a 429's retry_after", () => {
    const time = clock();
    const limits = createRateLimitTracker({ now: time.now });
    const key = routeKey("POST", "/channels/111/messages");
    limits.reserve(key);
    limits.record(key, { status: 429, bucket: "send", retryAfterMs: 1_250, scope: "user" });
    expect(limits.reserve(key)).toBe(1_250);
    expect(limits.reserve(routeKey("GET", "/channels/111"))).toBe(0);
  });

  it("holds every route back after a global 429", () => {
    const time = clock();
    const limits = createRateLimitTracker({ now: time.now });
    const key = routeKey("POST", "/channels/111/messages");
    limits.reserve(key);
    limits.record(key, { status: 429, retryAfterMs: 300, global: true, scope: "global" });
    expect(limits.reserve(routeKey("GET", "/channels/222"))).toBe(300);
    time.advance(300);
    expect(limits.reserve(routeKey("GET", "/channels/222"))).toBe(0);
  });

  it("sends at most 50 requests in any second, across routes", () => {
    const time = clock();
    const limits = createRateLimitTracker({ now: time.now });
    for (let i = 0; i < 50; i++) {
      expect(limits.reserve(routeKey("GET", `/channels/${i + 1}`))).toBe(0);
      time.advance(10);
    }
    // The first went 500 ms ago: the 51st waits until it is a second old.
    expect(limits.reserve(routeKey("GET", "/channels/999"))).toBe(500);
    time.advance(500);
    expect(limits.reserve(routeKey("GET", "/channels/999"))).toBe(0);
  });

  it("counts 401, 403 and 429 (not shared-scope 429s) over ten minutes, and says when to stop calling", () => {
    const time = clock();
    const limits = createRateLimitTracker({ now: time.now, invalidRequestBudget: 3 });
    const key = routeKey("GET", "/channels/111");
    limits.record(key, { status: 401 });
    limits.record(key, { status: 403 });
    limits.record(key, { status: 429, retryAfterMs: 1, scope: "shared" });
    limits.record(key, { status: 404 });
    expect(limits.invalidRequests()).toBe(2);
    expect(limits.invalidBudgetExhausted()).toBe(false);
    limits.record(key, { status: 429, retryAfterMs: 1, scope: "user" });
    expect(limits.invalidBudgetExhausted()).toBe(true);
    time.advance(10 * 60_000);
    expect(limits.invalidRequests()).toBe(0);
    expect(limits.invalidBudgetExhausted()).toBe(false);
  });

  it("stops well before Discord's 10,000 by default", () => {
    const limits = createRateLimitTracker({ now: () => 0 });
    const key = routeKey("GET", "/channels/111");
    for (let i = 0; i < 8_999; i++) limits.record(key, { status: 403 });
    expect(limits.invalidBudgetExhausted()).toBe(false);
    limits.record(key, { status: 403 });
    expect(limits.invalidBudgetExhausted()).toBe(true);
  });
});
