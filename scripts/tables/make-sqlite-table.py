#!/usr/bin/env python3
"""Writes Rules/tables/sqlite.yaml from the sqlite3.h of this machine: every primary and extended result
code with its value, and for each the category, severity, meaning and advice of cdlog (primary codes
here; an extended code takes its primary's unless listed in EXTENDED), and the messages SQLite prints for
it (MESSAGES: sqlite3_errstr texts, and errmsg texts that name one code), which an app or a wrapper
library often prints without the number.

    scripts/tables/make-sqlite-table.py [/usr/include/sqlite3.h] > Rules/tables/sqlite.yaml
    scripts/tables/make-sqlite-table.py --check-source DIR   # every sentence is SQLite's own

The sentences were read from SQLite 3.40.1's source (Debian's source package of the system library:
`apt-get source sqlite3`, then its src/ folder): sqlite3_errstr's table in main.c and the messages the
parser and resolver set (sqlite3ErrorMsg in parse.y, resolve.c, build.c, alter.c…), keeping those that name
SQLite's own objects. `--check-source DIR` prints any sentence that no file of DIR (src/ of that package)
contains (NOT_LITERAL lists those of older versions or built by printf), and exits 1 if there is one.
"""
import os
import re
import sys

if len(sys.argv) > 2 and sys.argv[1] == "--check-source":
    CHECK_SOURCE, HEADER = sys.argv[2], "/usr/include/sqlite3.h"
else:
    CHECK_SOURCE, HEADER = None, (sys.argv[1] if len(sys.argv) > 1 else "/usr/include/sqlite3.h")

