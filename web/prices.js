// What prices a paper account's figures rest on, said the same way on every page: the
// offline simulated market, or a venue's live prices with fills on paper.
import { t, tOr } from './i18n.js';

/** `Simulated prices (offline)` or `Live Binance prices (paper)` for a market source. */
export function pricesLabel(market) {
  if (!market || market === 'simulated') return t('prices.simulated');
  return t('prices.live', { venue: tOr(`prices.venue.${market}`, market) });
}

/** `Prices: Live Binance prices (paper)`, for a line beside a paper trader's figures. */
export function pricesLine(market) {
  return t('prices.label', { source: pricesLabel(market) });
}
