import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * A modal dialog: the browser's own `<dialog>` opened with `showModal()`, so the rest of the
 * page is inert (the focus stays inside, screen readers read only it) and Escape asks to close
 * it. It is shown while mounted; `onClose` is what Escape does (each dialog of the page may be
 * closed that way: closing one never buys or changes anything).
 */
export function Dialog({ labelledBy, onClose, children, class: extra = '' }: { labelledBy: string; onClose: () => void; children: ComponentChildren; class?: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current!;
    dialog.showModal();
    // The heading, not the first button, takes the focus: the dialog is read from its start.
    dialog.querySelector<HTMLElement>('h2')?.focus({ preventScroll: true });
    return () => dialog.close();
  }, []);
  return (
    <dialog ref={ref} class={`dialog ${extra}`} aria-labelledby={labelledBy} onCancel={(e) => { e.preventDefault(); onClose(); }}>
      {children}
    </dialog>
  );
}
