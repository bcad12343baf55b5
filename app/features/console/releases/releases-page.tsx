import { Trans, useLingui } from "@lingui/react/macro";
import { Form } from "react-router";
import { buttonStyles } from "~/components/ui/button-styles";
import { fileSize } from "~/features/downloads/downloads";
import { ConsoleHeading } from "../shell/console-heading";
import { useConsoleTime } from "../shell/console-clock";
import { ConsoleNotice } from "../shell/console-notice";
import type { ConsoleRelease, ConsoleReleaseProduct, ReleasesNotice } from "./releases-page.server";

function NoticeText({ notice }: { notice: ReleasesNotice }) {
  switch (notice.kind) {
    case "published":
      return (
        <Trans>
          {notice.product} {notice.version} is published: it shows on the downloads page and in the update feeds.
        </Trans>
      );
    case "yanked":
      return (
        <Trans>
          {notice.product} {notice.version} is withdrawn: gone from the downloads page and the feeds, kept here.
        </Trans>
      );
    case "already-published":
      return (
        <Trans>
          {notice.product} {notice.version} was already published: nothing changed.
        </Trans>
      );
    case "already-yanked":
      return (
        <Trans>
          {notice.product} {notice.version} was already withdrawn: nothing changed.
        </Trans>
      );
    case "needs-file":
      return (
        <Trans>
          {notice.product} {notice.version} has no file yet, so it cannot be published.
        </Trans>
      );
    case "not-found":
      return <Trans>That release no longer exists. The list below is up to date.</Trans>;
    default:
      return <Trans>That form could not be read. Please try again from the list below.</Trans>;
  }
}

function StateName({ state }: { state: ConsoleRelease["state"] }) {
  if (state === "published") return <Trans context="release state">Published</Trans>;
  if (state === "yanked") return <Trans context="release state">Withdrawn (yanked)</Trans>;
  return <Trans context="release state">Draft</Trans>;
}

function ChangeButton({
  productId,
  version,
  intent,
}: {
  productId: number;
  version: string;
  intent: "publish" | "yank";
}) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="product" value={productId} />
      <input type="hidden" name="version" value={version} />
      <button type="submit" className={intent === "publish" ? buttonStyles.primary : buttonStyles.secondary}>
        {intent === "publish" ? (
          <Trans>
            Publish <span className="sr-only">{version}</span>
          </Trans>
        ) : (
          <Trans>
            Yank <span className="sr-only">{version}</span>
          </Trans>
        )}
      </button>
    </Form>
  );
}

function ReleaseRow({ productId, release }: { productId: number; release: ConsoleRelease }) {
  const { i18n } = useLingui();
  const time = useConsoleTime();
  return (
    <tr className="border-border border-t align-top">
      <th scope="row" className="py-2 pe-4 font-semibold text-foreground">
        {release.version}
      </th>
      <td className="py-2 pe-4">{release.channel === "beta" ? <Trans>beta</Trans> : <Trans>stable</Trans>}</td>
      <td className="py-2 pe-4">
        <StateName state={release.state} />
      </td>
      <td className="py-2 pe-4">{time(release.publishedAt ?? release.createdAt)}</td>
      <td className="py-2 pe-4">
        <ul className="space-y-1">
          {release.files.map((file) => (
            <li key={`${file.platform}-${file.name}`}>
              <span className="font-mono">{file.platform}</span> · {file.name} · {fileSize(i18n, file.size)}
              <br />
              <span className="break-all font-mono text-soft text-xs">
                <Trans>SHA-256</Trans> {file.sha256}
              </span>
            </li>
          ))}
        </ul>
      </td>
      <td className="py-2 pe-4 tabular-nums">{i18n.number(release.downloads)}</td>
      <td className="py-2">
        <div className="flex flex-wrap gap-2">
          {release.state !== "published" ? (
            <ChangeButton productId={productId} version={release.version} intent="publish" />
          ) : null}
          {release.state !== "yanked" ? (
            <ChangeButton productId={productId} version={release.version} intent="yank" />
          ) : null}
        </div>
      </td>
    </tr>
  );
}

function ProductReleases({ product }: { product: ConsoleReleaseProduct }) {
  return (
    <section aria-labelledby={`releases-${product.id}`} className="mb-8">
      <h2 id={`releases-${product.id}`} className="mb-2 font-semibold text-foreground text-lg">
        {product.name}
      </h2>
      {product.releases.length === 0 ? (
        <p className="text-soft text-sm">
          <Trans>No releases yet.</Trans>
        </p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <caption className="sr-only">
              <Trans>Releases of {product.name}</Trans>
            </caption>
            <thead>
              <tr className="text-start text-soft">
                <th scope="col" className="pe-4 text-start font-normal">
                  <Trans>Version</Trans>
                </th>
                <th scope="col" className="pe-4 text-start font-normal">
                  <Trans>Channel</Trans>
                </th>
                <th scope="col" className="pe-4 text-start font-normal">
                  <Trans>State</Trans>
                </th>
                <th scope="col" className="pe-4 text-start font-normal">
                  <Trans>Date</Trans>
                </th>
                <th scope="col" className="pe-4 text-start font-normal">
                  <Trans>Files</Trans>
                </th>
                <th scope="col" className="pe-4 text-start font-normal">
                  <Trans>Downloads</Trans>
                </th>
                <th scope="col" className="text-start font-normal">
                  <Trans>Change</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {product.releases.map((release) => (
                <ReleaseRow key={release.id} productId={product.id} release={release} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function ReleasesConsolePage({
  products,
  notice,
}: {
  products: ConsoleReleaseProduct[];
  notice: ReleasesNotice | null;
}) {
  const { t } = useLingui();
  const failed =
    notice !== null && !["published", "yanked", "already-published", "already-yanked"].includes(notice.kind);
  return (
    <div>
      <ConsoleHeading title={t`Releases`}>
        <Trans>
          Each product's versions: publish a draft so buyers can download it, or yank one to withdraw it from the
          downloads page and the update feeds.
        </Trans>
      </ConsoleHeading>
      {notice ? (
        <ConsoleNotice failed={failed}>
          <NoticeText notice={notice} />
        </ConsoleNotice>
      ) : null}
      {products.map((product) => (
        <ProductReleases key={product.id} product={product} />
      ))}
    </div>
  );
}
