import type { VNode } from 'preact';
import { useRef, useState } from 'preact/hooks';

interface Tab {
  readonly id: string;
  readonly title: string;
  readonly panel: () => VNode | null;
}

/**
 * What sits under a game (its odds and rules, the history, the spectators' switch) behind tabs,
 * so that the board, the price and « JOUER » keep the screen. ARIA tabs: the arrows, Home and
 * End move between them (one tab stop), the chosen panel alone is drawn.
 */
export function Tabs({ label, tabs, idPrefix }: { label: string; tabs: readonly Tab[]; idPrefix: string }) {
  const [chosen, setChosen] = useState(tabs[0]!.id);
  const list = useRef<HTMLDivElement>(null);
  const choose = (i: number) => {
    const tab = tabs[(i + tabs.length) % tabs.length]!;
    setChosen(tab.id);
    list.current?.querySelector<HTMLElement>(`#${idPrefix}-tab-${tab.id}`)?.focus();
  };
  const onKey = (ev: KeyboardEvent) => {
    const at = tabs.findIndex((t) => t.id === chosen);
    const to = ev.key === 'ArrowRight' ? at + 1 : ev.key === 'ArrowLeft' ? at - 1 : ev.key === 'Home' ? 0 : ev.key === 'End' ? tabs.length - 1 : undefined;
    if (to === undefined) return;
    ev.preventDefault();
    choose(to);
  };
  const current = tabs.find((t) => t.id === chosen) ?? tabs[0]!;
  return (
    <div class="tabs">
      <div class="tab-list" role="tablist" aria-label={label} ref={list} onKeyDown={onKey}>
        {tabs.map((t) => (
          <button type="button" role="tab" key={t.id} id={`${idPrefix}-tab-${t.id}`} aria-selected={t.id === current.id} aria-controls={`${idPrefix}-panel`}
            tabIndex={t.id === current.id ? 0 : -1} onClick={() => setChosen(t.id)}>{t.title}</button>
        ))}
      </div>
      <div class="tab-panel" role="tabpanel" id={`${idPrefix}-panel`} aria-labelledby={`${idPrefix}-tab-${current.id}`}>
        {current.panel()}
      </div>
    </div>
  );
}
