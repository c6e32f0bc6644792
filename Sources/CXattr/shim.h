// Extended attributes, one signature on Linux and Darwin: Swift's Glibc module doesn't
// import <sys/xattr.h>, and Darwin's calls take two more arguments (a resource-fork position
// and options). These wrappers never follow a symbolic link, so the file named is the one
// changed. Used by StepwiseStore's FileAttributes.
#ifndef STEPWISE_CXATTR_SHIM_H
#define STEPWISE_CXATTR_SHIM_H

#include <sys/types.h>
#include <sys/xattr.h>

/// The names of `path`'s extended attributes, each NUL-terminated, into `names` (`size`
/// bytes; 0 asks for the size needed). The byte count, or -1 with errno set.
static inline ssize_t stepwise_listxattr(const char *path, char *names, size_t size) {
#ifdef __APPLE__
    return listxattr(path, names, size, XATTR_NOFOLLOW);
#else
    return llistxattr(path, names, size);
#endif
}

/// The value of `path`'s attribute `name` into `value` (`size` bytes; 0 asks for the size
/// needed). The byte count, or -1 with errno set.
static inline ssize_t stepwise_getxattr(const char *path, const char *name, void *value, size_t size) {
#ifdef __APPLE__
    return getxattr(path, name, value, size, 0, XATTR_NOFOLLOW);
#else
    return lgetxattr(path, name, value, size);
#endif
}

/// Sets `path`'s attribute `name` to `size` bytes at `value`, creating or replacing it.
/// 0, or -1 with errno set.
static inline int stepwise_setxattr(const char *path, const char *name, const void *value, size_t size) {
#ifdef __APPLE__
    return setxattr(path, name, value, size, 0, XATTR_NOFOLLOW);
#else
    return lsetxattr(path, name, value, size, 0);
#endif
}

#endif
