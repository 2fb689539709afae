//! tessera-replay: the event store (log format, recorder, reader, history, verify, diff).
//!
//! Not built yet: the log format and history arrive with their own issue.
