import { describe, expect, it } from "vitest";
import { averageUptime, type StatusEntry, summarizeStatus, toDisplayStatus } from "./status";

const entry = (uptime: string, status: StatusEntry["status"] = "operational"): StatusEntry => ({ name: `P${uptime}`, status, uptime, updatedAt: "2026-11-21T00:00:00.000Z" });

describe("status", () => {
  it("averages the seeded uptimes 99.9, 99.4, 99.8, 99.5, 99.7 to 99.7", () => {
    expect(averageUptime(["99.9", "99.4", "99.8", "99.5", "99.7"].map((u) => entry(u)))).toBe("99.7");
  });

  it("rounds the average to one decimal, half up", () => {
    expect(averageUptime([entry("99.9"), entry("99.8")])).toBe("99.9");
    expect(averageUptime([entry("100"), entry("99.5")])).toBe("99.8");
  });

  it("shows 0.0 when there are no entries", () => {
    expect(averageUptime([])).toBe("0.0");
  });

  it("treats unknown status values as unknown", () => {
    expect(toDisplayStatus("maintenance")).toBe("maintenance");
    expect(toDisplayStatus("degraded")).toBe("unknown");
  });

  it("summarizes entries with the site's stats", () => {
    expect(summarizeStatus([entry("99.9"), entry("99.5", "outage")], { activeUsers: "2700+", licenseServers: "ONLINE" })).toEqual({
      products: 2,
      averageUptime: "99.7",
      activeUsers: "2700+",
      licenseServers: "ONLINE",
    });
  });
});
