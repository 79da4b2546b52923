-- Login attempts of `nofxi serve`'s multi-user mode, per user name and per client address,
-- kept here so every `serve` process on this database counts the same attempts (a limit
-- held in memory is one budget per process). Keys are SHA-256 digests of `user:NAME` and
-- `ip:ADDRESS`: a name typed at the login form may be a password typed in the wrong field.
-- Rows older than the window are swept by the next attempt.

CREATE TABLE login_failures (
    key_digest  TEXT PRIMARY KEY,
    failures    BIGINT NOT NULL,
    since_ms    BIGINT NOT NULL
);
CREATE INDEX login_failures_since ON login_failures (since_ms);
