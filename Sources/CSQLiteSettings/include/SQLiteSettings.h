#ifndef STEPWISE_SQLITE_SETTINGS_H
#define STEPWISE_SQLITE_SETTINGS_H

/// Turns off SQLite's memory statistics (`SQLITE_CONFIG_MEMSTATUS`) for the process; returns
/// SQLite's result code. With them on, every allocation SQLite makes takes one global mutex
/// to count it, and connections used on several threads at once wait on each other there.
/// Without them, `sqlite3_memory_used`, `sqlite3_memory_highwater` and `sqlite3_status` report
/// nothing and the soft and hard heap limits aren't enforced; Stepwise uses none of these.
///
/// Call it first thing in `main`, before any thread uses SQLite: `sqlite3_config` isn't
/// thread-safe. It takes effect only before SQLite initializes (the process's first
/// connection); later, SQLite refuses it with `SQLITE_MISUSE` and nothing changes.
/// `sqlite3_config` is variadic, which Swift can't call: hence this function.
int stepwise_sqlite_disable_memory_statistics(void);

#endif