# primary name: (category, severity, meaning, advice)
PRIMARY = {
    "SQLITE_OK": ("store", "info", "Success.", "Nothing to do."),
    "SQLITE_ERROR": ("store", "error", "A generic SQL error or missing database (a table or column the statement names does not exist).", "The store's schema does not match the model (a skipped migration, a replaced file) or a raw SQL statement is wrong."),
    "SQLITE_INTERNAL": ("store", "error", "An internal logic error in SQLite.", "Report it with the SQLite version; keep a copy of the store."),
    "SQLITE_PERM": ("store", "error", "Access permission denied.", "Check the file's permissions and data protection class (completeUntilFirstUserAuthentication for background access)."),
    "SQLITE_ABORT": ("store", "warning", "A callback requested an abort, or a statement was rolled back.", "Usually a rolled-back transaction; look at what ran at the same time."),
    "SQLITE_BUSY": ("store", "error", "The database file is locked by another connection or process.", "Another writer (an app extension, a second coordinator, a backup) holds the lock: keep transactions short, use one coordinator per process, and coordinate extensions through the app group."),
    "SQLITE_LOCKED": ("store", "error", "A table in the database is locked by another statement of the same connection.", "Finish or reset the other statement (a fetch still iterating) before writing."),
    "SQLITE_NOMEM": ("store", "error", "SQLite could not allocate memory.", "The process is out of memory: fetch in batches (fetchBatchSize) and release faults."),
    "SQLITE_READONLY": ("store", "error", "An attempt to write a read-only database.", "The store was opened read-only (NSReadOnlyPersistentStoreOption, a bundled file, a store without NSPersistentHistoryTrackingKey forced read-only) or its file cannot be written: open it read-write from a writable location."),
    "SQLITE_INTERRUPT": ("store", "warning", "An operation was interrupted (sqlite3_interrupt).", "A fetch or save was cancelled; harmless unless it repeats."),
    "SQLITE_IOERR": ("store", "error", "A disk I/O error.", "The device failed a read or write (full disk, a file removed or replaced while open, a failing volume): check free space and that no code deletes or moves the store's -wal/-shm while it is open."),
    "SQLITE_CORRUPT": ("store", "error", "The database disk image is malformed.", "The store is damaged: run walcheck on a copy of the store with its -wal and -shm, restore a backup or rebuild from CloudKit; never copy a store without its -wal."),
    "SQLITE_NOTFOUND": ("store", "error", "Unknown opcode or a file control was not found.", "Internal to SQLite; report with the SQLite version."),
    "SQLITE_FULL": ("store", "error", "The database or disk is full.", "Free space on the device; a migration or a VACUUM needs room for a full copy of the store."),
    "SQLITE_CANTOPEN": ("store", "error", "Unable to open the database file.", "The folder does not exist, the path is wrong, the file is protected while the device is locked, or too many files are open: create the folder first and check the protection class."),
    "SQLITE_PROTOCOL": ("store", "error", "A database lock protocol error (the WAL index could not be locked).", "Often two processes using the store with different file-locking, or a -shm on a network or shared volume; use one coordinator per process and keep the store on local storage."),
    "SQLITE_EMPTY": ("store", "info", "Internal use only.", "Nothing to do."),
    "SQLITE_SCHEMA": ("store", "warning", "The database schema changed while a statement was prepared.", "SQLite re-prepares the statement; repeated errors mean another process changes the schema."),
    "SQLITE_TOOBIG": ("store", "error", "A string or BLOB exceeds SQLite's size limit.", "Store large data as external binary data or files beside the store."),
    "SQLITE_CONSTRAINT": ("store", "error", "A constraint was violated (unique, not null, foreign key, check).", "A uniqueness constraint or a raw insert conflicts with existing rows: set a merge policy or fetch-or-create by the unique key."),
    "SQLITE_MISMATCH": ("store", "error", "A data type mismatch.", "A value of the wrong type was written into an INTEGER PRIMARY KEY or a raw statement."),
    "SQLITE_MISUSE": ("store", "error", "The SQLite library was used incorrectly (API misuse).", "A connection used from two threads at once or after it was closed: use Core Data contexts on their own queues only."),
    "SQLITE_NOLFS": ("store", "error", "The host lacks large-file support.", "The file system cannot hold a file this large."),
    "SQLITE_AUTH": ("store", "error", "An authorization callback denied the operation; on macOS, the system's privacy protection also denies a process without Full Disk Access the databases of other apps (Messages, Safari, Photos, Screen Time).", "Check any SQLite authorizer the app installs; for another app's database on macOS, grant the tool (or the terminal running it) Full Disk Access in System Settings > Privacy & Security."),
    "SQLITE_FORMAT": ("store", "error", "Not used by current SQLite.", "Nothing to do."),
    "SQLITE_RANGE": ("store", "error", "A bind parameter index is out of range.", "A raw SQL statement binds the wrong number of parameters."),
    "SQLITE_NOTADB": ("store", "error", "The file opened is not a database file (or is encrypted).", "Something other than a store sits at the store URL (a partial copy, an encrypted or zeroed file): check it with walcheck, restore or recreate it."),
    "SQLITE_NOTICE": ("store", "info", "A notice from sqlite3_log.", "Informational."),
    "SQLITE_WARNING": ("store", "warning", "A warning from sqlite3_log; its messages name an open database file that was deleted, renamed or hard-linked under the connection, so later writes go to a file nobody will open again.", "For a file deleted or renamed while open, find what replaced it under the connection (a reset that deletes files instead of calling destroyPersistentStore, a backup or sync tool, an extension); other warnings are informational unless they repeat."),
    "SQLITE_ROW": ("store", "debug", "sqlite3_step has another row ready.", "Not an error."),
    "SQLITE_DONE": ("store", "debug", "sqlite3_step has finished executing.", "Not an error."),
}

