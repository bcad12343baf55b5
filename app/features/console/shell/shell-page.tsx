import { Trans, useLingui } from "@lingui/react/macro";
import { type ReactNode, useId } from "react";
import { Form, Link, NavLink, useLocation } from "react-router";
import { LOCALE_CODES, LOCALES, pathWithoutLocale } from "~/features/i18n/locales";
import { useLocale } from "~/features/i18n/use-locale";
import { type ConsoleArea, mayEnter, type StaffRole } from "~/features/staff/roles";
import { ConsoleMenuBar } from "./console-menu";
import { currentRoom, roomCurrent } from "./console-rooms";
import { RoleName } from "./role-name";

export interface ConsoleViewer {
  email: string;
  role: StaffRole;
}

interface ConsoleRoom {
  area: ConsoleArea;
  to: string;
  label: string;
}

/** The rooms this person may enter, in the navigation's order. */
function useConsoleRooms(viewer: ConsoleViewer | null): ConsoleRoom[] {
  const { t } = useLingui();
  if (!viewer) return [];
  const rooms: ConsoleRoom[] = [
    { area: "dashboard", to: "/admin", label: t`Dashboard` },
    { area: "support", to: "/admin/support", label: t`Support inbox` },
    // Beside the support inbox: what its message box offers.
    { area: "savedReplies", to: "/admin/support/saved-replies", label: t`Saved replies` },
    { area: "orders", to: "/admin/orders", label: t`Orders` },
    { area: "deliveries", to: "/admin/deliveries", label: t`Deliveries` },
    {
      area: "status",
      to: "/admin/status",
      label: t({ message: "Status", comment: "The console's room for product status and incidents" }),
    },
    {
      area: "content",
      to: "/admin/content",
      label: t({ message: "Content", comment: "The console's room where the owner edits the shop's texts" }),
    },
    {
      area: "releases",
      to: "/admin/releases",
      label: t({ message: "Releases", comment: "The console's room where owners publish the software's versions" }),
    },
    { area: "staff", to: "/admin/staff", label: t`Staff` },
    { area: "audit", to: "/admin/audit", label: t`Audit log` },
    { area: "account", to: "/admin/account", label: t`Your account` },
  ];
  return rooms.filter((room) => mayEnter(viewer.role, room.area));
}

/**
 * The console's own frame: its name, the rooms this person may enter, the language menu and Sign out. From the
 * `console` breakpoint (72rem, the header's widest: the owner's nine rooms needed 863 px in English to 1,096 px in
 * German on a line; Content and Releases, the tenth and eleventh, make German, Spanish and Portuguese wrap there) they
 * are the header's row; below it the header is one line with a **Menu** holding them.
 */
