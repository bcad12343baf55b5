import { describe, expect, it } from "vitest";
import { shortMessageIds } from "./messages.build";

describe("shortMessageIds", () => {
  it("cuts each id to the fewest characters no other id starts with", () => {
    const short = shortMessageIds(["x_-k3z", "x_-a12", "MF5CuB", "hlkVEp", "hmzzzz"]);
    expect(Object.fromEntries(short)).toEqual({
      "x_-k3z": "x_-k",
      "x_-a12": "x_-a",
      MF5CuB: "M",
      hlkVEp: "hl",
      hmzzzz: "hm",
    });
  });

  it("gives every id of a large catalogue its own short id, a prefix of it", () => {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return alphabet[seed % 64];
    };
    const ids = Array.from({ length: 2000 }, () => Array.from({ length: 6 }, random).join(""));
    const short = shortMessageIds(ids);
    expect(new Set(short.values()).size).toBe(new Set(ids).size);
    for (const [id, cut] of short) {
      expect(id.startsWith(cut)).toBe(true);
      for (const other of short.keys()) if (other !== id) expect(other.startsWith(cut)).toBe(false);
    }
  });
});
