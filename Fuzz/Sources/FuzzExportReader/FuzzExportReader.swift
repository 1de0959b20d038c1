import AccountCore
import AccountOperations

#if canImport(Glibc)
    import Glibc
#endif

/// Feeds arbitrary bytes to the export reader (through a file, as `accounts import` reads it):
/// it must validate or refuse with `invalid_export`, never crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExportReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // In $TMPDIR (scripts/fuzz.sh gives each run a scratch folder), and removed after each
    // input, so that no run leaves its last input behind.
    let folder = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    let path = "\(folder)/accounts-fuzz-export-\(getpid()).jsonl"
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { fatalError("cannot write \(path)") }
    defer { unlink(path) }
    _ = write(fd, data, size)
    close(fd)
    do {
        _ = try StoreImporter.validate(path)
    } catch {
        guard error.code == "invalid_export" else { fatalError("unexpected error \(error.code)") }
    }
    return 0
}
