#ifndef STEPWISE_RECORDING_VFS_H
#define STEPWISE_RECORDING_VFS_H

#include <stdint.h>

/// What the recording VFS saw: one call to the real VFS that changed a file or a directory.
typedef enum {
    RecordingVFSCreate = 0,        // xOpen made a new file: path
    RecordingVFSWrite = 1,         // xWrite: path, offset, bytes, length
    RecordingVFSTruncate = 2,      // xTruncate: path, offset (the new size)
    RecordingVFSSync = 3,          // xSync: path
    RecordingVFSSyncDirectory = 4, // the directory fsync of os_unix.c: path (the directory)
    RecordingVFSDelete = 5,        // xDelete: path
} RecordingVFSEventKind;

/// Called after each successful call, on the calling thread.
typedef void (*RecordingVFSCallback)(
    RecordingVFSEventKind kind, const char *path, int64_t offset, const void *bytes, int64_t length);

/// Registers "stepwise-recording", wrapping the current default VFS ("unix"), as the
/// process's default VFS: connections opened from now on report through `callback`.
/// Returns an SQLite result code.
int RecordingVFSInstall(RecordingVFSCallback callback);

/// Makes the wrapped VFS the default again and unregisters the recording one. Connections
/// opened while it was installed must be closed first.
int RecordingVFSUninstall(void);

#endif
