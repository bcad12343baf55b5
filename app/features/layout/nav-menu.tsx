import { Trans } from "@lingui/react/macro";
import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from "react";
import { useLocation } from "react-router";
import { MenuToggleIcon } from "~/components/icons";

/** How the list of navigation items is laid out: a row (640 px up), a column (the phone menu), or each by width. */
export type NavListLayout = "row" | "column" | "responsive";

/** The look of a **Menu** toggle, the shop's and the console's: a `<summary>` before hydration, a button after. */
export const MENU_TOGGLE_CLASS =
  "group flex cursor-pointer list-none items-center gap-1.5 rounded-md px-2.5 py-2 text-sm font-medium whitespace-nowrap text-foreground ring-1 ring-foreground/15 hover:bg-foreground/5 hover:text-foreground [&::-webkit-details-marker]:hidden";
const PHONE_PANEL_CLASS =
  "absolute inset-x-0 top-full border-b border-foreground/10 bg-background px-4 pt-2 pb-4 shadow-lg shadow-shadow/40";
const PHONE_PANEL_OPEN_CLASS =
  "max-sm:absolute max-sm:inset-x-0 max-sm:top-full max-sm:border-b max-sm:border-foreground/10 max-sm:bg-background max-sm:px-4 max-sm:pt-2 max-sm:pb-4 max-sm:shadow-lg max-sm:shadow-shadow/40";

/** What a **Menu** toggle shows: three bars (a cross while its `group` is open or expanded) and its name. */
export function MenuToggleLabel() {
  return (
    <>
      <MenuToggleIcon />
      <Trans comment="The button that opens the site navigation on narrow screens">Menu</Trans>
    </>
  );
}

/**
 * A menu drawn as a native <details> until the page hydrates (so it opens without JavaScript), then by React: whether
 * it has hydrated, its open state (open already if the <details> was opened before), and the <details>' ref.
 */
export function useMenuFromDetails() {
  const [hydrated, setHydrated] = useState(false);
  const [open, setOpen] = useState(false);
  const details = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    // Opened before the page hydrated: keep it open.
    setOpen(details.current?.open ?? false);
    setHydrated(true);
  }, []);
  return { hydrated, open, setOpen, details };
}

/**
 * The main navigation's items: a row from 640 px up, a `Menu` disclosure below. The server sends a native <details>
 * beside the row, so the menu works without JavaScript; once hydrated one list serves both widths, toggled by a
 * button with `aria-expanded`, and the menu also closes on Escape, on navigation, on a choice, and when focus or a
 * tap goes elsewhere.
 */
export function NavMenu({ items }: { items: (layout: NavListLayout) => ReactNode }) {
  const { hydrated, open, setOpen, details } = useMenuFromDetails();
  const container = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const location = useLocation();

  // Focus on a link that closing hides would fall back to the page's start; `Menu` keeps the visitor's place.
  const close = useCallback(() => {
    const focusWasInside = container.current?.contains(document.activeElement) ?? false;
    setOpen(false);
    if (focusWasInside) toggle.current?.focus();
  }, [setOpen]);

  const place = `${location.pathname}${location.search}`;
  const lastPlace = useRef(place);
  useEffect(() => {
    if (lastPlace.current === place) return;
    lastPlace.current = place;
    if (open) close();
  }, [place, open, close]);

  useEffect(() => {
    const element = container.current;
    if (!open || !element) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.preventDefault();
      close();
    };
    // Also when the chosen item is the page already shown, or opens a new tab, so no navigation follows.
    const onClick = (event: MouseEvent) => {
      if ((event.target as Element).closest("a")) close();
    };
    const onFocusOut = (event: FocusEvent) => {
      if (event.relatedTarget instanceof Node && !element.contains(event.relatedTarget)) setOpen(false);
    };
    const onOutsidePointer = (event: PointerEvent) => {
      if (!element.contains(event.target as Node)) setOpen(false);
    };
    element.addEventListener("keydown", onKeyDown);
    element.addEventListener("click", onClick);
    element.addEventListener("focusout", onFocusOut);
    document.addEventListener("pointerdown", onOutsidePointer);
    return () => {
      element.removeEventListener("keydown", onKeyDown);
      element.removeEventListener("click", onClick);
      element.removeEventListener("focusout", onFocusOut);
      document.removeEventListener("pointerdown", onOutsidePointer);
    };
  }, [open, close, setOpen]);

  if (!hydrated) {
    // CSS shows one of the two lists, so the first paint is right at any width, with or without JavaScript.
    return (
      <>
        <details ref={details} className="group sm:hidden">
          <summary className={`${MENU_TOGGLE_CLASS} group-open:bg-foreground/10 group-open:text-foreground`}>
            <MenuToggleLabel />
          </summary>
          <div className={PHONE_PANEL_CLASS}>{items("column")}</div>
        </details>
        {items("row")}
      </>
    );
  }

  return (
    <div ref={container}>
      <button
        ref={toggle}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
        className={`${MENU_TOGGLE_CLASS} sm:hidden ${open ? "bg-foreground/10 text-foreground" : ""}`}
      >
        <MenuToggleLabel />
      </button>
      <div id={panelId} className={open ? PHONE_PANEL_OPEN_CLASS : "max-sm:hidden"}>
        {items("responsive")}
      </div>
    </div>
  );
}
