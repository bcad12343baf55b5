// The console's preview (issue 44): the real page — the same route, components and stylesheet — rendered on the
// server with a document's draft laid over the published content. Only a signed-in owner or admin gets it; it is
// `private, no-store`, never goes through the render cache (this handler is not the page handler), and the public
// pages read nothing a request sends to switch it on: the preview exists only inside this handler's render.
import type express from "express";
import { createHeaders } from "@remix-run/node-fetch-server";
import { createRequestHandler, type RouterContextProvider, type ServerBuild } from "react-router";
import { type ContentOverrides, loadedOverrides, withContentPreview } from "~/features/content/content.server";
import { documentOf, documentPath, type ContentDocumentId } from "~/features/content/content-documents";
import { ContentRefusedError, readDraft, validateOverrides } from "~/features/content/content-overrides.server";
import { localizedPath } from "~/features/i18n/locales";
import { sessionOfRequest } from "~/features/staff/door.server";
import { mayEnter, SETUP_PATH, SIGN_IN_PATH } from "~/features/staff/roles";
import { getDb } from "~/platform/db.server";
import { sendRendered } from "./page-handler.server";

export const PREVIEW_PATH = "/admin/content-preview";
const PRIVATE = "private, no-store";

/** The page a document shows on: the FAQ on /faq, a legal page on its own path, the site texts on the home page. */
export function previewPathOf(id: ContentDocumentId): string {
  const path =
    id.kind === "faq"
      ? "/faq"
      : id.kind === "docs"
        ? "/docs"
        : id.kind === "plans"
          ? "/reseller"
          : id.kind === "products"
            ? "/products"
            : id.kind === "legal"
              ? `/${id.key}`
              : "/";
  return localizedPath(path, id.locale);
}

function refuse(res: express.Response, status: number, text: string) {
  res.status(status).set("Cache-Control", PRIVATE).type("text/plain").send(text);
}

export function createContentPreviewHandler(
  build: ServerBuild | (() => Promise<ServerBuild>),
  getLoadContext: (req: express.Request, res: express.Response) => RouterContextProvider,
  { mode }: { mode: string },
): express.RequestHandler {
  const render = createRequestHandler(build, mode);
  return async (req, res, next) => {
    try {
      const base = `${req.protocol}://${req.get("host") ?? "localhost"}`;
      const session = await sessionOfRequest(
        new Request(new URL(req.originalUrl, base), { headers: createHeaders(req) }),
      );
      // As every console page: to the door without a session, to the setup page with a setup link's.
      if (!session || session.beganWith === "setup-link")
        return res
          .status(303)
          .set("Cache-Control", PRIVATE)
          .location(session ? SETUP_PATH : SIGN_IN_PATH)
          .end();
      if (!mayEnter(session.staff.role, "content"))
        return refuse(res, 403, "You do not have access to this page: the preview is for owners and admins.");
      const [kind = "", second = "", third] = String(req.query.doc ?? "").split("/");
      const id = third === undefined ? documentOf(kind, second) : documentOf(kind, third, second);
      if (!id) return refuse(res, 404, "No such document.");
      const path = typeof req.query.path === "string" ? req.query.path : previewPathOf(id);
      if (!/^\/(?!\/)[^\s]*$/.test(path) || /^\/(?:[a-z]{2}(?:-[a-z]{2})?\/)?admin(?:[/.]|$)/.test(path))
        return refuse(res, 400, "Preview a page of the shop (a path starting with /).");
      const draft = await readDraft(getDb().db, id);
      const overrides = new Map<string, string>(loadedOverrides() as ContentOverrides);
      if (draft) overrides.set(documentPath(id), draft.value);
      let built: ReturnType<typeof validateOverrides>;
      try {
        built = validateOverrides(overrides);
      } catch (error) {
        if (!(error instanceof ContentRefusedError)) throw error;
        return refuse(res, 400, `The draft would not pass the shop's checks:\n${error.message}`);
      }
      // The public page as an anonymous visitor would get it: none of the caller's cookies reach its render.
      const request = new Request(new URL(path, base), {
        headers: { Accept: "text/html", "Accept-Language": String(req.get("accept-language") ?? "") },
      });
      await withContentPreview(built.byLocale, async () => {
        const response = await render(request, getLoadContext(req, res));
        const headers = new Headers(response.headers);
        headers.set("Cache-Control", PRIVATE);
        headers.delete("ETag");
        headers.delete("set-cookie");
        await sendRendered(res, new Response(response.body, { status: response.status, headers }), {
          withOwnStylesheet: true,
        });
      });
    } catch (error) {
      next(error);
    }
  };
}
