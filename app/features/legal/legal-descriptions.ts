import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { LegalSlug } from "./legal-pages";

/** Each legal page's meta description, translated by the route's `meta`. */
export const LEGAL_DESCRIPTIONS: Record<LegalSlug, MessageDescriptor> = {
  terms: msg`The terms that apply when you buy and use Kestrel Software licences.`,
  privacy: msg`What personal data Kestrel Software collects, why, and your rights.`,
  refund: msg`When Kestrel Software refunds a purchase: the 24-hour window, evidence and processing times.`,
  dmca: msg`How to report copyright infringement to Kestrel Software.`,
};
