/**
 * openModal shows a <dialog> as a modal, focuses first, and resolves with the
 * dialog's returnValue once this opening has closed ("" when it was dismissed
 * with Escape or closed without a value).
 *
 * A dialog's close event is queued as a task, not fired as it closes. A user
 * who presses Escape and at once opens the same dialog again (the opener still
 * has the focus) can therefore see the first close event arrive while the
 * second question is already on screen. A listener that took that event for
 * the current question answered it unasked: the confirm that followed did
 * nothing. openModal ties each close event to its own opening: an opening
 * still pending when the dialog is shown again is settled then, with its own
 * value, and a close event that finds the dialog open again is stale.
 */
export function openModal(el: HTMLDialogElement, first: HTMLElement): Promise<string> {
  pending.get(el)?.();
  el.returnValue = "";
  el.showModal();
  first.focus();
  return new Promise((resolve) => {
    const settle = (): void => {
      pending.delete(el);
      el.removeEventListener("close", onClose);
      resolve(el.returnValue);
    };
    const onClose = (): void => {
      if (!el.open) settle();
    };
    pending.set(el, settle);
    el.addEventListener("close", onClose);
  });
}

const pending = new WeakMap<HTMLDialogElement, () => void>();

/**
 * restoreFocus puts the focus back on the element that opened a dialog,
 * unless the dialog is open again (a newer question has the focus) or the
 * opener has left the page.
 */
export function restoreFocus(el: HTMLDialogElement, opener: HTMLElement | null): void {
  if (!el.open && opener?.isConnected) opener.focus();
}
