// This browser's display preferences: theme (system / light / dark) and which colour means up
// (green-up, the Western convention, or red-up, the Chinese one). Kept in localStorage and set
// as attributes on <html>, where the stylesheet's palette reads them.
const KEYS = { theme: 'nofxi.theme', colors: 'nofxi.colors' };
export const THEMES = ['system', 'light', 'dark'];
export const COLORS = ['green-up', 'red-up'];

function read(key, allowed) {
  const v = localStorage.getItem(KEYS[key]);
  return allowed.includes(v) ? v : allowed[0];
}

export function getTheme() {
  return read('theme', THEMES);
}

export function getColors() {
  return read('colors', COLORS);
}

/** Sets <html data-theme data-colors> from what is stored (called once at start). */
export function applyPrefs() {
  const root = document.documentElement;
  const theme = getTheme();
  if (theme === 'system') delete root.dataset.theme;
  else root.dataset.theme = theme;
  root.dataset.colors = getColors();
}

export function setTheme(theme) {
  if (!THEMES.includes(theme)) return;
  localStorage.setItem(KEYS.theme, theme);
  applyPrefs();
}

export function setColors(colors) {
  if (!COLORS.includes(colors)) return;
  localStorage.setItem(KEYS.colors, colors);
  applyPrefs();
}
