/**
 * The games' artwork, drawn for this project as small SVG paths (24 × 24), so that it costs a few
 * hundred bytes of the JavaScript budget and scales to any screen. Every symbol has its own
 * shape: a gem's colour is never the only thing that tells it apart (WCAG 1.4.1).
 */
const SHAPES: Record<string, string> = {
  // RAIN DIAMONDS' gems: one shape per colour.
  'gem-blue': 'M12 2l9 10-9 10-9-10z',
  'gem-green': 'M8 3h8l5 5v8l-5 5H8l-5-5V8z',
  'gem-red': 'M12 21L3.5 12.5a5 5 0 0 1 8.5-6 5 5 0 0 1 8.5 6z',
  'gem-violet': 'M12 3l10 18H2z',
  'gem-yellow': 'M12 2l2.9 6.5 7.1.6-5.4 4.7 1.6 7L12 17l-6.2 3.8 1.6-7L2 9.1l7.1-.6z',
  'gem-orange': 'M12 3a9 9 0 1 0 .01 0z',
  'gem-white': 'M12 2l9 5v10l-9 5-9-5V7z',
  // Le Noël de la chance, the lamp's symbols, Mine d'or.
  star: 'M12 2l2.9 6.5 7.1.6-5.4 4.7 1.6 7L12 17l-6.2 3.8 1.6-7L2 9.1l7.1-.6z',
  bell: 'M12 3a6 6 0 0 0-6 6v5l-2 3h16l-2-3V9a6 6 0 0 0-6-6zm-2.5 15a2.5 2.5 0 0 0 5 0z',
  gift: 'M3 9h18v4H3zm1 5h16v7H4zm7-5h2v12h-2zm1 0c-2-4-6-5-6-2s4 2 6 2c2 0 6 1 6-2s-4-2-6 2z',
  holly: 'M12 13C9 8 4 9 2 12c2 .5 2.5 2.5 1.5 4.5 3.5.5 6.5-.5 8.5-3.5zm0 0c3-5 8-4 10-1-2 .5-2.5 2.5-1.5 4.5-3.5.5-6.5-.5-8.5-3.5zM12 6a2.5 2.5 0 1 0 .01 0z',
  candle: 'M9 10h6v12H9zm3-8c2.5 2.5 2.5 5 0 6.5C9.5 7 9.5 4.5 12 2z',
  snowflake: 'M11 2h2v20h-2zM2 11h20v2H2zm2.9-6.1l1.4-1.4 13.8 13.8-1.4 1.4zm13.8-1.4l1.4 1.4L5.3 19.7l-1.4-1.4z',
  bauble: 'M10 2h4v3h-4zm2 4a8 8 0 1 0 .01 0z',
  sleigh: 'M2 7h3l2.5 7h9.5l3-4h2.5l-3.5 6H6zm2 12h16v2H4z',
  moon: 'M15 2a10 10 0 1 0 7 16A8.5 8.5 0 0 1 15 2z',
  sun: 'M12 6.5a5.5 5.5 0 1 0 .01 0zM11 0h2v5h-2zm0 19h2v5h-2zM0 11h5v2H0zm19 0h5v2h-5z',
  key: 'M7 7a5 5 0 1 0 4.6 7H15v3h3v-3h2v-3h-8.4A5 5 0 0 0 7 7zm0 3a2 2 0 1 1 0 4 2 2 0 0 1 0-4z',
  pepite: 'M3 16l3-8 6-4 6 4 3 8-5 5H8z',
  diamant: 'M6 4h12l5 5.5L12 22 1 9.5z',
  billet: 'M1 6h22v12H1zm11 2.5a3.5 3.5 0 1 0 .01 0z',
  bougie: 'M9 10h6v12H9zm3-8c2.5 2.5 2.5 5 0 6.5C9.5 7 9.5 4.5 12 2z',
  cactus: 'M10 22V5a2 2 0 0 1 4 0v17zm4-10h3V7.5a1.5 1.5 0 0 1 3 0V14h-6zm-4 2H7V9.5a1.5 1.5 0 0 0-3 0V16h6z',
  pioche: 'M2 9c5-6 15-6 20 0-5-3-15-3-20 0zm9-3h2v16h-2z',
  extra: 'M12 1l2.5 6.5L21 5l-3 6 5 3-6.5 1L18 22l-6-4-6 4 1.5-7L1 14l5-3-3-6 6.5 2.5z',
  // The lamp's colours: a drop of paint each (told by name and by the swatch).
  swatch: 'M12 2C8 8 5 11.5 5 15a7 7 0 0 0 14 0c0-3.5-3-7-7-13z',
};

/** One symbol, decorative: its name is always given in text or by the control it sits in. */
export function Sym({ id, class: cls = '' }: { id: string; class?: string }) {
  const d = SHAPES[id];
  if (!d) return null;
  return (
    <svg class={`sym ${cls}`} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={d} fill-rule="evenodd" />
    </svg>
  );
}

/** The magic lamp, lit by `glow` (0–1); it opens (a plume rises) once the lamp has spoken. */
export function LampArt({ glow, open }: { glow: number; open: boolean }) {
  return (
    <svg class="lamp-art" viewBox="0 0 160 110" aria-hidden="true" focusable="false" style={{ '--glow': String(glow) }}>
      <defs>
        <radialGradient id="lamp-halo">
          <stop offset="0" stop-color="#ffe27a" stop-opacity="0.95" />
          <stop offset="1" stop-color="#ffcc33" stop-opacity="0" />
        </radialGradient>
        <linearGradient id="lamp-gold" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stop-color="#ffe07a" />
          <stop offset="1" stop-color="#b57d12" />
        </linearGradient>
      </defs>
      <ellipse class="lamp-halo" cx="80" cy="62" rx="78" ry="48" fill="url(#lamp-halo)" />
      {open && <path class="lamp-plume" d="M118 38c6-10-4-16 2-26 4 8 12 10 6 22-3 6 4 8 8 4-2 10-12 10-16 0z" />}
      <path class="lamp-body" fill="url(#lamp-gold)" d="M14 52q22-4 34 10h56q16 0 34-22-6 28-30 36H50q-28-2-36-24zM66 50q14-18 28 0z" />
      <ellipse cx="80" cy="52" rx="20" ry="5" fill="#8a5a0a" />
      <rect x="60" y="78" width="40" height="10" rx="4" fill="url(#lamp-gold)" />
      <circle cx="80" cy="38" r="4" fill="#ffe07a" />
    </svg>
  );
}

/** A lobby tile's picture: the game's own symbols. */
export const TILE_ART: Record<string, readonly string[]> = {
  'rain-diamonds': ['gem-blue', 'gem-red', 'gem-green'],
  '500000-carats': ['diamant', 'gem-yellow', 'diamant'],
  'noel-de-la-chance': ['star', 'bell', 'gift'],
  'mine-d-or': ['pepite', 'pioche', 'billet'],
  'mysteres-de-la-lampe': ['moon', 'sun', 'key'],
};
