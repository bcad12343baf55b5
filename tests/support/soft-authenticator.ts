// A software WebAuthn authenticator for tests (issue 34): it keeps ES256 (P-256) discoverable credentials and answers a
// server's registration and sign-in options with the JSON a browser's @simplewebauthn/browser would post. Attestation
// is "none"; every part can be spoiled (flags, origin, counter) so a test can show what the server refuses.
import crypto from "node:crypto";
import { type CBORType, encodeCBOR } from "@levischuck/tiny-cbor";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";

/** Authenticator data flags (WebAuthn §6.1): user present, user verified, attested credential data included. */
export const FLAG_UP = 0x01;
export const FLAG_UV = 0x04;
export const FLAG_AT = 0x40;

export interface SoftCredential {
  /** base64url, as the server stores it. */
  id: string;
  rpId: string;
  /** base64url of the user handle the server gave at registration (options.user.id). */
  userHandle: string;
  privateKey: crypto.KeyObject;
  publicKey: crypto.KeyObject;
  signCount: number;
}

export interface CeremonyOverrides {
  /** The page's origin the browser puts in clientDataJSON (default: the authenticator's origin). */
  origin?: string;
  /** Authenticator data flags instead of UP|UV (|AT at registration). */
  flags?: number;
  /** clientDataJSON's type instead of webauthn.create / webauthn.get. */
  type?: string;
  /** The challenge instead of the options' one. */
  challenge?: string;
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => crypto.createHash("sha256").update(data).digest();

function uint32(n: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(n >>> 0);
  return out;
}

/** A P-256 public key as the COSE_Key map WebAuthn carries: kty EC2, alg ES256, crv P-256, x, y. */
export function coseKeyOf(publicKey: crypto.KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: "jwk" });
  if (!jwk.x || !jwk.y) throw new Error("not an EC public key");
  return encodeCBOR(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x, "base64url")],
      [-3, Buffer.from(jwk.y, "base64url")],
    ]),
  );
}

/** An error as the browser's navigator.credentials would raise it. */
export class AuthenticatorError extends Error {
  constructor(
    readonly name: "NotAllowedError" | "InvalidStateError",
    message: string,
  ) {
    super(message);
  }
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  /** `origin`: the page the ceremonies run on, e.g. "http://localhost:3000". */
  constructor(readonly origin: string) {}

  private clientData(type: string, challenge: string, overrides: CeremonyOverrides): Buffer {
    return Buffer.from(
      JSON.stringify({
        type: overrides.type ?? type,
        challenge: overrides.challenge ?? challenge,
        origin: overrides.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
  }

  /** navigator.credentials.create(): a new discoverable credential for the options' relying party and user. */
  register(
    options: PublicKeyCredentialCreationOptionsJSON,
    overrides: CeremonyOverrides = {},
  ): RegistrationResponseJSON {
    const rpId = options.rp.id ?? new URL(overrides.origin ?? this.origin).hostname;
    if (!options.pubKeyCredParams.some((p) => p.alg === -7))
      throw new AuthenticatorError("NotAllowedError", "the relying party does not accept ES256");
    const excluded = new Set((options.excludeCredentials ?? []).map((c) => c.id));
    if (this.credentials.some((c) => c.rpId === rpId && excluded.has(c.id)))
      throw new AuthenticatorError("InvalidStateError", "this authenticator already holds a passkey for the account");
    const { privateKey, publicKey } = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
    const rawId = crypto.randomBytes(32);
    const credential: SoftCredential = {
      id: b64url(rawId),
      rpId,
      userHandle: options.user.id,
      privateKey,
      publicKey,
      signCount: 0,
    };
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(rawId.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([overrides.flags ?? FLAG_UP | FLAG_UV | FLAG_AT]),
      uint32(credential.signCount),
      Buffer.alloc(16), // AAGUID: all zeros, as an authenticator that attests nothing
      idLength,
      rawId,
      coseKeyOf(publicKey),
    ]);
    const attestationObject = encodeCBOR(
      new Map<string, CBORType>([
        ["fmt", "none"],
        ["attStmt", new Map<string, CBORType>()],
        ["authData", authData],
      ]),
    );
    // Kept whether or not the server accepts the answer, as a real authenticator keeps it.
    this.credentials.push(credential);
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(this.clientData("webauthn.create", options.challenge, overrides)),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /**
   * navigator.credentials.get(): signs the options' challenge with this authenticator's credential for the relying
   * party (the one named, else the newest); its counter goes up by one each time unless `counter` says otherwise.
   */
  signIn(
    options: PublicKeyCredentialRequestOptionsJSON,
    overrides: CeremonyOverrides & { credentialId?: string; counter?: number } = {},
  ): AuthenticationResponseJSON {
    const rpId = options.rpId ?? new URL(overrides.origin ?? this.origin).hostname;
    const allowed = new Set((options.allowCredentials ?? []).map((c) => c.id));
    const candidates = this.credentials.filter(
      (c) =>
        c.rpId === rpId &&
        (allowed.size === 0 || allowed.has(c.id)) &&
        (overrides.credentialId === undefined || c.id === overrides.credentialId),
    );
    const credential = candidates.at(-1);
    if (!credential) throw new AuthenticatorError("NotAllowedError", `no passkey for ${rpId} on this authenticator`);
    credential.signCount = overrides.counter ?? credential.signCount + 1;
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([overrides.flags ?? FLAG_UP | FLAG_UV]),
      uint32(credential.signCount),
    ]);
    const clientDataJSON = this.clientData("webauthn.get", options.challenge, overrides);
    // ECDSA with SHA-256 over authenticatorData || SHA-256(clientDataJSON), DER-encoded as WebAuthn expects.
    const signature = crypto.sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), {
      key: credential.privateKey,
      dsaEncoding: "der",
    });
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /** Forgets a credential, as when a person deletes a passkey from their device. */
  forget(id: string): void {
    const at = this.credentials.findIndex((c) => c.id === id);
    if (at >= 0) this.credentials.splice(at, 1);
  }
}
