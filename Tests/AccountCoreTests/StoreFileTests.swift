import AccountCore
import AccountTestSupport
import FileSupport
import Foundation
import Testing

/// The atomic replace every file store and the session file go through.
@Suite("Store files")
struct StoreFileTests {
    @Test("replace writes a new private file, and refuses a pipe, leaving it a pipe")
    func replaceRefusesAPipe() throws {
        let scratch = try ScratchFolder("store-file-replace")
        let file = scratch.path + "/store.json"
        _ = try StoreFile.replace(file, with: Array("{}\n".utf8))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "{}\n")
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let pipe = try NamedPipe(scratch.path + "/session")
        #expect {
            _ = try StoreFile.replace(pipe.path, with: Array("token\n".utf8))
        } throws: { error in
            (error as? AccountError)?.message(.english)
                == "Store I/O error: \(pipe.path) is not a regular file (a pipe); \(pipe.path) was left as it was"
        }
        #expect(pipe.isStillAPipe)
        #expect(pipe.readAvailable().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: pipe.path + ".tmp"))
    }
}