# extended name: (severity or None, meaning[, advice]); without advice, the primary code's
EXTENDED = {
    "SQLITE_AUTH_USER": (None, "The user-authentication extension denied the operation: the connection is not logged in as a user allowed to do it."),
    "SQLITE_IOERR_SHORT_READ": (None, "A read returned fewer bytes than asked for (the file is shorter than SQLite expects: truncated or replaced while open)."),
    "SQLITE_IOERR_WRITE": (None, "A write to the database or WAL failed."),
    "SQLITE_IOERR_FSYNC": (None, "Flushing the file to disk failed."),
    "SQLITE_IOERR_TRUNCATE": (None, "Truncating a file failed."),
    "SQLITE_IOERR_FSTAT": (None, "Reading a file's size and attributes failed."),
    "SQLITE_IOERR_SHMOPEN": (None, "Opening the -shm (WAL index) failed."),
    "SQLITE_IOERR_SHMSIZE": (None, "Growing the -shm (WAL index) failed (often a full disk)."),
    "SQLITE_IOERR_SHMMAP": (None, "Mapping the -shm (WAL index) into memory failed."),
    "SQLITE_IOERR_LOCK": (None, "Taking a file lock failed."),
    "SQLITE_IOERR_DELETE": (None, "Deleting a file (a journal) failed."),
    "SQLITE_IOERR_VNODE": (None, "The file was deleted, renamed or replaced while open (Apple's vnode check): something removed the store or its -wal/-shm under a live connection."),
    "SQLITE_IOERR_CORRUPTFS": (None, "The file system reported corruption."),
    "SQLITE_IOERR_DATA": (None, "A page read back does not match its checksum (the checksum VFS)."),
    "SQLITE_CORRUPT_VTAB": (None, "A virtual table's content is corrupt."),
    "SQLITE_CORRUPT_SEQUENCE": (None, "The sqlite_sequence table is corrupt."),
    "SQLITE_CORRUPT_INDEX": (None, "An index is corrupt (REINDEX may repair it)."),
    "SQLITE_READONLY_RECOVERY": (None, "The WAL must be recovered but the connection is read-only."),
    "SQLITE_READONLY_CANTLOCK": (None, "A read-only connection could not lock the -shm."),
    "SQLITE_READONLY_ROLLBACK": (None, "A hot journal needs rolling back but the database is read-only."),
    "SQLITE_READONLY_DBMOVED": (None, "The database file was moved or unlinked while open, so it cannot be written."),
    "SQLITE_READONLY_CANTINIT": (None, "The -shm could not be initialised by a read-only connection."),
    "SQLITE_READONLY_DIRECTORY": (None, "The folder holding the database is read-only, so the -wal or journal cannot be created."),
    "SQLITE_CANTOPEN_NOTEMPDIR": (None, "No temporary folder is available."),
    "SQLITE_CANTOPEN_ISDIR": (None, "The store path is a folder."),
    "SQLITE_CANTOPEN_FULLPATH": (None, "The full path of the store could not be resolved."),
    "SQLITE_CANTOPEN_CONVPATH": (None, "The path could not be converted."),
    "SQLITE_CANTOPEN_SYMLINK": (None, "The path is a symlink and symlinks are refused."),
    "SQLITE_BUSY_RECOVERY": (None, "Another connection is recovering the WAL."),
    "SQLITE_BUSY_SNAPSHOT": (None, "A read transaction's snapshot is stale: another connection wrote since."),
    "SQLITE_BUSY_TIMEOUT": (None, "A blocking lock timed out."),
    "SQLITE_LOCKED_SHAREDCACHE": (None, "A shared-cache lock conflict."),
    "SQLITE_CONSTRAINT_UNIQUE": (None, "A UNIQUE constraint failed."),
    "SQLITE_CONSTRAINT_NOTNULL": (None, "A NOT NULL constraint failed."),
    "SQLITE_CONSTRAINT_FOREIGNKEY": (None, "A foreign-key constraint failed."),
    "SQLITE_CONSTRAINT_PRIMARYKEY": (None, "A PRIMARY KEY constraint failed."),
    "SQLITE_NOTICE_RECOVER_WAL": ("info", "SQLite recovered frames from a WAL left by an earlier connection (normal after the app was killed)."),
    "SQLITE_NOTICE_RECOVER_ROLLBACK": ("info", "SQLite rolled back a hot journal left by an earlier connection."),
    "SQLITE_WARNING_AUTOINDEX": ("info", "SQLite built an automatic index for a query: a missing index in the model may slow it.",
                                 "Add a fetch index (or the attribute's Indexed setting) in the model for the column the query filters or sorts on."),
    "SQLITE_OK_LOAD_PERMANENTLY": ("debug", "An extension loaded permanently (not an error)."),
    "SQLITE_OK_SYMLINK": ("debug", "Internal: the path was a symlink (not an error)."),
}

# name: sentences SQLite prints for the code (sqlite3_errstr in sqlite3.c; older releases' wording too;
# sqlite3_errmsg texts that only one code produces; and the error log's `<kind> at line N of [source id]`
# lines, which sqlite3ReportError writes for misuse, cannot-open and corruption).
# Too common outside SQLite to count alone: "out of memory", "interrupted", "not an error",
# "authorization denied".
# Codes that report success: printed inside an entry that says something failed, they decide nothing
# (`success: true`; Rules/README.md, "Code tables").
SUCCESS = {"SQLITE_OK", "SQLITE_ROW", "SQLITE_DONE", "SQLITE_OK_LOAD_PERMANENTLY", "SQLITE_OK_SYMLINK"}

