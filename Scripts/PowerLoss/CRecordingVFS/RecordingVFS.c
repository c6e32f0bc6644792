// A VFS shim that forwards every call to the real VFS and reports the calls that change
// what a power loss could leave: SQLite's src/test_vfstrace.c and src/test6.c approach.
#include "RecordingVFS.h"

#include <libgen.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct RecordingFile {
    sqlite3_file base;
    const char *path;  // owned by SQLite, valid until xClose
    int reportsSyncDirectory;  // os_unix.c syncs the directory on the first xSync of these
    sqlite3_file *real;  // follows this struct in the same allocation
} RecordingFile;

static sqlite3_vfs *realVFS;
static sqlite3_vfs recordingVFS;
static RecordingVFSCallback report;

static void reportEvent(RecordingVFSEventKind kind, const char *path, int64_t offset, const void *bytes, int64_t length) {
    if (report && path) report(kind, path, offset, bytes, length);
}

static int isSharedMemory(const char *path) {
    size_t length = path ? strlen(path) : 0;
    return length >= 4 && strcmp(path + length - 4, "-shm") == 0;
}

static int fileClose(sqlite3_file *file) {
    RecordingFile *p = (RecordingFile *)file;
    int rc = p->real->pMethods ? p->real->pMethods->xClose(p->real) : SQLITE_OK;
    p->base.pMethods = NULL;
    return rc;
}

static int fileRead(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
    RecordingFile *p = (RecordingFile *)file;
    return p->real->pMethods->xRead(p->real, buffer, amount, offset);
}

static int fileWrite(sqlite3_file *file, const void *buffer, int amount, sqlite3_int64 offset) {
    RecordingFile *p = (RecordingFile *)file;
    int rc = p->real->pMethods->xWrite(p->real, buffer, amount, offset);
    if (rc == SQLITE_OK) reportEvent(RecordingVFSWrite, p->path, offset, buffer, amount);
    return rc;
}

static int fileTruncate(sqlite3_file *file, sqlite3_int64 size) {
    RecordingFile *p = (RecordingFile *)file;
    int rc = p->real->pMethods->xTruncate(p->real, size);
    if (rc == SQLITE_OK) reportEvent(RecordingVFSTruncate, p->path, size, NULL, 0);
    return rc;
}

static int fileSync(sqlite3_file *file, int flags) {
    RecordingFile *p = (RecordingFile *)file;
    int rc = p->real->pMethods->xSync(p->real, flags);
    if (rc != SQLITE_OK) return rc;
    reportEvent(RecordingVFSSync, p->path, 0, NULL, 0);
    if (p->reportsSyncDirectory) {
        // os_unix.c's unixSync: "If the UNIXFILE_DIRSYNC flag is set, then also fsync the
        // directory", once, for a journal, super-journal or WAL opened with SQLITE_OPEN_CREATE.
        p->reportsSyncDirectory = 0;
        char *copy = strdup(p->path);
        if (copy) {
            reportEvent(RecordingVFSSyncDirectory, dirname(copy), 0, NULL, 0);
            free(copy);
        }
    }
    return rc;
}

static int fileSize(sqlite3_file *file, sqlite3_int64 *size) {
    RecordingFile *p = (RecordingFile *)file;
    return p->real->pMethods->xFileSize(p->real, size);
}

static int fileLock(sqlite3_file *file, int lock) {
    RecordingFile *p = (RecordingFile *)file;
    return p->real->pMethods->xLock(p->real, lock);
}

static int fileUnlock(sqlite3_file *file, int lock) {
    RecordingFile *p = (RecordingFile *)file;
    return p->real->pMethods->xUnlock(p->real, lock);
}

static int fileCheckReservedLock(sqlite3_file *file, int *result) {
    RecordingFile *p = (RecordingFile *)file;
    return p->real->pMethods->xCheckReservedLock(p->real, result);
}

static int fileControl(sqlite3_file *file, int op, void *arg) {
    RecordingFile *p = (RecordingFile *)file;
    return p->real->pMethods->xFileControl(p->real, op, arg);
}

static int fileSectorSize(sqlite3_file *file) {
    RecordingFile *p = (RecordingFile *)file;
    return p->real->pMethods->xSectorSize(p->real);
}

static int fileDeviceCharacteristics(sqlite3_file *file) {
    RecordingFile *p = (RecordingFile *)file;
    return p->real->pMethods->xDeviceCharacteristics(p->real);
}

static int fileShmMap(sqlite3_file *file, int page, int size, int extend, void volatile **memory) {
    RecordingFile *p = (RecordingFile *)file;
    return p->real->pMethods->xShmMap(p->real, page, size, extend, memory);
}

static int fileShmLock(sqlite3_file *file, int offset, int count, int flags) {
    RecordingFile *p = (RecordingFile *)file;
    return p->real->pMethods->xShmLock(p->real, offset, count, flags);
}

static void fileShmBarrier(sqlite3_file *file) {
    RecordingFile *p = (RecordingFile *)file;
    p->real->pMethods->xShmBarrier(p->real);
}

static int fileShmUnmap(sqlite3_file *file, int deleteFlag) {
    RecordingFile *p = (RecordingFile *)file;
    return p->real->pMethods->xShmUnmap(p->real, deleteFlag);
}

static int fileFetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **pointer) {
    RecordingFile *p = (RecordingFile *)file;
    return p->real->pMethods->xFetch(p->real, offset, amount, pointer);
}

static int fileUnfetch(sqlite3_file *file, sqlite3_int64 offset, void *pointer) {
    RecordingFile *p = (RecordingFile *)file;
    return p->real->pMethods->xUnfetch(p->real, offset, pointer);
}

