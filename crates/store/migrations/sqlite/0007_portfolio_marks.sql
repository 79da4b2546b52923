-- Prices and exchange rates by date for valuing portfolios (nofxi-portfolio's marks). Keep in
-- step with ../postgres/0007_portfolio_marks.sql: the store's queries are shared.
-- Marks belong to the user, not to one portfolio: 600519's close is the same in all of them.
-- `kind` is `price` (subject = the instrument key, SH:600519) or `fx` (subject = FROM/TO);
-- `record` is the mark as JSON with decimals as strings (exact). One mark per subject and
-- date: a later one replaces it.

CREATE TABLE portfolio_marks (
    user_id     TEXT NOT NULL,
    kind        TEXT NOT NULL,
    subject     TEXT NOT NULL,
    mark_date   TEXT NOT NULL,
    record      TEXT NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (user_id, kind, subject, mark_date)
);