MESSAGES = {
    "SQLITE_ERROR": ["SQL logic error", "SQL logic error or missing database", "no such table", "no such column",
                     "cannot commit - no transaction is active", "cannot rollback - no transaction is active",
                     "cannot start a transaction within a transaction", "sqlite_master may not be modified",
                     "too many SQL variables", "Expression tree is too large", "duplicate column name",
                     "has no column named", "unknown database", "unrecognized token",
                     # The parser's and resolver's own sentences (sqlite3ErrorMsg in SQLite 3.40's parse.y,
                     # resolve.c, build.c, alter.c, attach.c, vdbe.c, fkey.c, expr.c, insert.c, vacuum.c),
                     # the distinctive ones: each names SQLite's own objects, never everyday words.
                     "incomplete input", "no such function", "no such index", "no such savepoint",
                     "no such collation sequence", "no such trigger", "no such module", "no such table column",
                     "misuse of aggregate", "row value misused", "ambiguous column name",
                     "wrong number of arguments to function", "foreign key mismatch", "values were supplied",
                     "there is already another table or index with this name",
                     "cannot open savepoint - SQL statements in progress", "cannot VACUUM from within a transaction",
                     "Cannot add a NOT NULL column with default value NULL", "Cannot add a UNIQUE column",
                     "Cannot add a PRIMARY KEY column", "too many attached databases", "database is already attached",
                     # More of the parser's and the schema's sentences (build.c, select.c, resolve.c, window.c,
                     # pragma.c, trigger.c), in sqlite3ErrorMsg's fixed wording.
                     "AUTOINCREMENT is only allowed on an INTEGER PRIMARY KEY", "has more than one primary key",
                     "PRIMARY KEY missing on table", "sub-select returns", "too many columns in result set",
                     "too many columns on", "too many terms in compound SELECT", "ORDER BY term out of range",
                     "GROUP BY term out of range", "ORDER BY term does not match any column in the result set",
                     "a GROUP BY clause is required before HAVING",
                     "aggregate functions are not allowed in the GROUP BY clause", "misuse of window function",
                     "no tables specified", "default value of column",
                     "Cannot add a column with non-constant default",
                     "Cannot add a REFERENCES column with non-NULL default value", "Cannot add a column to a view",
                     "object name reserved for internal use", "parser stack overflow",
                     "too many levels of trigger recursion", "cannot change into wal mode from within a transaction",
                     "cannot change out of wal mode from within a transaction",
                     "Safety level may not be changed inside a transaction",
                     "temporary storage cannot be changed from within a transaction"],
    "SQLITE_INTERNAL": ["internal logic error in SQLite"],
    "SQLITE_PERM": ["access permission denied"],
    "SQLITE_BUSY": ["database is locked", "unable to close due to unfinalized statements or unfinished backups"],
    "SQLITE_LOCKED": ["database table is locked"],
    "SQLITE_READONLY": ["attempt to write a readonly database"],
    "SQLITE_IOERR": ["disk I/O error"],
    "SQLITE_CORRUPT": ["database disk image is malformed", "database corruption at line", "database corruption page",
                       "malformed database schema"],
    "SQLITE_FULL": ["database or disk is full"],
    "SQLITE_CANTOPEN": ["unable to open database file", "cannot open file at line"],
    "SQLITE_PROTOCOL": ["locking protocol"],
    "SQLITE_SCHEMA": ["database schema has changed"],
    "SQLITE_TOOBIG": ["string or blob too big"],
    "SQLITE_CONSTRAINT": ["constraint failed"],
    "SQLITE_MISMATCH": ["datatype mismatch"],
    "SQLITE_AUTH": ["authorization denied"],
    "SQLITE_MISUSE": ["bad parameter or other API misuse", "library routine called out of sequence", "misuse at line",
                      "API call with NULL database connection pointer", "API call with invalid database connection pointer",
                      "API call with unopened database connection pointer"],
    "SQLITE_NOLFS": ["large file support is disabled"],
    "SQLITE_RANGE": ["column index out of range", "bind or column index out of range"],
    "SQLITE_NOTADB": ["file is not a database", "file is encrypted or is not a database"],
    "SQLITE_CONSTRAINT_UNIQUE": ["UNIQUE constraint failed"],
    "SQLITE_CONSTRAINT_NOTNULL": ["NOT NULL constraint failed"],
    "SQLITE_CONSTRAINT_FOREIGNKEY": ["FOREIGN KEY constraint failed"],
    "SQLITE_CONSTRAINT_CHECK": ["CHECK constraint failed"],
    # sqlite3_log(SQLITE_WARNING, …) from the Unix VFS when it checks a database file it holds open.
    "SQLITE_WARNING": ["file unlinked while open", "file renamed while open", "multiple links to file", "cannot fstat db file"],
    # The query planner's note under SQLITE_WARNING_AUTOINDEX (where.c: `automatic index on %s(%s)`).
    "SQLITE_WARNING_AUTOINDEX": ["automatic index on"],
}

