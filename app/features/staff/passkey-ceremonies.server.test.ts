import { describe, expect, it } from "vitest";
import { challengeOf, relyingParty, relyingPartyIsAddress } from "./passkey-ceremonies.server";

describe("the console's relying party", () => {
  it("is PUBLIC_URL's host name, and its origin", () => {
    expect(relyingParty("https://shop.example.com/some/path")).toEqual({
      id: "shop.example.com",
      origin: "https://shop.example.com",
      name: "Kestrel console",
    });
    expect(relyingParty("http://localhost:3000")).toMatchObject({ id: "localhost", origin: "http://localhost:3000" });
  });

  it("cannot be an IP address: the sign-in page then says passkeys need a host name", () => {
    expect(relyingPartyIsAddress("http://127.0.0.1:3000")).toBe(true);
    expect(relyingPartyIsAddress("http://192.0.2.10")).toBe(true);
    expect(relyingPartyIsAddress("http://[::1]:3000")).toBe(true);
    expect(relyingPartyIsAddress("http://localhost:3000")).toBe(false);
    expect(relyingPartyIsAddress("https://shop.example.com")).toBe(false);
  });

  it("reads the challenge an answer carries, and nothing from a malformed one", () => {
    const clientDataJSON = Buffer.from(JSON.stringify({ type: "webauthn.get", challenge: "abc_-1" })).toString(
      "base64url",
    );
    expect(challengeOf({ response: { clientDataJSON } })).toBe("abc_-1");
    expect(challengeOf({ response: { clientDataJSON: "%%%" } })).toBeUndefined();
    expect(challengeOf({ response: { clientDataJSON: Buffer.from("[]").toString("base64url") } })).toBeUndefined();
    expect(challengeOf({})).toBeUndefined();
  });
});
