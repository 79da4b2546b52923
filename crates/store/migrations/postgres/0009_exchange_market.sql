-- Where a paper account's prices come from: 'simulated' (the offline market, the default) or
-- a venue whose public market data it follows ('binance', 'okx', 'bybit', 'hyperliquid').
-- Accounts of any other type keep 'simulated': they trade on their own venue's prices.
ALTER TABLE exchanges ADD COLUMN market TEXT NOT NULL DEFAULT 'simulated';
