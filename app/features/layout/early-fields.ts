import type { EarlyFieldEdit } from "./boot/boot-state";

/**
 * Carries out, once React handles the page, the field edits the boot recorder saw before (`boot/early-clicks.boot.ts`):
 * each field gets the person's value back and reports it through the events React listens to, so its `onChange`
 * runs as if the edit were made now (the total follows a quantity, the catalogue searches). Hydration keeps what was
 * typed in the DOM, but React's state still holds the server's value, and the first re-render would put that back.
 *
 * React reports a change only when a field's value differs from the one its tracker last saw, and the tracker sees
 * every value set through the field's own `value`/`checked` property. So the field is first set, through that
 * property, to the value React rendered (`defaultValue`/`defaultChecked`), then given the person's value behind the
 * tracker's back (the prototype's setter) and sent the event: the same steps a browser's typing takes.
 * Focus is never moved, and a focused text field gets its caret back where it was.
 */
export function replayEarlyFieldEdits(edits: readonly EarlyFieldEdit[], then: () => void = () => {}): void {
  // One edit per microtask, as typing comes one event per task: React renders each change (in its own microtask,
  // queued by the event) before the next, so every handler sees the state the edits before it made. Microtasks also
  // run before the next paint, so the server's values are never seen again.
  const [edit, ...rest] = edits;
  if (!edit) {
    then();
    return;
  }
  queueMicrotask(() => {
    replayEdit(edit);
    replayEarlyFieldEdits(rest, then);
  });
}

function replayEdit(edit: EarlyFieldEdit) {
  const { field } = edit;
  if (!field.isConnected || field.disabled) return;
  if (field instanceof HTMLInputElement && (field.type === "checkbox" || field.type === "radio")) {
    replayChoice(field, edit.checked);
  } else if (field instanceof HTMLSelectElement) {
    replaySelect(field, edit.value);
  } else {
    replayTyping(field, edit);
  }
}

function replayChoice(field: HTMLInputElement, checked: boolean) {
  // Back where the page began (a radio: the one it rendered chosen): nothing to report. A radio is only ever chosen.
  if (checked === field.defaultChecked || (field.type === "radio" && !checked)) {
    if (field.checked !== checked) field.checked = checked;
    return;
  }
  // The opposite through the tracked property, then a click: the browser toggles it and React sees the change.
  field.checked = !checked;
  field.click();
}

function replaySelect(field: HTMLSelectElement, value: string) {
  if ([...field.options].every((option) => option.value !== value)) return;
  // React tracks no value for a select: the change event alone reports it.
  field.value = value;
  field.dispatchEvent(new Event("change", { bubbles: true }));
}

function replayTyping(field: HTMLInputElement | HTMLTextAreaElement, edit: EarlyFieldEdit) {
  if (edit.value === field.defaultValue && field.value === edit.value) return;
  const setValue = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), "value")?.set;
  if (!setValue) return;
  // The caret as it is now if the value is still the person's (they may have moved it since), else as recorded.
  const caret = field.value === edit.value ? selectionOf(field) : edit.selection;
  field.value = field.defaultValue === edit.value ? `${edit.value} ` : field.defaultValue;
  setValue.call(field, edit.value);
  field.dispatchEvent(new Event("input", { bubbles: true }));
  // React has rendered the new state by now (it does before it returns from a change event it handled).
  if (caret && field.ownerDocument.activeElement === field && field.value === edit.value)
    field.setSelectionRange(...caret);
}

function selectionOf(field: HTMLInputElement | HTMLTextAreaElement): EarlyFieldEdit["selection"] {
  try {
    const { selectionStart, selectionEnd } = field;
    return selectionStart === null || selectionEnd === null ? null : [selectionStart, selectionEnd];
  } catch {
    // A field whose type has no caret (number): the browser keeps its own.
    return null;
  }
}
