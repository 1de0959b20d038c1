import AccountCore
import JSONFileBackend

/// Feeds arbitrary bytes to the JSON-file store reader: it must accept or refuse with a typed
/// error, never crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONStore(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let result = try JSONFileRepository.inspect(bytes)
        if result.users < 0 || result.sessions < 0 { fatalError("negative counts") }
    } catch {
        // A typed refusal is the expected answer to most inputs.
        _ = error.code
    }
    return 0
}
