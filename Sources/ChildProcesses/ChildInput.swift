package import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension FileHandle {
    /// Writes `data` to a child process's standard input (this handle is the write end of its
    /// pipe) and closes it. A child that exits, or closes its input, before reading all of it
    /// is no error: what it did not read was not needed (`--help`, a refused argument). Any
    /// other failure is thrown.
    package func writeToChildAndClose(_ data: Data) throws {
        do {
            try write(contentsOf: data)
        } catch let error as NSError {
            // Foundation wraps the POSIX error (a CocoaError whose underlying error is it).
            let posix = error.domain == NSPOSIXErrorDomain ? error : error.userInfo[NSUnderlyingErrorKey] as? NSError
            guard let posix, posix.domain == NSPOSIXErrorDomain, posix.code == Int(EPIPE) else { throw error }
        }
        try close()
    }
}
