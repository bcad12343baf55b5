import { describe, expect, it } from "vitest";
import { parseContent } from "~/features/content/content";
import { faqFileSchema } from "./faq.content";

describe("content/faq.json rules", () => {
  const parse = (data: unknown) => () => parseContent("content/faq.json", faqFileSchema, data);

  it("accepts questions with anchor ids", () => {
    expect(parse([{ id: "refunds", question: "Q?", answer: "A." }])()).toEqual([
      { id: "refunds", question: "Q?", answer: "A." },
    ]);
  });

  it("rejects an empty answer", () => {
    expect(parse([{ id: "a", question: "Q?", answer: "" }])).toThrow(
      "content/faq.json: [0].answer: expected a non-empty string",
    );
  });

  it("rejects an id that cannot be an anchor", () => {
    expect(parse([{ id: "Refund Policy", question: "Q?", answer: "A." }])).toThrow(
      "content/faq.json: [0].id: expected a lowercase id",
    );
  });

  it("rejects duplicate question ids", () => {
    const item = { id: "refunds", question: "Q?", answer: "A." };
    expect(parse([item, { ...item }])).toThrow(
      'content/faq.json: [1].id: duplicate question id "refunds" (also at [0])',
    );
  });

  it("rejects an empty list", () => {
    expect(parse([])).toThrow("content/faq.json: expected at least one question");
  });
});
