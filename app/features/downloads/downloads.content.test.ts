import { describe, expect, it } from "vitest";
import { parseContent } from "~/features/content/content";
import { downloadsFileSchema } from "./downloads.content";

describe("content/downloads.json rules", () => {
  const download = {
    id: "vault",
    name: "Kestrel Vault",
    version: "3.4.2",
    size: "48.2 MB",
    date: "2026-11-12",
    status: "stable",
    description: "Vault.",
    requirements: ["Windows 11"],
    changelog: ["Fixes"],
  };
  const parse = (data: unknown) => () => parseContent("content/downloads.json", downloadsFileSchema, data);

  it("accepts a download without a product id", () => {
    expect(parse([download])()).toEqual([download]);
  });

  it("rejects a status other than stable, beta or new", () => {
    expect(parse([{ ...download, status: "alpha" }])).toThrow(
      "content/downloads.json: [0].status: expected stable, beta or new",
    );
  });

  it("rejects a date that is not YYYY-MM-DD", () => {
    expect(parse([{ ...download, date: "12/11/2026" }])).toThrow(
      "content/downloads.json: [0].date: expected a date YYYY-MM-DD",
    );
  });

  it("rejects a size without a unit", () => {
    expect(parse([{ ...download, size: "48" }])).toThrow(
      "content/downloads.json: [0].size: expected a size like 48.2 MB",
    );
  });

  it("rejects an empty changelog", () => {
    expect(parse([{ ...download, changelog: [] }])).toThrow(
      "content/downloads.json: [0].changelog: expected at least one changelog line",
    );
  });

  it("rejects duplicate download ids", () => {
    expect(parse([download, download])).toThrow(
      'content/downloads.json: [1].id: duplicate download id "vault" (also at [0])',
    );
  });
});
