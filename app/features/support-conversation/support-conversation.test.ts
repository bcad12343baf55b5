import { describe, expect, it } from "vitest";
import { hasConversationHint } from "./support-conversation";

describe("the hint that this browser has a support conversation", () => {
  it("is present when the page's cookies carry it", () => {
    expect(hasConversationHint("kestrel_support_has_conversation=1")).toBe(true);
    expect(hasConversationHint("theme=dark; kestrel_support_has_conversation=1; lang=de")).toBe(true);
  });

  it("is absent without cookies, with other cookies, or when cleared", () => {
    expect(hasConversationHint("")).toBe(false);
    expect(hasConversationHint("theme=dark; lang=de")).toBe(false);
    expect(hasConversationHint("kestrel_support_has_conversation=")).toBe(false);
  });

  it("is not mistaken for a cookie whose name only ends the same way", () => {
    expect(hasConversationHint("x_kestrel_support_has_conversation=1")).toBe(false);
    expect(hasConversationHint("kestrel_support_has_conversation=10")).toBe(false);
  });
});