export function ConsoleShell({ viewer, children }: { viewer: ConsoleViewer | null; children: ReactNode }) {
  const { t } = useLingui();
  const { path } = useLocale();
  const rooms = useConsoleRooms(viewer);
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:start-2 focus:z-50 focus:rounded focus:bg-foreground focus:px-3 focus:py-2 focus:text-background"
      >
        <Trans>Skip to content</Trans>
      </a>
      <header className="border-border border-b bg-surface">
        <div
          className={`mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3 ${viewer ? "max-console:hidden" : ""}`}
        >
          <p className="font-bold text-foreground">
            <Trans>Shop console</Trans>
          </p>
          {viewer ? (
            <nav aria-label={t`Console`} className="flex-1">
              <ul className="flex flex-wrap gap-1">
                {rooms.map((room) => (
                  <li key={room.area}>
                    <NavLink
                      to={path(room.to)}
                      end
                      className="block rounded-lg px-3 py-2 text-soft text-sm hover:text-foreground aria-[current=page]:bg-accent/15 aria-[current=page]:text-foreground"
                    >
                      {room.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </nav>
          ) : (
            <div className="flex-1" />
          )}
          <ConsoleLanguageMenu />
          {viewer ? <SignOutForm viewer={viewer} className="flex items-center gap-3" /> : null}
        </div>
        {viewer ? <ConsolePhoneHeader viewer={viewer} rooms={rooms} /> : null}
      </header>
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8">
        {children}
      </main>
    </div>
  );
}

/** Below the `console` breakpoint: the current room's name, and the rooms, languages and account in the Menu. */
function ConsolePhoneHeader({ viewer, rooms }: { viewer: ConsoleViewer; rooms: ConsoleRoom[] }) {
  const { t } = useLingui();
  const { path } = useLocale();
  const here = pathWithoutLocale(useLocation().pathname);
  const current = currentRoom(rooms, here);
  const languagesId = useId();
  return (
    <ConsoleMenuBar room={current?.label}>
      <nav aria-label={t`Console`} className="mt-3">
        <ul className="flex flex-col gap-1">
          {rooms.map((room) => (
            <li key={room.area}>
              <Link
                to={path(room.to)}
                aria-current={roomCurrent(room, current, here)}
                className="block rounded-lg px-3 py-2.5 text-foreground hover:bg-foreground/5 [&[aria-current]]:bg-accent/15 [&[aria-current]]:font-semibold"
              >
                {room.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-3 border-border border-t pt-3">
        <p id={languagesId} className="px-3 text-soft text-sm">
          <Trans>Languages</Trans>
        </p>
        <LanguageChoices labelledBy={languagesId} className="mt-1" />
      </div>
      <SignOutForm
        viewer={viewer}
        narrow
        className="mt-3 flex flex-wrap items-center justify-between gap-x-3 gap-y-1 border-border border-t ps-3 pt-3"
      />
    </ConsoleMenuBar>
  );
}

/** Who is signed in, with which role, and **Sign out**. */
function SignOutForm({ viewer, className, narrow }: { viewer: ConsoleViewer; className: string; narrow?: boolean }) {
  const { path } = useLocale();
  return (
    <Form method="post" action={path("/admin/sign-out")} className={className}>
      <span className={`text-soft text-sm ${narrow ? "break-all" : ""}`}>
        {viewer.email} · <RoleName role={viewer.role} />
      </span>
      <button type="submit" name="intent" value="sign-out" className="rounded-lg px-3 py-2 text-sm underline">
        <Trans>Sign out</Trans>
      </button>
    </Form>
  );
}

/** The header's language menu: the languages under a <details> showing the page's language. */
function ConsoleLanguageMenu() {
  const { t } = useLingui();
  const { name } = useLocale();
  return (
    <details className="relative">
      <summary className="cursor-pointer rounded-lg px-2 py-2 text-soft text-sm hover:text-foreground">
        <span className="sr-only">{t`Language:`} </span>
        {name}
      </summary>
      <LanguageChoices className="absolute end-0 top-full z-40 mt-1 min-w-44 rounded-lg border border-border-strong bg-surface p-1" />
    </details>
  );
}

/** Each language as a button of one small form: the choice is kept in a cookie and works without JavaScript. */
function LanguageChoices({ className, labelledBy }: { className: string; labelledBy?: string }) {
  const { t } = useLingui();
  const { locale, path } = useLocale();
  const { pathname, search } = useLocation();
  return (
    <Form method="post" action={path("/admin/language")} className={className}>
      <input type="hidden" name="to" value={pathWithoutLocale(pathname) + search} />
      <ul aria-label={labelledBy ? undefined : t`Languages`} aria-labelledby={labelledBy}>
        {LOCALE_CODES.map((code) => (
          <li key={code}>
            <button
              type="submit"
              name="locale"
              value={code}
              lang={LOCALES[code].tag}
              aria-current={code === locale ? "true" : undefined}
              className="block w-full rounded px-3 py-2 text-start text-sm hover:bg-foreground/5 aria-[current=true]:font-semibold"
            >
              {LOCALES[code].name}
            </button>
          </li>
        ))}
      </ul>
    </Form>
  );
}
