import { describe, expect, it } from "vitest";
import {
  aggregateRating,
  aggregateRatingProperty,
  isFetchedWithinTtl,
  isRefreshDue,
  isReviewSource,
  ratingLabel,
} from "./reviews";

const at = (seconds: number) => new Date(Date.parse("2026-11-21T06:00:00Z") + seconds * 1000);
const iso = (seconds: number) => at(seconds).toISOString();

describe("cached list age rules", () => {
  it("a list fetched less than 60 s ago is current and needs no refresh", () => {
    const times = { fetchedAt: iso(0), lastAttemptAt: iso(0) };
    expect(isFetchedWithinTtl(times, at(59.999))).toBe(true);
    expect(isRefreshDue(times, at(59.999))).toBe(false);
  });

  it("a list 60 s old is stale and due for a refresh", () => {
    const times = { fetchedAt: iso(0), lastAttemptAt: iso(0) };
    expect(isFetchedWithinTtl(times, at(60))).toBe(false);
    expect(isRefreshDue(times, at(60))).toBe(true);
  });

  it("nothing cached yet is due at once", () => {
    expect(isRefreshDue({ fetchedAt: null, lastAttemptAt: null }, at(0))).toBe(true);
  });

  it("after a failed attempt, the next one waits a full TTL (the upstream is not hammered)", () => {
    const times = { fetchedAt: iso(0), lastAttemptAt: iso(70) };
    expect(isFetchedWithinTtl(times, at(80))).toBe(false);
    expect(isRefreshDue(times, at(80))).toBe(false);
    expect(isRefreshDue(times, at(130))).toBe(true);
  });
});

describe("aggregateRating", () => {
  it("averages ratings to one decimal and counts reviews", () => {
    expect(aggregateRating([{ rating: 5 }, { rating: 4 }, { rating: 4 }])).toEqual({
      "@type": "AggregateRating",
      ratingValue: 4.3,
      reviewCount: 3,
      bestRating: 5,
      worstRating: 0,
    });
  });

  it("never counts feedback the shop left automatically", () => {
    expect(aggregateRating([{ rating: 5, automatic: true }, { rating: 3 }])).toMatchObject({
      ratingValue: 3,
      reviewCount: 1,
    });
    expect(aggregateRating([{ rating: 5, automatic: true }])).toBeUndefined();
  });

  it("is undefined without reviews (no empty AggregateRating in JSON-LD)", () => {
    expect(aggregateRating([])).toBeUndefined();
    expect(aggregateRatingProperty(null)).toEqual({});
    expect(aggregateRatingProperty({ reviews: [] })).toEqual({});
  });

  it("spreads into a Product JSON-LD object when reviews exist", () => {
    expect({
      "@type": "Product",
      ...aggregateRatingProperty({ reviews: [{ rating: 4 }, { rating: 5 }] as never }),
    }).toMatchObject({
      "@type": "Product",
      aggregateRating: { ratingValue: 4.5, reviewCount: 2 },
    });
  });
});

describe("labels and sources", () => {
  it('labels ratings as "4 out of 5 stars"', () => {
    expect(ratingLabel(4)).toBe("4 out of 5 stars");
  });

  it("accepts only page and product as sources", () => {
    expect(isReviewSource("page")).toBe(true);
    expect(isReviewSource("product")).toBe(true);
    expect(isReviewSource("other")).toBe(false);
    expect(isReviewSource(["page"])).toBe(false);
  });
});
