package import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// glibc functions that Swift's Glibc module hides behind `_GNU_SOURCE`, looked up once by name;
/// nil where the C library lacks them.
package enum GNUExtensions {
    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34+).
    package static let addCloseFrom:
        (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = lookUp(
            "posix_spawn_file_actions_addclosefrom_np")

    /// `posix_spawn_file_actions_addchdir_np` (glibc 2.29+).
    package static let addChangeDirectory:
        (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32)? =
            lookUp("posix_spawn_file_actions_addchdir_np")

    /// `pipe2` (glibc 2.9+): a pipe whose ends carry flags such as `O_CLOEXEC` from the moment they
    /// exist.
    package static let pipe2: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32)? = lookUp("pipe2")

    /// The descriptors of a pipe whose ends are close-on-exec as the kernel makes them, as
    /// (read, write); the caller closes them (see `FileHandle.closeOnExecPipe()`).
    package static func closeOnExecPipeDescriptors() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard let pipe2 else { throw CocoaError(.featureUnsupported) }
        guard pipe2(&ends, O_CLOEXEC) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return (ends[0], ends[1])
    }

    private static func lookUp<Function>(_ name: String) -> Function? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
    }
}

extension FileHandle {
    /// A pipe whose two ends are close-on-exec as the kernel makes them, as (read, write).
    ///
    /// Foundation's `Pipe` makes them inheritable, and marking them afterwards leaves a moment in
    /// which a child that another thread starts keeps a copy, unless its spawner closes every
    /// other descriptor in the child, as `SpawnedProcess` does. Foundation's `Process` closed only
    /// those open when it prepared the spawn: a copy of a watchdog's write end, kept so by a server
    /// another test started, held the watchdog open, and its child running.
    package static func closeOnExecPipe() throws -> (read: FileHandle, write: FileHandle) {
        let ends = try GNUExtensions.closeOnExecPipeDescriptors()
        return (
            FileHandle(fileDescriptor: ends.read, closeOnDealloc: true),
            FileHandle(fileDescriptor: ends.write, closeOnDealloc: true)
        )
    }
}
