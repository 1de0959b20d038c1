import Foundation

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
            let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
            guard error.domain == NSPOSIXErrorDomain ? error.code == EPIPE : underlying?.code == Int(EPIPE) else {
                throw error
            }
        }
        try close()
    }
}
