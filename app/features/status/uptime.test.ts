import { describe, expect, it } from "vitest";
import { averageFraction, dailyRecords, formatUptime, type StatusChange, uptimeFraction } from "./uptime";

const at = (iso: string) => Date.parse(iso);
const change = (iso: string, status: StatusChange["status"]): StatusChange => ({ at: at(iso), status });
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe("daily records", () => {
  const now = at("2026-11-24T12:00:00.000Z");

  it("has one UTC day per bar, oldest first, today last and counted up to now", () => {
    const days = dailyRecords([change("2026-01-01T00:00:00.000Z", "operational")], now, 3);
    expect(days.map((d) => d.date)).toEqual(["2026-11-22", "2026-11-23", "2026-11-24"]);
    expect(days.map((d) => d.upMs)).toEqual([DAY, DAY, 12 * HOUR]);
    expect(days.every((d) => d.worst === "operational")).toBe(true);
  });

  it("counts time before tracking began as no data, not up", () => {
    const days = dailyRecords([change("2026-11-23T18:00:00.000Z", "operational")], now, 3);
    expect(days.map((d) => d.worst)).toEqual(["none", "operational", "operational"]);
    expect(days.map((d) => d.upMs)).toEqual([0, 6 * HOUR, 12 * HOUR]);
    expect(uptimeFraction(days.slice(0, 1))).toBeNull();
    expect(uptimeFraction(days)).toBe(1);
  });

  it("splits an outage over midnight between the two days it touches", () => {
    const days = dailyRecords(
      [
        change("2026-11-01T00:00:00.000Z", "operational"),
        change("2026-11-22T23:00:00.000Z", "outage"),
        change("2026-11-23T02:00:00.000Z", "operational"),
      ],
      now,
      3,
    );
    expect(days.map((d) => d.downMs)).toEqual([HOUR, 2 * HOUR, 0]);
    expect(days.map((d) => d.worst)).toEqual(["outage", "outage", "operational"]);
    expect(uptimeFraction([days[0] ?? { upMs: 0, downMs: 0 }])).toBeCloseTo(23 / 24, 10);
  });

  it("gives a change at 23:59:59 its last second of the day", () => {
    const days = dailyRecords(
      [change("2026-11-01T00:00:00.000Z", "operational"), change("2026-11-23T23:59:59.000Z", "outage")],
      now,
      2,
    );
    expect(days[0]).toMatchObject({ date: "2026-11-23", downMs: 1000, upMs: DAY - 1000, worst: "outage" });
    expect(days[1]).toMatchObject({ date: "2026-11-24", downMs: 12 * HOUR, upMs: 0, worst: "outage" });
    expect(formatUptime(uptimeFraction([days[0] ?? { upMs: 0, downMs: 0 }]))).toBe("99.99");
  });

  it("leaves maintenance out of the uptime but shows it in the day's colour", () => {
    const days = dailyRecords(
      [
        change("2026-11-01T00:00:00.000Z", "operational"),
        change("2026-11-24T02:00:00.000Z", "maintenance"),
        change("2026-11-24T06:00:00.000Z", "operational"),
      ],
      now,
      1,
    );
    expect(days[0]).toMatchObject({ upMs: 8 * HOUR, downMs: 0, maintenanceMs: 4 * HOUR, worst: "maintenance" });
    expect(uptimeFraction(days)).toBe(1);
  });

  it("a day entirely in maintenance has no uptime figure", () => {
    const days = dailyRecords([change("2026-11-20T00:00:00.000Z", "maintenance")], now, 1);
    expect(days[0]?.worst).toBe("maintenance");
    expect(uptimeFraction(days)).toBeNull();
  });

  it("an outage beats maintenance for the day's colour", () => {
    const days = dailyRecords(
      [
        change("2026-11-24T00:00:00.000Z", "maintenance"),
        change("2026-11-24T01:00:00.000Z", "outage"),
        change("2026-11-24T01:00:01.000Z", "operational"),
      ],
      now,
      1,
    );
    expect(days[0]?.worst).toBe("outage");
  });

  it("reads a status nobody recognises as no data", () => {
    const days = dailyRecords([change("2026-11-24T00:00:00.000Z", "unknown")], now, 1);
    expect(days[0]).toMatchObject({ upMs: 0, downMs: 0, worst: "none" });
  });

  it("starts the window in the state the last earlier change left", () => {
    const days = dailyRecords([change("2025-01-01T00:00:00.000Z", "outage")], now, 2);
    expect(days.map((d) => d.downMs)).toEqual([DAY, 12 * HOUR]);
  });

  it("sorts changes that arrive out of order", () => {
    const days = dailyRecords(
      [change("2026-11-24T06:00:00.000Z", "operational"), change("2026-11-24T00:00:00.000Z", "outage")],
      now,
      1,
    );
    expect(days[0]).toMatchObject({ downMs: 6 * HOUR, upMs: 6 * HOUR });
  });
});

describe("uptime figures", () => {
  it("rounds down to two decimals, so any downtime shows below 100", () => {
    expect(formatUptime(1)).toBe("100.00");
    expect(formatUptime(0.99999)).toBe("99.99");
    expect(formatUptime(0.999)).toBe("99.90");
    expect(formatUptime(0.994)).toBe("99.40");
    expect(formatUptime(0)).toBe("0.00");
    expect(formatUptime(null)).toBeNull();
  });

  it("averages the products that have data", () => {
    expect(averageFraction([0.999, 0.995, null])).toBeCloseTo(0.997, 10);
    expect(averageFraction([null, null])).toBeNull();
    expect(averageFraction([])).toBeNull();
  });
});