# Sentences --check-source cannot find literally: texts of older SQLite versions (sqlite3_errstr before 3.20
# and Apple's older libsqlite3 still print them) and sentences SQLite builds with printf (`%s at line %d of
# [%.10s]`, `API call with %s database connection pointer`, `table %s may not be modified`) or splits
# across source lines.
NOT_LITERAL = {
    "SQL logic error or missing database", "internal logic error in SQLite", "library routine called out of sequence",
    "file is encrypted or is not a database", "bind or column index out of range",
    "database corruption at line", "cannot open file at line", "misuse at line",
    "API call with NULL database connection pointer", "API call with invalid database connection pointer",
    "API call with unopened database connection pointer", "sqlite_master may not be modified",
    "unable to close due to unfinalized statements or unfinished backups",
}


def check_source(folder):
    """Every sentence of MESSAGES appears in a file of SQLite's source folder."""
    text = ""
    for name in sorted(os.listdir(folder)):
        if name.endswith((".c", ".h", ".y", ".in")):
            text += open(os.path.join(folder, name), encoding="utf-8", errors="replace").read()
    missing = [m for ms in MESSAGES.values() for m in ms if m not in text and m not in NOT_LITERAL]
    for m in missing:
        print("not in %s: %s" % (folder, m))
    sys.exit(1 if missing else 0)


def main():
    if CHECK_SOURCE:
        check_source(CHECK_SOURCE)
    text = open(HEADER, encoding="utf-8").read()
    primary = {}
    for name, value in re.findall(r"^#define (SQLITE_[A-Z]+)\s+(\d+)\s*/\*", text, re.M):
        if name in PRIMARY:
            primary[name] = int(value)
    extended = []
    for name, base, shift in re.findall(r"^#define (SQLITE_[A-Z_]+)\s+\((SQLITE_[A-Z]+)\s*\|\s*\((\d+)<<8\)\)", text, re.M):
        if base in primary:
            extended.append((name, base, primary[base] | (int(shift) << 8)))
    missing = (set(PRIMARY) - set(primary)) | (set(MESSAGES) - set(primary) - {e[0] for e in extended})
    if missing:
        sys.exit("make-sqlite-table: not found in %s: %s" % (HEADER, ", ".join(sorted(missing))))
    out = []
    out.append("# SQLite result codes, primary and extended, as Core Data reports them (NSSQLiteErrorDomain, `sqlite error")
    version = re.search(r'^#define SQLITE_VERSION\s+"([^"]+)"', text, re.M)
    out.append("# code:N`, `CoreData: error: (N) …`). Generated by scripts/tables/make-sqlite-table.py from sqlite3.h %s; edit the"
               % (version.group(1) if version else "(version unknown)"))
    out.append("# script, not this file. Schema: Rules/README.md, \"Code tables\".")
    out.append("domain: NSSQLiteErrorDomain")
    out.append("key: sqlite")
    out.append("aliases: [SQLite, sqlite, SQLITE, NSSQLiteError]")
    out.append("codes:")
    def q(s):
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
    def messages(name):
        return ", messages: [%s]" % ", ".join(q(m) for m in MESSAGES[name]) if name in MESSAGES else ""
    def success(name):
        return ", success: true" if name in SUCCESS else ""
    for name, value in sorted(primary.items(), key=lambda kv: kv[1]):
        category, severity, meaning, advice = PRIMARY[name]
        generic = ", generic: true" if name == "SQLITE_ERROR" else ""
        out.append("  - {code: %d, name: %s%s, category: %s, severity: %s%s, meaning: %s, advice: %s%s}" % (value, name, success(name), category, severity, generic, q(meaning), q(advice), messages(name)))
    for name, base, value in sorted(extended, key=lambda e: e[2]):
        category, severity, meaning, advice = PRIMARY[base]
        own = EXTENDED.get(name, (None, None))
        own_severity, own_meaning = own[0], own[1]
        advice = own[2] if len(own) > 2 else advice
        severity = own_severity or severity
        meaning = own_meaning or ("%s (%s)." % (meaning.rstrip("."), name[len(base) + 1:].lower().replace("_", " ")))
        out.append("  - {code: %d, name: %s%s, category: %s, severity: %s, meaning: %s, advice: %s%s}" % (value, name, success(name), category, severity, q(meaning), q(advice), messages(name)))
    print("\n".join(out))

main()
