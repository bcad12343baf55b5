import { describe, expect, it } from "vitest";
import { incidentPath, toDisplayStatus, toIncidentStatus } from "./status";

describe("status", () => {
  it("treats unknown status values as unknown", () => {
    expect(toDisplayStatus("maintenance")).toBe("maintenance");
    expect(toDisplayStatus("degraded")).toBe("unknown");
  });

  it("reads an incident status, an unknown one as investigating", () => {
    expect(toIncidentStatus("monitoring")).toBe("monitoring");
    expect(toIncidentStatus("exploded")).toBe("investigating");
  });

  it("gives each incident its own URL", () => {
    expect(incidentPath(12)).toBe("/status/incidents/12");
  });
});
