import { Trans, useLingui } from "@lingui/react/macro";
import * as Dialog from "@radix-ui/react-dialog";
import { useEffect, useRef, useState } from "react";
import { buttonStyles } from "~/components/ui/button-styles";
import { shareStyleNonce } from "~/components/ui/style-nonce";

export type ShortcutKey = "j" | "k" | "r" | "n" | "e";

/** Whether a key press belongs to what the person is typing (a field, a menu), not to the page. */
function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return target.closest("input, textarea, select, [role='combobox'], [role='listbox'], [role='dialog']") !== null;
}

/**
 * The inbox's keys (`j`/`k` next and previous, `r` reply, `n` note, `e` resolve, `?` the list of them): never while
 * typing in a field or with a modifier held, so they never take a letter from a message or a browser shortcut.
 */
export function useInboxShortcuts(actions: Partial<Record<ShortcutKey, () => void>>) {
  const [helpOpen, setHelpOpen] = useState(false);
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target)) return;
      if (event.key === "?") {
        event.preventDefault();
        setHelpOpen(true);
        return;
      }
      const action = latest.current[event.key as ShortcutKey];
      if (action) {
        event.preventDefault();
        action();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  return { helpOpen, setHelpOpen };
}

/** The **Keyboard shortcuts** button and the dialog `?` opens; the button makes the list reachable by Tab too. */
export function ShortcutsHelp({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useLingui();
  if (open && typeof document !== "undefined") shareStyleNonce();
  const keys: Array<[string, string]> = [
    ["j", t`Next conversation`],
    ["k", t`Previous conversation`],
    ["r", t`Write a reply`],
    ["n", t`Write an internal note`],
    ["e", t`Resolve the conversation`],
    ["?", t`Show these shortcuts`],
  ];
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger className={`${buttonStyles.secondary} px-3 py-2`}>
        <Trans>Keyboard shortcuts</Trans>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-background/80" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[min(28rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-lg border border-border-strong bg-surface p-5 text-foreground">
          <Dialog.Title className="font-semibold text-lg">
            <Trans>Keyboard shortcuts</Trans>
          </Dialog.Title>
          <Dialog.Description className="mt-1 text-soft text-sm">
            <Trans>They work whenever you are not typing in a field. Everything is also reachable with Tab.</Trans>
          </Dialog.Description>
          <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            {keys.map(([key, label]) => (
              <div key={key} className="contents">
                <dt>
                  <kbd className="rounded border border-border-strong bg-background px-2 py-0.5 font-mono">{key}</kbd>
                </dt>
                <dd>{label}</dd>
              </div>
            ))}
          </dl>
          <Dialog.Close className={`${buttonStyles.secondary} mt-5`}>
            <Trans>Close</Trans>
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
