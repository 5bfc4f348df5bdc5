import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Strings } from './i18n';

/**
 * The header's links (sound, language, sign-out): in a row on a laptop; on a phone behind one
 * « Menu » button, so that the header keeps one line and the game its screen. The button is
 * hidden by CSS where the row fits. Escape or a click elsewhere closes it.
 */
export function AccountMenu({ s, children }: { s: Strings; children: ComponentChildren }) {
  const [open, setOpen] = useState(false);
  const nav = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!open) return;
    const outside = (ev: Event) => {
      if (!nav.current?.contains(ev.target as Node)) setOpen(false);
    };
    const escape = (ev: KeyboardEvent) => {
      if (ev.key !== 'Escape') return;
      setOpen(false);
      nav.current?.querySelector<HTMLElement>('.menu-toggle')?.focus();
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);
  return (
    <nav class={`top-links${open ? ' open' : ''}`} aria-label={s.menu} ref={nav}>
      <button type="button" class="menu-toggle" aria-expanded={open} aria-controls="account-links" onClick={() => setOpen(!open)}>
        <span aria-hidden="true">☰</span><span class="sr-only">{s.menu}</span>
      </button>
      <div class="menu-links" id="account-links">{children}</div>
    </nav>
  );
}