static const sqlite3_io_methods recordingMethods = {
    3, fileClose, fileRead, fileWrite, fileTruncate, fileSync, fileSize, fileLock, fileUnlock,
    fileCheckReservedLock, fileControl, fileSectorSize, fileDeviceCharacteristics,
    fileShmMap, fileShmLock, fileShmBarrier, fileShmUnmap, fileFetch, fileUnfetch,
};

static int vfsOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *outFlags) {
    (void)vfs;
    RecordingFile *p = (RecordingFile *)file;
    p->real = (sqlite3_file *)&p[1];
    p->path = name;
    int kind = flags & 0x0FFFFF00;
    int isJournal = kind == SQLITE_OPEN_MAIN_JOURNAL || kind == SQLITE_OPEN_SUPER_JOURNAL || kind == SQLITE_OPEN_WAL;
    int creates = (flags & SQLITE_OPEN_CREATE) != 0;
    p->reportsSyncDirectory = isJournal && creates;
    int existed = name != NULL && access(name, F_OK) == 0;
    int rc = realVFS->xOpen(realVFS, name, p->real, flags, outFlags);
    if (rc != SQLITE_OK || p->real->pMethods == NULL) {
        p->base.pMethods = NULL;
        return rc;
    }
    p->base.pMethods = &recordingMethods;
    // Temporary files and the -shm are not durable state: not reported.
    if (name == NULL || (flags & SQLITE_OPEN_DELETEONCLOSE) || isSharedMemory(name)) {
        p->path = NULL;
        p->reportsSyncDirectory = 0;
    } else if (!existed && creates) {
        reportEvent(RecordingVFSCreate, name, 0, NULL, 0);
    }
    return rc;
}

static int vfsDelete(sqlite3_vfs *vfs, const char *name, int syncDirectory) {
    (void)vfs;
    int rc = realVFS->xDelete(realVFS, name, syncDirectory);
    if (rc == SQLITE_OK && !isSharedMemory(name)) {
        reportEvent(RecordingVFSDelete, name, 0, NULL, 0);
        if (syncDirectory) {
            char *copy = strdup(name);
            if (copy) {
                reportEvent(RecordingVFSSyncDirectory, dirname(copy), 0, NULL, 0);
                free(copy);
            }
        }
    }
    return rc;
}

static int vfsAccess(sqlite3_vfs *vfs, const char *name, int flags, int *result) {
    (void)vfs;
    return realVFS->xAccess(realVFS, name, flags, result);
}

static int vfsFullPathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    (void)vfs;
    return realVFS->xFullPathname(realVFS, name, size, out);
}

static void *vfsDlOpen(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return realVFS->xDlOpen(realVFS, name);
}

static void vfsDlError(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    realVFS->xDlError(realVFS, size, out);
}

static void (*vfsDlSym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    (void)vfs;
    return realVFS->xDlSym(realVFS, handle, symbol);
}

static void vfsDlClose(sqlite3_vfs *vfs, void *handle) {
    (void)vfs;
    realVFS->xDlClose(realVFS, handle);
}

static int vfsRandomness(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return realVFS->xRandomness(realVFS, size, out);
}

static int vfsSleep(sqlite3_vfs *vfs, int microseconds) {
    (void)vfs;
    return realVFS->xSleep(realVFS, microseconds);
}

static int vfsCurrentTime(sqlite3_vfs *vfs, double *now) {
    (void)vfs;
    return realVFS->xCurrentTime(realVFS, now);
}

static int vfsGetLastError(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return realVFS->xGetLastError(realVFS, size, out);
}

static int vfsCurrentTimeInt64(sqlite3_vfs *vfs, sqlite3_int64 *now) {
    (void)vfs;
    return realVFS->xCurrentTimeInt64(realVFS, now);
}

int RecordingVFSInstall(RecordingVFSCallback callback) {
    if (report) return SQLITE_MISUSE;
    int rc = sqlite3_initialize();
    if (rc != SQLITE_OK) return rc;
    realVFS = sqlite3_vfs_find(NULL);
    if (realVFS == NULL) return SQLITE_ERROR;
    memset(&recordingVFS, 0, sizeof recordingVFS);
    recordingVFS.iVersion = 2;
    recordingVFS.szOsFile = (int)sizeof(RecordingFile) + realVFS->szOsFile;
    recordingVFS.mxPathname = realVFS->mxPathname;
    recordingVFS.zName = "stepwise-recording";
    recordingVFS.xOpen = vfsOpen;
    recordingVFS.xDelete = vfsDelete;
    recordingVFS.xAccess = vfsAccess;
    recordingVFS.xFullPathname = vfsFullPathname;
    recordingVFS.xDlOpen = vfsDlOpen;
    recordingVFS.xDlError = vfsDlError;
    recordingVFS.xDlSym = vfsDlSym;
    recordingVFS.xDlClose = vfsDlClose;
    recordingVFS.xRandomness = vfsRandomness;
    recordingVFS.xSleep = vfsSleep;
    recordingVFS.xCurrentTime = vfsCurrentTime;
    recordingVFS.xGetLastError = vfsGetLastError;
    recordingVFS.xCurrentTimeInt64 = vfsCurrentTimeInt64;
    report = callback;
    rc = sqlite3_vfs_register(&recordingVFS, 1);
    if (rc != SQLITE_OK) report = NULL;
    return rc;
}

int RecordingVFSUninstall(void) {
    if (!report) return SQLITE_OK;
    int rc = sqlite3_vfs_register(realVFS, 1);
    if (rc != SQLITE_OK) return rc;
    rc = sqlite3_vfs_unregister(&recordingVFS);
    report = NULL;
    return rc;
}
