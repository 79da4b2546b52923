-- Chat over HTTP: every event of a turn (the user's message, streamed text, the finished turn,
-- an error) in order, so a client that reconnects, a second tab, or another server process on
-- the same database re-attaches and replays what it missed. `id` is the SSE event id.
-- `data` is JSON written after redaction; it never holds a secret.

CREATE TABLE chat_events (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id          TEXT NOT NULL,
    conversation_id  TEXT NOT NULL,
    turn_id          TEXT NOT NULL,
    kind             TEXT NOT NULL,
    data             TEXT NOT NULL,
    at               BIGINT NOT NULL
);
CREATE INDEX chat_events_conversation ON chat_events (user_id, conversation_id, id);
