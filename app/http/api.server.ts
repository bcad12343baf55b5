import express, { type ErrorRequestHandler } from "express";
import { createCaptchaApi } from "~/features/captcha/captcha.api.server";
import { onShopCatalogueEvent } from "~/features/catalog/catalogue.server";
import { createCheckoutApi } from "~/features/checkout/checkout.api.server";
import { createConsoleApi } from "~/features/staff/passkey-api.server";
import { createSupportInboxApi } from "~/features/console/support/inbox-live.api.server";
import { createLanguageSuggestionApi } from "~/features/i18n/language-suggestion.api.server";
import { notificationContext } from "~/features/checkout/checkout.server";
import { createOrdersApi } from "~/features/orders/orders.api.server";
import { createReleasesApi } from "~/features/releases/releases.api.server";
import { createRecentSalesApi } from "~/features/recent-sales/recent-sales.api.server";
import { createReviewsApi } from "~/features/reviews/reviews.api.server";
import { createStatusApi } from "~/features/status/status.api.server";
import { createConversationApi } from "~/features/support-conversation/conversation.api.server";
import { createSupportChatApi } from "~/features/support-relay/support-relay.api.server";
import { DATABASE_UNAVAILABLE_MESSAGE, INTERNAL_ERROR_MESSAGE } from "~/platform/api-errors";
import { isDatabaseUnavailableError } from "~/platform/db.server";
import { jsonBody } from "~/platform/json-body.server";

/**
 * JSON APIs under /api; each feature contributes one router (`app/features/<domain>/<domain>.api.server.ts`) that
 * applies its own rate limit and then reads the body (`jsonBody`) on the routes that take one.
 */
export function createApiRouter() {
  const api = express.Router();
  api.use((_req, res, next) => {
    res.set("Cache-Control", "no-store");
    next();
  });

  // Feature routers, one line each; keep them above the error handler.
  api.use(createCaptchaApi());
  api.use(createReviewsApi());
  api.use(createRecentSalesApi());
  api.use(createCheckoutApi());
  // Notifications about products, stock and feedback reach the catalogue through the context, not an import of it.
  api.use(
    createOrdersApi({
      notificationContext: () => ({ ...notificationContext(), onCatalogueEvent: onShopCatalogueEvent }),
    }),
  );
  api.use(createStatusApi());
  api.use(createReleasesApi());
  // Before the support request router: its per-address limit covers every POST under /support.
  api.use(createConversationApi());
  api.use(createSupportChatApi());
  api.use(createLanguageSuggestionApi());
  // Before the console's router, which answers only POST under /admin.
  api.use(createSupportInboxApi());
  api.use(createConsoleApi());

  // A request no feature answered gets the same body checks (415, 413, 400) before the JSON 404.
  api.use(jsonBody);

  // A database that cannot be reached is a 503 the client may retry; any other error a generic JSON 500. Details go to the log only.
  const unexpected: ErrorRequestHandler = (error, req, res, _next) => {
    if (isDatabaseUnavailableError(error)) {
      req.log?.warn({ err: { message: (error as Error).message } }, "api: database unavailable");
      if (!res.headersSent) res.status(503).set("Retry-After", "5").json({ error: DATABASE_UNAVAILABLE_MESSAGE });
      return;
    }
    req.log?.error({ err: error }, "api error");
    if (!res.headersSent) res.status(500).json({ error: INTERNAL_ERROR_MESSAGE });
  };
  api.use(unexpected);
  return api;
}
