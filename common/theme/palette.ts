/**
 * The app's colours, each `[light, dark]`, and its fonts: spelled once for the renderer (Vite serves them
 * as `virtual:palette.css`, vite.config.ts) and for the pages Strata serves outside it — the team
 * server's sign-in page and the loopback page that ends a sign-in — so they look like the app in both
 * themes.
 */
export const palette = {
  bg: ['#ffffff', '#16181d'],
  'bg-soft': ['#f5f6f8', '#1d2027'],
  'bg-sunken': ['#eceef2', '#252932'],
  fg: ['#1b1e24', '#e6e8ec'],
  'fg-muted': ['#585f6b', '#a2a9b6'],
  border: ['#d5d9e0', '#343a46'],
  accent: ['#3552c9', '#8fa6ff'],
  'accent-fg': ['#ffffff', '#10131a'],
  danger: ['#b3261e', '#ff8a80'],
  ok: ['#1d6b3a', '#7ddc9c'],
  warn: ['#8a5a00', '#f0c060'],
  'type-user': ['#0b62c4', '#79c0ff'],
  'type-feedback': ['#8b3fc7', '#d2a8ff'],
} as const;

const fonts = {
  radius: '8px',
  font: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
  mono: "ui-monospace, 'SF Mono', Menlo, Consolas, monospace",
};

/**
 * The palette as CSS custom properties on `:root`. Each colour is `light-dark(light, dark)`: the system's
 * choice, unless the page sets `data-theme` on its root (the app does from Settings).
 */
export function paletteCss(): string {
  const colours = Object.entries(palette).map(([name, [light, dark]]) => `  --${name}: light-dark(${light}, ${dark});`);
  const rest = Object.entries(fonts).map(([name, value]) => `  --${name}: ${value};`);
  return [
    ':root {',
    ...colours,
    ...rest,
    '  color-scheme: light dark;',
    '}',
    ":root[data-theme='light'] { color-scheme: light; }",
    ":root[data-theme='dark'] { color-scheme: dark; }",
    '',
  ].join('\n');
}
