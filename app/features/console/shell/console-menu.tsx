import { Trans } from "@lingui/react/macro";
import * as Dialog from "@radix-ui/react-dialog";
import { type MouseEvent, type ReactNode, useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { XMarkIcon } from "~/components/icons";
import { shareStyleNonce } from "~/components/ui/style-nonce";
import { MENU_TOGGLE_CLASS, MenuToggleLabel, useMenuFromDetails } from "~/features/layout/nav-menu";

const PANEL_CLASS = "border-border border-b bg-surface px-4 pb-4 shadow-lg shadow-shadow/40";

/**
 * The console's header below the width where its navigation fits on one line (the `console` breakpoint): one line
 * of "Shop console", the current room's name and **Menu**, which opens `children` (the rooms, the languages and the
 * account) as a dialog: the focus moves in and back, Escape closes it, and so does following a link or any
 * navigation. Until the page has hydrated (and without JavaScript) the button is a native <details> opening the same.
 */
export function ConsoleMenuBar({ room, children }: { room: string | undefined; children: ReactNode }) {
  const { hydrated, open, setOpen, details } = useMenuFromDetails();
  const { pathname, search } = useLocation();
  const place = `${pathname}${search}`;
  const lastPlace = useRef(place);
  useEffect(() => {
    if (lastPlace.current === place) return;
    lastPlace.current = place;
    setOpen(false);
  }, [place, setOpen]);

  // Also when the link is the page already shown, so no navigation follows.
  const closeOnLink = (event: MouseEvent) => {
    if ((event.target as Element).closest("a")) setOpen(false);
  };

  return (
    <div className="relative flex items-center gap-3 px-4 py-2.5 console:hidden">
      <p className="shrink-0 font-bold text-foreground text-sm">
        <Trans>Shop console</Trans>
      </p>
      <p className="min-w-0 flex-1 truncate text-soft text-sm">{room}</p>
      {hydrated ? (
        <Dialog.Root
          open={open}
          onOpenChange={(next) => {
            if (next) shareStyleNonce();
            setOpen(next);
          }}
        >
          <Dialog.Trigger className={`${MENU_TOGGLE_CLASS} shrink-0`}>
            <MenuToggleLabel />
          </Dialog.Trigger>
          <Dialog.Portal>
            <Dialog.Overlay className="fixed inset-0 z-50 bg-background/80" />
            <Dialog.Content
              aria-describedby={undefined}
              onClick={closeOnLink}
              className={`fixed inset-x-0 top-0 z-50 max-h-dvh overflow-y-auto pt-2.5 focus:outline-none ${PANEL_CLASS}`}
            >
              <div className="flex items-center justify-between gap-3">
                <Dialog.Title className="font-bold text-foreground">
                  <Trans comment="The title of the console's menu on narrow screens">Menu</Trans>
                </Dialog.Title>
                <Dialog.Close className={MENU_TOGGLE_CLASS}>
                  <XMarkIcon className="size-4" />
                  <Trans>Close</Trans>
                </Dialog.Close>
              </div>
              {children}
            </Dialog.Content>
          </Dialog.Portal>
        </Dialog.Root>
      ) : (
        <details ref={details} className="group shrink-0">
          <summary className={`${MENU_TOGGLE_CLASS} group-open:bg-foreground/10`}>
            <MenuToggleLabel />
          </summary>
          <div className={`absolute inset-x-0 top-full z-40 pt-1 ${PANEL_CLASS}`}>{children}</div>
        </details>
      )}
    </div>
  );
}
